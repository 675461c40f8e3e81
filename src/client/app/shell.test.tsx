import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NotFoundPage } from '@client/features/not-found/not-found-page';
import { renderRoutes, TEST_SITE_SETTINGS } from '@client/test/render';
import { Brand } from '@client/components/brand';
import { SandboxMarker } from '@client/components/sandbox-marker';
import { AuthContext, type AuthState } from '@client/lib/auth-context';

describe('404 page', () => {
  it('says the page was not found and links home', async () => {
    const { router } = renderRoutes(
      [
        { path: '/', element: <p>home</p> },
        { path: '*', element: <NotFoundPage /> },
      ],
      { path: '/missing' },
    );
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Return to Home' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it('links to the pricing; a member also to the dashboard (#46)', async () => {
    const { unmount } = renderRoutes([{ path: '*', element: <NotFoundPage /> }], { path: '/missing' });
    expect(screen.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/#prices');
    expect(screen.queryByRole('link', { name: 'Go to your dashboard' })).not.toBeInTheDocument();
    unmount();
    const member = { user: { id: 'u1', email: 'ada@example.com', name: 'Ada', createdAt: '2025-01-01T00:00:00.000Z' } } as unknown as AuthState;
    renderRoutes([{ path: '*', element: <NotFoundPage /> }], { path: '/missing', wrap: (node) => <AuthContext.Provider value={member}>{node}</AuthContext.Provider> });
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('sandbox marker', () => {
  it('shows while any adapter is a sandbox', () => {
    renderRoutes([{ path: '/', element: <SandboxMarker /> }]);
    expect(screen.getByTestId('sandbox-marker')).toHaveTextContent('Sandbox');
    expect(screen.getByTestId('sandbox-marker')).toHaveAttribute('title', 'Simulated: payments, tradingview, discord, mail');
  });

  it('is absent in a live shop', () => {
    renderRoutes([{ path: '/', element: <SandboxMarker /> }], { settings: { ...TEST_SITE_SETTINGS, sandbox: [] } });
    expect(screen.queryByTestId('sandbox-marker')).not.toBeInTheDocument();
  });
});

describe('brand', () => {
  it('shows the configured mark beside the brand name, with the Sandbox tag in the flow', () => {
    renderRoutes([{ path: '/', element: <Brand /> }], { settings: { ...TEST_SITE_SETTINGS, brandLogoUrl: 'https://cdn.example.com/logo.png' } });
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('src', 'https://cdn.example.com/logo.png');
    expect(screen.getByText('Candlewise')).toBeInTheDocument();
    expect(screen.getByTestId('sandbox-marker').className).not.toMatch(/\b(fixed|absolute)\b/);
  });

  it('leaves the tag out where the page shows it already', () => {
    renderRoutes([{ path: '/', element: <Brand sandboxTag={false} /> }]);
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('src', '/favicon.svg');
    expect(screen.queryByTestId('sandbox-marker')).not.toBeInTheDocument();
  });
});
