import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_GUARD_TIMEOUT_MS } from '@shared/timing';
import { MEMBER, SESSION, renderDashboard, stubFetch } from './test/dashboard-test-utils';

const NO_ALERTS = { body: { score: 100, colour: 'green', alerts: [] } };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('dashboard guard', () => {
  it('sends a visitor to /auth with a way back', async () => {
    stubFetch({ 'GET /api/auth/get-session': { body: null } });
    const { router } = renderDashboard('/dashboard/strategies');
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/dashboard/strategies');
  });

  it('shows a loader until access is known', async () => {
    stubFetch({ 'GET /api/auth/get-session': { body: SESSION }, 'GET /api/access': 'hang' });
    renderDashboard('/dashboard/guides');
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByText('Guides content')).not.toBeInTheDocument();
  });

  it('turns a user without access away to /premium-access-required and records it on the server', async () => {
    const network = stubFetch({
      'GET /api/auth/get-session': { body: SESSION },
      'GET /api/access': { body: { hasAccess: false } },
      'POST /api/security/events/unauthorized-access': { body: { recorded: true } },
    });
    const { router } = renderDashboard('/dashboard/guides');
    expect(await screen.findByRole('heading', { name: 'Premium required page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/premium-access-required');
    await waitFor(() => expect(network.calls.filter((call) => call.key === 'POST /api/security/events/unauthorized-access')).toHaveLength(1));
    // Only the path travels; the server decides the event type.
    expect(network.calls.find((call) => call.key.startsWith('POST /api/security'))?.body).toEqual({ path: '/dashboard/guides' });
    expect(screen.queryByText('Guides content')).not.toBeInTheDocument();
  });

  it('lets a member in', async () => {
    stubFetch({ 'GET /api/auth/get-session': { body: SESSION }, 'GET /api/access': { body: { hasAccess: true } }, 'GET /api/security/alerts': NO_ALERTS });
    renderDashboard('/dashboard/guides');
    expect(await screen.findByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
  });

  it('lets the user through when the access check takes longer than 8 s', async () => {
    vi.useFakeTimers();
    stubFetch({ 'GET /api/auth/get-session': { body: SESSION }, 'GET /api/access': 'hang', 'GET /api/security/alerts': NO_ALERTS });
    renderDashboard('/dashboard/guides');
    await act(() => vi.advanceTimersByTimeAsync(ROUTE_GUARD_TIMEOUT_MS - 500));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByText('Guides content')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(screen.getByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
  });

  it('retries a failing access check after 1 s and 2 s, then lets the user through', async () => {
    vi.useFakeTimers();
    let guardCalls = 0;
    stubFetch({
      'GET /api/auth/get-session': { body: SESSION },
      'GET /api/access': () => {
        guardCalls++;
        return { status: 503, body: { error: { code: 'internal', message: 'down' } } };
      },
      'GET /api/security/alerts': NO_ALERTS,
    });
    renderDashboard('/dashboard/guides');
    await act(() => vi.advanceTimersByTimeAsync(50));
    const afterFirst = guardCalls;
    expect(afterFirst).toBeGreaterThanOrEqual(1);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    // Second try at 1 s, third at 1 s + 2 s: then the guard gives up and lets the user in.
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(screen.getByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
  });

  it('lets a member in when an early try fails and a retry succeeds', async () => {
    vi.useFakeTimers();
    stubFetch({
      'GET /api/auth/get-session': { body: SESSION },
      'GET /api/access': (_init, call) => (call === 1 ? { status: 502, body: {} } : { body: { hasAccess: false } }),
      'POST /api/security/events/unauthorized-access': { body: { recorded: true } },
    });
    const { router } = renderDashboard('/dashboard/guides');
    await act(() => vi.advanceTimersByTimeAsync(1100));
    await waitFor(() => expect(router.state.location.pathname).toBe('/premium-access-required'));
  });
});

describe('dashboard shell', () => {
  beforeEach(() => {
    stubFetch({
      'GET /api/auth/get-session': { body: SESSION },
      'GET /api/access': { body: { hasAccess: true } },
      'GET /api/security/alerts': NO_ALERTS,
      'POST /api/auth/sign-out': { body: { success: true } },
    });
  });

  it('has the sidebar with Guides highlighted, the support address and the user menu', async () => {
    renderDashboard('/dashboard/guides');
    const nav = await screen.findByRole('navigation', { name: 'Dashboard' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Guides', 'Strategies', 'Discord', 'Refer & earn']);
    expect(within(nav).getByRole('link', { name: 'Guides' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Strategies' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'support@candlewise.app' })).toHaveAttribute('href', 'mailto:support@candlewise.app');
  });

  it('opens My Account and Subscription in the settings and logs out to /', async () => {
    const user = userEvent.setup();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, href: window.location.href, reload: vi.fn() });
    const { router } = renderDashboard('/dashboard/guides');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText(MEMBER.email)).toBeInTheDocument();
    expect(within(menu).getByText('Premium')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'My Account' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/dashboard/settings?section=account');

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Subscription' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/dashboard/settings?section=subscription');

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log Out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
  });

  it('shows the Discord page with the invite in a new tab and the rules note', async () => {
    renderDashboard('/dashboard/discord');
    const join = await screen.findByRole('link', { name: 'Join Discord' });
    expect(join).toHaveAttribute('href', 'https://discord.gg/candlewise');
    expect(join).toHaveAttribute('target', '_blank');
    expect(join.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('note')).toHaveTextContent(/check the rules channel and react with an emoji/i);
  });
});

describe('under 768 px', () => {
  beforeEach(() => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubFetch({ 'GET /api/auth/get-session': { body: SESSION }, 'GET /api/access': { body: { hasAccess: true } }, 'GET /api/security/alerts': NO_ALERTS });
  });

  it("shows 'Desktop Required' with Join Discord and the activation help", async () => {
    const user = userEvent.setup();
    renderDashboard('/dashboard/guides');
    expect(await screen.findByRole('heading', { name: 'Desktop Required' })).toBeInTheDocument();
    expect(screen.queryByText('Guides content')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join Discord' })).toHaveAttribute('href', 'https://discord.gg/candlewise');

    const toggle = screen.getByRole('button', { name: 'How to Activate Your Indicators' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/usually takes just a few minutes/)).toBeInTheDocument();
    expect(screen.getByText(/within a few hours, please contact support/)).toBeInTheDocument();
    const steps = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).toEqual([
      expect.stringContaining('Open a chart'),
      expect.stringContaining('Indicators menu'),
      expect.stringContaining('Invite-only scripts'),
      expect.stringContaining('Select the Candlewise indicators'),
    ]);
  });
});
