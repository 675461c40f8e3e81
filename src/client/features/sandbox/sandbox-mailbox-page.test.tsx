import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteSettings } from '@shared/site';
import { resetAfterTest } from '@client/test/render';
import { SandboxMailboxPage } from './sandbox-mailbox-page';
import { mockFetch, renderAt, SETTINGS } from './sandbox-test-kit';

const MAIL = {
  id: 'm-1',
  to: 'ada@example.com',
  subject: 'Reset your Candlewise password',
  text: 'The link below expires in 10 minutes.\n\nReset password: http://localhost:3000/reset-password?token=tok123\n\n— Candlewise',
  html: '<p>Hello <a href="http://localhost:3000/reset-password?token=tok123">Reset password</a></p>',
  createdAt: '2025-06-01T10:15:00.000Z',
};

afterEach(resetAfterTest);

function renderPage(settings: SiteSettings = SETTINGS, path = '/sandbox/mailbox') {
  mockFetch(({ url }) => ({ body: { mails: url.includes('?to=') && !url.endsWith(encodeURIComponent(MAIL.to)) ? [] : [MAIL] } }));
  renderAt(path, '/sandbox/mailbox', <SandboxMailboxPage />, settings);
  return vi.mocked(fetch);
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

  it("shows one recipient's mails from ?to= and lets the filter be changed and cleared", async () => {
    const fetchMock = renderPage(SETTINGS, '/sandbox/mailbox?to=ada%40example.com');
    expect(await screen.findByRole('article', { name: MAIL.subject })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/sandbox/mailbox?to=ada%40example.com', expect.anything());
    const recipient = screen.getByRole('searchbox', { name: 'Recipient' });
    expect(recipient).toHaveValue('ada@example.com');

    await userEvent.clear(recipient);
    await userEvent.type(recipient, ' bob@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Show mails' }));
    expect(await screen.findByText('No mails to bob@example.com yet.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/sandbox/mailbox?to=bob%40example.com', expect.anything());

    await userEvent.click(screen.getByRole('button', { name: "Show everyone's" }));
    expect(await screen.findByRole('article', { name: MAIL.subject })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Recipient' })).toHaveValue('');
  });

  it('does not exist when mail is not the sandbox adapter', async () => {
    const fetchMock = renderPage({ ...SETTINGS, sandbox: ['payments'] });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
