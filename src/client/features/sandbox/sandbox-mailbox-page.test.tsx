import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { SandboxMailboxPage } from './sandbox-mailbox-page';

const SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  supportEmail: 'support@candlewise.test',
  companyName: 'Candlewise LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/candlewise',
  docsUrl: 'https://docs.candlewise.test',
  chatUrl: null,
  saleEndsAt: '2099-11-26T23:59:59',
  metaPixelId: null,
  prices: { ...ADVERTISED_PRICES },
  sandbox: ['payments', 'tradingview', 'mail'],
};

const MAIL = {
  id: 'm-1',
  to: 'ada@example.com',
  subject: 'Reset your Candlewise password',
  text: 'The link below expires in 10 minutes.\n\nReset password: http://localhost:3000/reset-password?token=tok123\n\n— Candlewise',
  html: '<p>Hello <a href="http://localhost:3000/reset-password?token=tok123">Reset password</a></p>',
  createdAt: '2025-06-01T10:15:00.000Z',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(settings: SiteSettings = SETTINGS) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify({ mails: [MAIL] }), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SiteSettingsProvider initial={settings}>
        <MemoryRouter initialEntries={['/sandbox/mailbox']}>
          <SandboxMailboxPage />
        </MemoryRouter>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('/sandbox/mailbox', () => {
  it("lists each mail's recipient, subject, time and text with clickable links", async () => {
    const fetchMock = renderPage();
    const mail = await screen.findByRole('article', { name: MAIL.subject });
    expect(within(mail).getByText(MAIL.to)).toBeInTheDocument();
    expect(within(mail).getByText(/expires in 10 minutes/)).toBeInTheDocument();
    expect(within(mail).getByRole('link', { name: 'http://localhost:3000/reset-password?token=tok123' })).toHaveAttribute(
      'href',
      'http://localhost:3000/reset-password?token=tok123',
    );
    expect(within(mail).getByText((_, element) => element?.tagName === 'TIME')).toHaveAttribute('datetime', MAIL.createdAt);
    expect(fetchMock).toHaveBeenCalledWith('/api/sandbox/mailbox', expect.anything());
  });

  it('previews the HTML body in a sandboxed frame', async () => {
    renderPage();
    const frame = await screen.findByTitle(`HTML preview: ${MAIL.subject}`);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame).toHaveAttribute('srcdoc', MAIL.html);
  });

  it('does not exist when mail is not the sandbox adapter', async () => {
    const fetchMock = renderPage({ ...SETTINGS, sandbox: ['payments'] });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
