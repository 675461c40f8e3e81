import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_PAGE_PATH, discordLinkRequest, discordStatusResponseSchema, LINK_SOCIAL_PATH, linkSocialResponseSchema } from '@shared/discord-contract';
import { discordLinkError, SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { SANDBOX_DISCORD_PATHS, sandboxDiscordAuthorizationSchema } from '@shared/sandbox-discord-contract';
import { account, user, userSubscriptions } from '../../db/schema';
import { cookieFrom, createTestApp, TEST_ORIGIN, TEST_PROXY_ADDRESS, type TestApp } from '../../test-support/test-app';
import { discordPlaceholderEmail } from '../auth/auth';
import { discordOf } from '../../test-support/discord-test-kit';
import { isSandboxDiscord, SANDBOX_MEMBER_ROLE, sandboxDiscordUserId, type SandboxDiscord } from './sandbox-discord';
import { accountsOfMembers, currentAccount } from './discord.repository';

// A member links Discord the way a browser does: POST /api/auth/link-social (better-auth, provider
// discord), the sandbox's authorize page (what it shows, then Authorize with a username), and the
// callback it sends the browser to, through the whole app as the composition root wires it.

const VIP = SANDBOX_MEMBER_ROLE.id;
const FUTURE = new Date(Date.now() + 30 * 24 * 60 * 60_000);

let t: TestApp;
let app: TestApp['app'];
let discord: SandboxDiscord;
let signUps = 0;

beforeAll(async () => {
  t = await createTestApp();
  const { port } = discordOf(t);
  if (!isSandboxDiscord(port)) throw new Error('the test app runs the sandbox Discord');
  discord = port;
  app = t.app;
});
afterAll(async () => {
  await t?.close();
});

const throughTestProxy = { incoming: { socket: { remoteAddress: TEST_PROXY_ADDRESS, remoteFamily: 'IPv4' } } };

function request(path: string, init: { method?: string; body?: unknown; cookie?: string; from?: string } = {}) {
  return app.request(
    path,
    {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        origin: TEST_ORIGIN,
        'x-forwarded-for': init.from ?? '203.0.113.7',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    },
    throughTestProxy,
  );
}

/** The browser's cookies after a response: the new ones replace those of the same name. */
function withCookies(cookie: string, response: Response): string {
  const jar = new Map(cookie.split('; ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const));
  for (const pair of cookieFrom(response).split('; ').filter(Boolean)) jar.set(pair.slice(0, pair.indexOf('=')), pair);
  return [...jar.values()].join('; ');
}

/** Each member's browser has an address of its own (better-auth limits sign-ups and link starts per address). */
type Member = { cookie: string; userId: string; email: string; from: string };

/** A signed-up member (each from an address of its own: sign-up is rate limited per address). */
async function member(name: string, options: { access?: boolean } = {}): Promise<Member> {
  signUps += 1;
  const email = `${name}-${signUps}@example.com`;
  const from = `198.51.100.${signUps}`;
  const response = await request('/api/auth/sign-up/email', { body: { email, password: 'Sup3rSecret!', name }, from });
  expect(response.status).toBe(200);
  const [row] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (options.access !== false) await subscribe(row!.id);
  return { cookie: cookieFrom(response), userId: row!.id, email, from };
}

async function subscribe(userId: string) {
  await t.deps.database.db.insert(userSubscriptions).values({ userId, planType: 'monthly', status: 'active', isActive: true, expiresAt: FUTURE, provider: 'sandbox' });
}

/** Connect Discord: better-auth's link-social answers the sandbox's authorize page and sets its state cookie. */
async function startLink(who: Member): Promise<{ authorizeUrl: URL; cookie: string }> {
  const response = await request(LINK_SOCIAL_PATH, { body: discordLinkRequest(), cookie: who.cookie, from: who.from });
  expect(response.status, await response.clone().text()).toBe(200);
  const { url } = linkSocialResponseSchema.parse(await response.json());
  return { authorizeUrl: new URL(url), cookie: withCookies(who.cookie, response) };
}

/** What the sandbox's authorize page reads before it shows the consent (the API behind the page). */
async function authorizePage(authorizeUrl: URL) {
  const response = await request(`${SANDBOX_DISCORD_PATHS.authorize}${authorizeUrl.search}`);
  expect(response.status).toBe(200);
  return sandboxDiscordAuthorizationSchema.parse(await response.json());
}

/** Authorize on the sandbox's page as `username`: the address Discord sends the browser back to. */
async function consent(authorizeUrl: URL, username: string): Promise<URL> {
  const query = authorizeUrl.searchParams;
  const response = await request(SANDBOX_DISCORD_PATHS.authorize, {
    body: { clientId: query.get('client_id'), redirectUri: query.get('redirect_uri'), state: query.get('state'), scope: query.get('scope'), username },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return new URL(((await response.json()) as { redirectUrl: string }).redirectUrl);
}

/** The browser follows the redirect to better-auth's callback: where it is sent next. */
async function callback(callbackUrl: URL, cookie: string): Promise<string> {
  expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${TEST_ORIGIN}/api/auth/callback/discord`);
  const response = await request(`${callbackUrl.pathname}${callbackUrl.search}`, { cookie });
  expect(response.status, await response.clone().text()).toBe(302);
  return response.headers.get('location') ?? '';
}

/** The whole link: Connect Discord, Authorize as `username`, back to the shop. */
async function link(who: Member, username: string): Promise<string> {
  const { authorizeUrl, cookie } = await startLink(who);
  return callback(await consent(authorizeUrl, username), cookie);
}

async function statusOf(who: Member) {
  const response = await request('/api/discord', { cookie: who.cookie });
  expect(response.status).toBe(200);
  return discordStatusResponseSchema.parse(await response.json());
}

const errorParam = (location: string) => new URL(location, TEST_ORIGIN).searchParams.get('error');

async function discordAccountRows(userId: string) {
  return t.deps.database.db
    .select({ accountId: account.accountId })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'discord')));
}

async function guildRolesOf(username: string): Promise<string[] | null> {
  const found = (await discord.sandbox.guild()).members.find((entry) => entry.id === sandboxDiscordUserId(username));
  return found ? found.roles : null;
}

describe('connecting Discord through better-auth', () => {
  it('links the account a member with access authorizes, and the reconciler gives its roles', async () => {
    const jane = await member('jane');
    const { authorizeUrl, cookie } = await startLink(jane);
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${TEST_ORIGIN}/sandbox/discord/authorize`);
    expect(authorizeUrl.searchParams.get('scope')).toBe('identify guilds.join');
    const page = await authorizePage(authorizeUrl);
    expect(page.scopes.map((entry) => entry.scope)).toEqual(['identify', 'guilds.join']);

    expect(await callback(await consent(authorizeUrl, 'Jane.Trades'), cookie)).toBe(DISCORD_PAGE_PATH);
    expect(await statusOf(jane)).toEqual({ connected: true, username: 'jane.trades', roles: [], status: 'pending', lastError: null });
    expect(await discordAccountRows(jane.userId)).toEqual([{ accountId: sandboxDiscordUserId('jane.trades') }]);

    await discordOf(t).reconciler.runOnce();
    expect(await statusOf(jane)).toEqual({ connected: true, username: 'jane.trades', roles: [{ id: VIP, name: 'VIP' }], status: 'synced', lastError: null });
    expect(await guildRolesOf('jane.trades')).toEqual([VIP]);
  });

  it("keeps the member's own e-mail and name: Discord's placeholder address is never stored", async () => {
    const sam = await member('sam');
    await link(sam, 'sam.discord');
    const [row] = await t.deps.database.db.select({ email: user.email, name: user.name }).from(user).where(eq(user.id, sam.userId));
    expect(row).toEqual({ email: sam.email, name: 'sam' });
    const placeholder = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, discordPlaceholderEmail(sandboxDiscordUserId('sam.discord'))));
    expect(placeholder).toEqual([]);
  });

  it('makes another Discord account the current one and takes the roles off the old one', async () => {
    const kim = await member('kim');
    await link(kim, 'kim.first');
    await discordOf(t).reconciler.runOnce();
    expect(await guildRolesOf('kim.first')).toEqual([VIP]);

    // "Use another Discord account"
    expect(await link(kim, 'kim.second')).toBe(DISCORD_PAGE_PATH);
    expect(await statusOf(kim)).toMatchObject({ connected: true, username: 'kim.second' });
    const rows = await accountsOfMembers(t.deps.database.db, [kim.userId]);
    expect(rows.map((row) => [row.username, row.current])).toEqual([
      ['kim.second', true],
      ['kim.first', false],
    ]);
    expect(await discordAccountRows(kim.userId)).toEqual([{ accountId: sandboxDiscordUserId('kim.second') }]);

    await discordOf(t).reconciler.runOnce();
    expect(await guildRolesOf('kim.first')).toEqual([]);
    expect(await guildRolesOf('kim.second')).toEqual([VIP]);
  });

  it('links the same account again without a second row', async () => {
    const lee = await member('lee');
    await link(lee, 'lee.same');
    expect(await link(lee, 'lee.same')).toBe(DISCORD_PAGE_PATH);
    expect(await discordAccountRows(lee.userId)).toHaveLength(1);
    expect((await accountsOfMembers(t.deps.database.db, [lee.userId])).map((row) => [row.username, row.current])).toEqual([['lee.same', true]]);
  });

  it("refuses a Discord account already linked to another member, with the page's clear error", async () => {
    const first = await member('first');
    const second = await member('second');
    await link(first, 'shared.account');
    const location = await link(second, 'shared.account');
    expect(location.startsWith(`${DISCORD_PAGE_PATH}?`)).toBe(true);
    expect(discordLinkError({ code: errorParam(location) ?? undefined }).description).toBe('That Discord account is linked to another member.');
    expect(await statusOf(second)).toEqual({ connected: false });
    expect(await discordAccountRows(second.userId)).toEqual([]);
    expect(await statusOf(first)).toMatchObject({ connected: true, username: 'shared.account' });
  });

  it('lets another member link an account its former owner disconnected', async () => {
    const before = await member('before');
    const after = await member('after');
    await link(before, 'passed.on');
    expect((await request('/api/discord/disconnect', { method: 'POST', cookie: before.cookie })).status).toBe(200);
    expect(await link(after, 'passed.on')).toBe(DISCORD_PAGE_PATH);
    expect(await statusOf(after)).toMatchObject({ connected: true, username: 'passed.on' });
  });

  it('shows the denied error when the member cancels on the consent page', async () => {
    const ann = await member('ann');
    const { authorizeUrl, cookie } = await startLink(ann);
    const { cancelUrl } = await authorizePage(authorizeUrl);
    const location = await callback(new URL(cancelUrl), cookie);
    expect(location).toBe(`${DISCORD_PAGE_PATH}?error=access_denied`);
    expect(discordLinkError({ code: errorParam(location) ?? undefined }).description).toBe('Discord connection was cancelled. Try again when you are ready.');
    expect(await statusOf(ann)).toEqual({ connected: false });
  });

  it('refuses a member without access before Discord is asked', async () => {
    const visitor = await member('visitor', { access: false });
    const response = await request(LINK_SOCIAL_PATH, { body: discordLinkRequest(), cookie: visitor.cookie, from: visitor.from });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { code: string; message: string };
    expect(body).toEqual({ code: 'DISCORD_NEEDS_ACCESS', message: SERVER_ERROR_MESSAGES.discord_needs_access });
    expect(discordLinkError(body).description).toBe('You need an active subscription to connect Discord.');
  });

  it('refuses the link when access ended while the member was on the consent page', async () => {
    const leaving = await member('leaving');
    const { authorizeUrl, cookie } = await startLink(leaving);
    await t.deps.database.db.update(userSubscriptions).set({ isActive: false, status: 'canceled', expiresAt: new Date(Date.now() - 60_000) }).where(eq(userSubscriptions.userId, leaving.userId));
    const location = await callback(await consent(authorizeUrl, 'leaving.user'), cookie);
    expect(errorParam(location)).toBe('discord_needs_access');
    expect(await statusOf(leaving)).toEqual({ connected: false });
    expect(await discordAccountRows(leaving.userId)).toEqual([]);
  });

  it("refuses a callback that carries another session's state", async () => {
    const owner = await member('owner');
    const intruder = await member('intruder');
    const { authorizeUrl } = await startLink(owner);
    const callbackUrl = await consent(authorizeUrl, 'owner.account');
    // the intruder's browser, with a link of its own under way (its own state cookie)
    const own = await startLink(intruder);
    const location = await callback(callbackUrl, own.cookie);
    expect(errorParam(location)).toBe('state_mismatch');
    expect(discordLinkError({ code: 'state_mismatch' }).description).toBe(SERVER_ERROR_MESSAGES.discord_link_expired);
    expect(await statusOf(intruder)).toEqual({ connected: false });
    expect(await statusOf(owner)).toEqual({ connected: false });
    expect(await currentAccount(t.deps.database.db, owner.userId)).toBeNull();
  });

  it('answers that Discord could not be reached when it fails during the link', async () => {
    const otto = await member('otto');
    const { authorizeUrl, cookie } = await startLink(otto);
    const callbackUrl = await consent(authorizeUrl, 'otto.account');
    await discord.sandbox.setOutage(true);
    try {
      const location = await callback(callbackUrl, cookie);
      expect(discordLinkError({ code: errorParam(location) ?? undefined }).description).toBe(SERVER_ERROR_MESSAGES.discord_unavailable);
    } finally {
      await discord.sandbox.setOutage(false);
    }
    expect(await statusOf(otto)).toEqual({ connected: false });
    expect(await discordAccountRows(otto.userId)).toEqual([]);
  });

  it('undoes the link when the Discord account is still the current one of another member', async () => {
    const holder = await member('holder');
    const taker = await member('taker');
    await link(holder, 'held.account');
    // better-auth's row gone, the Discord module's link still current (as if both linked at once)
    await t.deps.database.db.delete(account).where(and(eq(account.userId, holder.userId), eq(account.providerId, 'discord')));
    const location = await link(taker, 'held.account');
    expect(errorParam(location)).toBe('discord_already_linked');
    expect(discordLinkError({ code: errorParam(location) ?? undefined }).description).toBe('That Discord account is linked to another member.');
    expect(await discordAccountRows(taker.userId)).toEqual([]);
    expect(await statusOf(taker)).toEqual({ connected: false });
    expect(await statusOf(holder)).toMatchObject({ connected: true, username: 'held.account' });
  });

  it('links nothing when the session that started the link has ended', async () => {
    const gone = await member('gone');
    const { authorizeUrl, cookie } = await startLink(gone);
    const callbackUrl = await consent(authorizeUrl, 'gone.account');
    expect((await request('/api/auth/sign-out', { body: {}, cookie })).status).toBe(200);
    const location = await callback(callbackUrl, cookie);
    expect(errorParam(location)).toBe('unable_to_link_account');
    expect(await currentAccount(t.deps.database.db, gone.userId)).toBeNull();
  });
});

