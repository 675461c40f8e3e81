import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxDiscordAuthorization } from '@shared/sandbox-discord-contract';
import { SandboxDiscordAuthorize } from './sandbox-discord-authorize-page';
import { mockFetch, renderAt, SETTINGS, type Answer } from './sandbox-test-kit';

const CALLBACK = 'http://localhost:3000/api/discord/callback';
const SEARCH = `?client_id=sandbox&redirect_uri=${encodeURIComponent(CALLBACK)}&state=st-42&scope=identify+guilds.join`;
const AUTHORIZATION: SandboxDiscordAuthorization = {
  application: 'Candlewise',
  scopes: [
    { scope: 'identify', description: 'Access your username and avatar' },
    { scope: 'guilds.join', description: 'Join servers for you' },
  ],
  redirectOrigin: 'http://localhost:3000',
  cancelUrl: `${CALLBACK}?error=access_denied&state=st-42`,
};
const REDIRECT = `${CALLBACK}?code=abc&state=st-42`;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(page: Answer = { body: AUTHORIZATION }, consent: (body: Record<string, unknown>) => Answer = () => ({ body: { redirectUrl: REDIRECT } }), settings = SETTINGS) {
  const calls = mockFetch(({ method, url, body }) => {
    if (method === 'GET' && url === `/api/sandbox/discord/authorize${SEARCH}`) return page;
    if (method === 'POST' && url === '/api/sandbox/discord/authorize') return consent(body as Record<string, unknown>);
    return undefined;
  });
  const onAuthorized = vi.fn();
  renderAt(`/sandbox/discord/authorize${SEARCH}`, '/sandbox/discord/authorize', <SandboxDiscordAuthorize search={SEARCH} onAuthorized={onAuthorized} />, settings);
  return { calls, onAuthorized, user: userEvent.setup() };
}

describe('the sandbox Discord authorize page', () => {
  it('names the application and what it asks for, with the username field, Authorize and Cancel', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Candlewise wants to access your Discord account' })).toBeInTheDocument();
    expect(screen.getByText('Access your username and avatar')).toBeInTheDocument();
    expect(screen.getByText('Join servers for you')).toBeInTheDocument();
    expect(screen.getByText('identify')).toBeInTheDocument();
    expect(screen.getByText('guilds.join')).toBeInTheDocument();
    expect(screen.getByLabelText('Discord username')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Authorize' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', AUTHORIZATION.cancelUrl);
    expect(screen.getByText('Sandbox Discord — no real Discord account')).toBeInTheDocument();
  });

  it('authorizes: sends the request and the lowercased username, then moves on to the shop', async () => {
    const { user, calls, onAuthorized } = setup();
    await user.type(await screen.findByLabelText('Discord username'), 'Trader.Joe');
    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    await waitFor(() => expect(onAuthorized).toHaveBeenCalledWith(REDIRECT));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ clientId: 'sandbox', redirectUri: CALLBACK, state: 'st-42', scope: 'identify guilds.join', username: 'trader.joe' });
  });

  it('says what is wrong with a username and sends nothing', async () => {
    const { user, calls } = setup();
    const field = await screen.findByLabelText('Discord username');
    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    expect(screen.getByText('Please enter your Discord username.')).toBeInTheDocument();
    await user.type(field, 'has space');
    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    expect(screen.getByText('Discord usernames contain only letters, numbers, underscores (_) and periods (.).')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal of the username on the field, and any other refusal above the button", async () => {
    const message = 'Discord usernames cannot contain two periods in a row.';
    const { user, onAuthorized } = setup(undefined, ({ username }) =>
      username === 'refused'
        ? { status: 400, body: { error: { code: 'validation_failed', message: `username: ${message}`, details: [{ path: 'username', message }] } } }
        : { status: 400, body: { error: { code: 'validation_failed', message: 'redirectUri: redirect_uri must be an address of this shop.' } } },
    );
    const field = await screen.findByLabelText('Discord username');
    await user.type(field, 'refused');
    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'other');
    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    expect(await screen.findByText('redirectUri: redirect_uri must be an address of this shop.')).toBeInTheDocument();
    expect(onAuthorized).not.toHaveBeenCalled();
  });

  it('refuses a link the sandbox refused (another site as redirect_uri), with no Cancel to it', async () => {
    setup({ status: 400, body: { error: { code: 'validation_failed', message: 'redirect_uri: redirect_uri must be an address of this shop.' } } });
    expect(await screen.findByRole('heading', { name: 'This authorization link is not valid' })).toBeInTheDocument();
    expect(screen.getByText('redirect_uri: redirect_uri must be an address of this shop.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('does not exist in a shop with the real Discord bot', async () => {
    const { calls } = setup(undefined, undefined, { ...SETTINGS, sandbox: ['payments'] });
    expect(await screen.findByRole('heading', { name: 'This authorization link is not valid' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
