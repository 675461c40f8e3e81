import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordStatusResponse } from '@shared/discord-contract';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { resetAfterTest, stubLocation } from '@client/test/render';
import { renderDashboard, SESSION, stubFetch, type Handler } from './test/dashboard-test-utils';

afterEach(() => {
  resetAfterTest();
  window.localStorage.clear();
});

const CONSENT_URL = 'http://localhost:3000/sandbox/discord/authorize?response_type=code&client_id=sandbox&state=st-1';

const connected = (overrides: Partial<Extract<DiscordStatusResponse, { connected: true }>> = {}): DiscordStatusResponse => ({
  connected: true,
  username: 'jane.trades',
  roles: [],
  status: 'pending',
  lastError: null,
  ...overrides,
});

/** A member with access on the Discord page, the link in `status`. */
function openDiscordPage(status: Handler, routes: Record<string, Handler> = {}, path = '/dashboard/discord') {
  const network = stubFetch({
    'GET /api/auth/get-session': { body: SESSION },
    'GET /api/access': { body: { hasAccess: true } },
    'GET /api/security/alerts': { body: { score: 100, colour: 'green', alerts: [] } },
    'GET /api/discord': status,
    ...routes,
  });
  const view = renderDashboard(path);
  return { ...view, network };
}

const connection = () => screen.findByRole('region', { name: 'Your Discord account' });