describe('Discord is for linking only', () => {
  it('refuses signing in (or up) with Discord', async () => {
    const stranger = await request('/api/auth/sign-in/social', { body: { provider: 'discord', callbackURL: '/dashboard' } });
    expect(stranger.status).toBe(403);
    const linked = await member('linked');
    await link(linked, 'linked.account');
    const again = await request('/api/auth/sign-in/social', { body: { provider: 'discord', callbackURL: '/dashboard' } });
    expect(again.status).toBe(403);
    expect(again.headers.getSetCookie().some((value) => value.includes('session_token'))).toBe(false);
  });

  it("keeps the tokens and the unlinking with the shop (better-auth's own endpoints refuse Discord)", async () => {
    const pat = await member('pat');
    await link(pat, 'pat.account');
    for (const path of ['/api/auth/unlink-account', '/api/auth/get-access-token']) {
      const response = await request(path, { body: { providerId: 'discord' }, cookie: pat.cookie });
      expect(response.status, path).toBe(403);
    }
    expect(await statusOf(pat)).toMatchObject({ connected: true });
  });
});

describe('GET /api/discord and POST /api/discord/disconnect', () => {
  it('are documented in the OpenAPI document', async () => {
    const document = (await (await request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>> };
    for (const [path, method] of [
      ['/api/discord', 'get'],
      ['/api/discord/disconnect', 'post'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.summary, path).toBeTruthy();
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '4XX']));
    }
  });

  it('answers a member without a link: not connected; a visitor: sign in', async () => {
    const none = await member('none');
    expect(await statusOf(none)).toEqual({ connected: false });
    expect((await request('/api/discord')).status).toBe(401);
    expect((await request('/api/discord/disconnect', { method: 'POST' })).status).toBe(401);
  });

  it('disconnects: the link and its tokens go, and the reconciler takes the roles off', async () => {
    const dan = await member('dan');
    await link(dan, 'dan.account');
    await discordOf(t).reconciler.runOnce();
    expect(await guildRolesOf('dan.account')).toEqual([VIP]);

    const response = await request('/api/discord/disconnect', { method: 'POST', cookie: dan.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ connected: false });
    expect(await statusOf(dan)).toEqual({ connected: false });
    expect(await discordAccountRows(dan.userId)).toEqual([]);

    await discordOf(t).reconciler.runOnce();
    expect(await guildRolesOf('dan.account')).toEqual([]);
  });

  it('shows a failed pass with its error while Discord refuses role changes', async () => {
    const eve = await member('eve');
    await link(eve, 'eve.account');
    await discord.sandbox.setMissingManageRoles(true);
    try {
      await discordOf(t).reconciler.runOnce();
      const status = await statusOf(eve);
      expect(status).toMatchObject({ connected: true, status: 'failed', roles: [] });
      expect(status.connected && status.lastError).toMatch(/^missing_permissions:/);
    } finally {
      await discord.sandbox.setMissingManageRoles(false);
    }
  });
});