describe('the Discord page', () => {
  it("keeps the spec's heading, Join Discord in a new tab and the rules note beside the connection", async () => {
    openDiscordPage({ body: { connected: false } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Our Discord Community' })).toBeInTheDocument();
    const join = screen.getByRole('link', { name: 'Join Discord' });
    expect(join).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('note')).toHaveTextContent(/check the rules channel and react with an emoji/i);
    expect(await within(await connection()).findByRole('button', { name: 'Connect Discord' })).toBeInTheDocument();
  });

  it('Connect Discord starts the link through better-auth and opens the consent page', async () => {
    const location = stubLocation();
    try {
      const { network } = openDiscordPage({ body: { connected: false } }, { 'POST /api/auth/link-social': { body: { url: CONSENT_URL, redirect: true } } });
      const user = userEvent.setup();
      await user.click(await within(await connection()).findByRole('button', { name: 'Connect Discord' }));
      await waitFor(() => expect(location.assign).toHaveBeenCalledWith(CONSENT_URL));
      expect(network.calls.find((call) => call.key === 'POST /api/auth/link-social')?.body).toEqual({
        provider: 'discord',
        callbackURL: '/dashboard/discord',
        errorCallbackURL: '/dashboard/discord',
      });
      expect(within(await connection()).getByRole('button', { name: 'Opening Discord...' })).toBeDisabled();
    } finally {
      location.restore();
    }
  });

  it('says why a member cannot connect when better-auth refuses the link', async () => {
    const location = stubLocation();
    try {
      openDiscordPage(
        { body: { connected: false } },
        { 'POST /api/auth/link-social': { status: 403, body: { code: 'DISCORD_NEEDS_ACCESS', message: SERVER_ERROR_MESSAGES.discord_needs_access } } },
      );
      const user = userEvent.setup();
      const card = await connection();
      await user.click(await within(card).findByRole('button', { name: 'Connect Discord' }));
      expect(await within(card).findByRole('alert')).toHaveTextContent('You need an active subscription to connect Discord.');
      expect(location.assign).not.toHaveBeenCalled();
      expect(within(card).getByRole('button', { name: 'Connect Discord' })).toBeEnabled();
    } finally {
      location.restore();
    }
  });

  it('shows the account and "Roles pending…" right after a link', async () => {
    openDiscordPage({ body: connected() });
    const card = await connection();
    expect(await within(card).findByText('jane.trades')).toBeInTheDocument();
    expect(card).toHaveTextContent('Connected as jane.trades');
    expect(within(card).getByText('Roles pending…')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Use another Discord account' })).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lists the roles the account was given', async () => {
    openDiscordPage({ body: connected({ status: 'synced', roles: [{ id: 'r1', name: 'VIP' }, { id: 'r2', name: 'Lifetime' }] }) });
    const card = await connection();
    const roles = await within(card).findByRole('list', { name: 'Your Discord roles' });
    expect(within(roles).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['VIP', 'Lifetime']);
    expect(within(card).queryByText('Roles pending…')).not.toBeInTheDocument();
  });

  it('says so when the account holds no roles', async () => {
    openDiscordPage({ body: connected({ status: 'synced', roles: [] }) });
    expect(await within(await connection()).findByText(/No roles yet/)).toBeInTheDocument();
  });

  it('puts a failed role change in words, never the raw error', async () => {
    openDiscordPage({ body: connected({ status: 'failed', lastError: 'unauthorized: 401: Unauthorized' }) });
    const card = await connection();
    expect(await within(card).findByText(/Your Discord connection has expired\. Connect Discord again/)).toBeInTheDocument();
    expect(card).not.toHaveTextContent('401');
  });

  it.each([
    ['access_denied', 'Discord connection was cancelled. Try again when you are ready.'],
    ['account_already_linked_to_different_user', 'That Discord account is linked to another member.'],
    ['state_mismatch', SERVER_ERROR_MESSAGES.discord_link_expired],
    ['discord_needs_access', 'You need an active subscription to connect Discord.'],
    ['something_new', 'Discord could not be connected. Please try again.'],
  ])('shows ?error=%s from the return as a clear message', async (code, text) => {
    openDiscordPage({ body: { connected: false } }, {}, `/dashboard/discord?error=${code}`);
    const alert = await within(await connection()).findByRole('alert');
    expect(alert).toHaveTextContent('Discord Not Connected');
    expect(alert).toHaveTextContent(text);
  });

  it('forgets the returned error when the member tries again', async () => {
    const location = stubLocation();
    try {
      const { router } = openDiscordPage({ body: { connected: false } }, { 'POST /api/auth/link-social': { body: { url: CONSENT_URL, redirect: true } } }, '/dashboard/discord?error=access_denied');
      const user = userEvent.setup();
      const card = await connection();
      expect(await within(card).findByRole('alert')).toBeInTheDocument();
      await user.click(await within(card).findByRole('button', { name: 'Connect Discord' }));
      await waitFor(() => expect(location.assign).toHaveBeenCalledWith(CONSENT_URL));
      expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
      expect(router.state.location.search).toBe('');
    } finally {
      location.restore();
    }
  });

  it('Disconnect unlinks the account and offers Connect Discord again', async () => {
    const { network } = openDiscordPage({ body: connected({ status: 'synced', roles: [{ id: 'r1', name: 'VIP' }] }) }, { 'POST /api/discord/disconnect': { body: { connected: false } } });
    const user = userEvent.setup();
    const card = await connection();
    await user.click(await within(card).findByRole('button', { name: 'Disconnect' }));
    expect(await within(card).findByRole('button', { name: 'Connect Discord' })).toBeInTheDocument();
    expect(within(card).queryByText('jane.trades')).not.toBeInTheDocument();
    expect(network.count('POST /api/discord/disconnect')).toBe(1);
  });

  it('keeps the account shown when Disconnect fails', async () => {
    openDiscordPage({ body: connected({ status: 'synced' }) }, { 'POST /api/discord/disconnect': { status: 500, body: { error: { code: 'internal', message: 'boom' } } } });
    const user = userEvent.setup();
    const card = await connection();
    await user.click(await within(card).findByRole('button', { name: 'Disconnect' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Discord could not be disconnected. Please try again.');
    expect(within(card).getByText('jane.trades')).toBeInTheDocument();
  });

  it('Use another Discord account starts a new link', async () => {
    const location = stubLocation();
    try {
      const { network } = openDiscordPage({ body: connected({ status: 'synced' }) }, { 'POST /api/auth/link-social': { body: { url: CONSENT_URL, redirect: true } } });
      const user = userEvent.setup();
      await user.click(await within(await connection()).findByRole('button', { name: 'Use another Discord account' }));
      await waitFor(() => expect(location.assign).toHaveBeenCalledWith(CONSENT_URL));
      expect(network.count('POST /api/auth/link-social')).toBe(1);
    } finally {
      location.restore();
    }
  });

  it('says when the connection cannot be loaded, and tries again on request', async () => {
    const { network } = openDiscordPage((_init, call) => (call === 1 ? { status: 500, body: { error: { code: 'internal', message: 'boom' } } } : { body: { connected: false } }));
    const user = userEvent.setup();
    const card = await connection();
    expect(await within(card).findByText('Your Discord connection could not be loaded.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Try Again' }));
    expect(await within(card).findByRole('button', { name: 'Connect Discord' })).toBeInTheDocument();
    expect(network.count('GET /api/discord')).toBe(2);
  });
});
