import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createReadCache } from '@shared/read-cache';
import { sandboxDiscordAuthorizationSchema, sandboxDiscordGuildSchema } from '@shared/sandbox-discord-contract';
import { operatorAuditLog } from '../../db/schema';
import { handleError } from '../../http/errors';
import { openApiHandler } from '../../http/openapi';
import type { AuthVariables } from '../../http/session-user';
import { createTestApp, operatorSession, signUp, TEST_ORIGIN, type TestApp } from '../../test-support/test-app';
import { recordOperatorAction } from '../admin/audit.repository';
import { loadSession } from '../auth/session.middleware';
import { createSessionRepository } from '../auth/session.repository';
import { createSandboxDiscord, SANDBOX_BOT_ROLE, SANDBOX_MEMBER_ROLE, sandboxDiscordUserId, type SandboxDiscord } from './sandbox-discord';
import { sandboxDiscordRoutes } from './sandbox-discord.routes';

// The routes mounted as app.ts mounts the API (error shape, CSRF, session), on the test app's
// database, auth and operator directory.
const CALLBACK = `${TEST_ORIGIN}/api/discord/callback`;
const VIP = SANDBOX_MEMBER_ROLE.id;

let t: TestApp;
let discord: SandboxDiscord;
let app: Hono;
let operator: string;
let member: string;
let demo = false;

beforeAll(async () => {
  t = await createTestApp();
  const { config, database, logger, auth, clock } = t.deps;
  discord = createSandboxDiscord({ db: database.db, memberRoleIds: config.integrations.discord.memberRoleIds, planRoleIds: config.integrations.discord.planRoleIds, clock, publicUrl: config.publicUrl });
  app = new Hono();
  const api = new Hono<{ Variables: AuthVariables }>();
  api.onError((error, c) => handleError(error, c, logger));
  api.use('*', csrf({ origin: config.trustedOrigins }));
  api.use('*', loadSession(auth, createSessionRepository(database.db), createReadCache({ ttlMs: 0, changes: database.writes })));
  api.get('/openapi.json', openApiHandler(app, 'Test'));
  api.route('/sandbox/discord', sandboxDiscordRoutes({ discord, applicationName: config.site.brandName, shopOrigins: config.trustedOrigins, directory: t.services.directory, openToAll: () => demo, audit: (entry) => recordOperatorAction(t.deps.database.db, entry) }));
  app.route('/api', api);
  operator = (await operatorSession(t, 'ops@example.com')).cookie;
  member = await signUp(t, 'member@example.com');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  demo = false;
  await t.deps.database.db.execute(sql`TRUNCATE sandbox_discord_members, sandbox_discord_codes, sandbox_discord_tokens`);
  // through the port, which also ends this instance's kept read of the switches
  await discord.sandbox.setOutage(false);
  await discord.sandbox.setMissingManageRoles(false);
  await discord.sandbox.setRoleAboveBot(false);
});

function request(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
  return app.request(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { origin: TEST_ORIGIN, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** The query the port's authorize URL carries, as the page passes it on. */
function authorizeQuery(redirectUri = CALLBACK, state = 'st-42') {
  return new URL(discord.oauth.authorizeUrl({ state, redirectUri, scopes: ['identify', 'guilds.join'] })).search;
}

const consent = (username: string, overrides: Record<string, unknown> = {}) =>
  request('/api/sandbox/discord/authorize', { body: { clientId: 'sandbox', redirectUri: CALLBACK, state: 'st-42', scope: 'identify guilds.join', username, ...overrides } });

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

/** alice in the guild with VIP, through the page and the port. */
async function aliceInGuild() {
  const { redirectUrl } = (await (await consent('alice')).json()) as { redirectUrl: string };
  const code = new URL(redirectUrl).searchParams.get('code')!;
  const tokens = await discord.oauth.exchangeCode({ code, redirectUri: CALLBACK });
  const user = await discord.oauth.currentUser(tokens.accessToken);
  await discord.bot.addMember(user.id, tokens.accessToken, [VIP]);
  return user;
}

describe('the sandbox Discord authorize page', () => {
  it('shows who asks for identify and guilds.join, and where Cancel goes', async () => {
    const response = await request(`/api/sandbox/discord/authorize${authorizeQuery()}`);
    expect(response.status).toBe(200);
    expect(sandboxDiscordAuthorizationSchema.parse(await response.json())).toEqual({
      application: 'Candlewise',
      scopes: [
        { scope: 'identify', description: 'Access your username and avatar' },
        { scope: 'guilds.join', description: 'Join servers for you' },
      ],
      redirectOrigin: TEST_ORIGIN,
      cancelUrl: `${CALLBACK}?error=access_denied&state=st-42`,
    });
  });

  it('answers Authorize with a one-time code on the redirect_uri, with the state', async () => {
    const response = await consent('Trader.Joe');
    expect(response.status).toBe(200);
    const redirect = new URL(((await response.json()) as { redirectUrl: string }).redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(CALLBACK);
    expect(redirect.searchParams.get('state')).toBe('st-42');
    const code = redirect.searchParams.get('code')!;
    const tokens = await discord.oauth.exchangeCode({ code, redirectUri: CALLBACK });
    expect(await discord.oauth.currentUser(tokens.accessToken)).toEqual({ id: sandboxDiscordUserId('trader.joe'), username: 'trader.joe' });
    await expect(discord.oauth.exchangeCode({ code, redirectUri: CALLBACK })).rejects.toMatchObject({ kind: 'unauthorized' });
  });

  it('keeps the query the redirect_uri already has', async () => {
    const response = await consent('alice', { redirectUri: `${CALLBACK}?next=%2Fdashboard` });
    const redirect = new URL(((await response.json()) as { redirectUrl: string }).redirectUrl);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({ next: '/dashboard', code: expect.any(String), state: 'st-42' });
  });

  it.each([
    ['a', 'Discord usernames are at least 2 characters long.'],
    ['x'.repeat(33), 'Discord usernames are at most 32 characters long.'],
    ['has space', 'Discord usernames contain only letters, numbers, underscores (_) and periods (.).'],
    ['two..periods', 'Discord usernames cannot contain two periods in a row.'],
    ['  ', 'Please enter your Discord username.'],
  ])('refuses the username %j: %s', async (username, message) => {
    const response = await consent(username);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({ code: 'validation_failed', message: `username: ${message}`, details: [{ path: 'username', message }] });
  });

  it.each([
    ['another site', 'https://evil.example/callback'],
    ['a look-alike host', 'http://localhost:3000.evil.example/callback'],
    ['a fragment', `${CALLBACK}#frag`],
    ['no URL at all', 'not a url'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('refuses a redirect_uri on %s, on the page and on Authorize', async (_name, redirectUri) => {
    const page = await request(`/api/sandbox/discord/authorize${authorizeQuery(redirectUri)}`);
    expect(page.status).toBe(400);
    expect(await errorOf(page)).toMatchObject({ code: 'validation_failed', message: 'redirect_uri: redirect_uri must be an address of this shop.' });
    const consented = await consent('alice', { redirectUri });
    expect(consented.status).toBe(400);
    expect(await errorOf(consented)).toMatchObject({ code: 'validation_failed', message: 'redirectUri: redirect_uri must be an address of this shop.' });
  });

  it('refuses another application, an unknown scope and a missing one', async () => {
    expect((await request(`/api/sandbox/discord/authorize?client_id=other&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=identify`)).status).toBe(400);
    const unknownScope = await request(`/api/sandbox/discord/authorize?client_id=sandbox&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=identify+bot`);
    expect(await errorOf(unknownScope)).toMatchObject({ code: 'validation_failed', message: 'scope: Unknown scope: bot.' });
    expect((await request(`/api/sandbox/discord/authorize?client_id=sandbox&redirect_uri=${encodeURIComponent(CALLBACK)}`)).status).toBe(400);
    expect((await consent('alice', { scope: 'identify admin' })).status).toBe(400);
    expect((await consent('alice', { clientId: 'other' })).status).toBe(400);
  });

  it('answers malformed JSON as 400', async () => {
    const response = await app.request('/api/sandbox/discord/authorize', { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, body: '{' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_json');
  });
});

describe('the sandbox guild view', () => {
  it('shows the roles and the members with their roles', async () => {
    const alice = await aliceInGuild();
    const response = await request('/api/sandbox/discord/guild', { cookie: operator });
    expect(response.status).toBe(200);
    expect(sandboxDiscordGuildSchema.parse(await response.json())).toEqual({
      roles: [
        { id: SANDBOX_BOT_ROLE.id, name: SANDBOX_BOT_ROLE.name },
        { id: VIP, name: 'VIP' },
      ],
      members: [{ id: alice.id, username: 'alice', roles: [VIP] }],
    });
  });

  it('takes a role away by hand; 404 for someone not in the guild, 400 for a malformed id or an unknown role', async () => {
    const alice = await aliceInGuild();
    const taken = await request(`/api/sandbox/discord/guild/members/${alice.id}/roles/${VIP}`, { method: 'DELETE', cookie: operator });
    expect(taken.status).toBe(200);
    expect(((await taken.json()) as { members: unknown[] }).members).toEqual([{ id: alice.id, username: 'alice', roles: [] }]);
    expect((await discord.bot.getMember(alice.id))?.roles).toEqual([]);
    // not held any more: done already
    expect((await request(`/api/sandbox/discord/guild/members/${alice.id}/roles/${VIP}`, { method: 'DELETE', cookie: operator })).status).toBe(200);

    const stranger = await request(`/api/sandbox/discord/guild/members/${sandboxDiscordUserId('nobody')}/roles/${VIP}`, { method: 'DELETE', cookie: operator });
    expect(stranger.status).toBe(404);
    expect((await errorOf(stranger)).code).toBe('not_found');
    expect((await request(`/api/sandbox/discord/guild/members/alice/roles/${VIP}`, { method: 'DELETE', cookie: operator })).status).toBe(400);
    const unknownRole = await request(`/api/sandbox/discord/guild/members/${alice.id}/roles/no-such-role`, { method: 'DELETE', cookie: operator });
    expect(unknownRole.status).toBe(400);
    expect((await errorOf(unknownRole)).message).toBe('Unknown role: the sandbox guild has no role with this id.');
  });

  it('is for operators, or anyone in a public demo', async () => {
    expect((await request('/api/sandbox/discord/guild')).status).toBe(401);
    expect((await request('/api/sandbox/discord/guild', { cookie: member })).status).toBe(403);
    expect((await request(`/api/sandbox/discord/guild/members/${sandboxDiscordUserId('alice')}/roles/${VIP}`, { method: 'DELETE', cookie: member })).status).toBe(403);
    demo = true;
    expect((await request('/api/sandbox/discord/guild')).status).toBe(200);
  });
});

describe('the sandbox Discord switches', () => {
  it('turns failures on and off, leaving out what the body leaves out', async () => {
    const off = { outage: false, missingManageRoles: false, roleAboveBot: false };
    expect(await (await request('/api/sandbox/discord/switches', { cookie: operator })).json()).toEqual(off);
    const on = await request('/api/sandbox/discord/switches', { cookie: operator, body: { missingManageRoles: true } });
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ ...off, missingManageRoles: true });
    await expect(discord.bot.addRole(sandboxDiscordUserId('alice'), VIP)).rejects.toMatchObject({ kind: 'missing_permissions' });
    expect(await (await request('/api/sandbox/discord/switches', { cookie: operator, body: { outage: true, roleAboveBot: true } })).json()).toEqual({ outage: true, missingManageRoles: true, roleAboveBot: true });
    await expect(discord.bot.roles()).rejects.toMatchObject({ kind: 'network' });
    expect(await (await request('/api/sandbox/discord/switches', { cookie: operator, body: off })).json()).toEqual(off);
    expect((await discord.bot.roles()).length).toBe(2);
  });

  it('records who switched in the audit log', async () => {
    await request('/api/sandbox/discord/switches', { cookie: operator, body: { outage: true } });
    const rows = await t.deps.database.db
      .select({ operator: operatorAuditLog.operatorEmail, action: operatorAuditLog.action, details: operatorAuditLog.details })
      .from(operatorAuditLog)
      .where(eq(operatorAuditLog.action, 'sandbox.discord_switches'));
    expect(rows).toContainEqual({ operator: 'ops@example.com', action: 'sandbox.discord_switches', details: { outage: true } });
  });

  it('refuses a body with an unknown switch or a non-boolean', async () => {
    const typo = await request('/api/sandbox/discord/switches', { cookie: operator, body: { outtage: true } });
    expect(typo.status).toBe(400);
    expect((await errorOf(typo)).code).toBe('validation_failed');
    expect((await request('/api/sandbox/discord/switches', { cookie: operator, body: { outage: 'yes' } })).status).toBe(400);
  });

  it('is for operators only, even in a public demo (as the TradingView outage is)', async () => {
    demo = true;
    expect((await request('/api/sandbox/discord/switches', { body: { outage: true } })).status).toBe(401);
    expect((await request('/api/sandbox/discord/switches', { cookie: member, body: { outage: true } })).status).toBe(403);
    expect((await request('/api/sandbox/discord/switches', { cookie: member })).status).toBe(403);
    expect((await discord.sandbox.switches()).outage).toBe(false);
  });
});

describe('the OpenAPI document', () => {
  it('documents every sandbox Discord route', async () => {
    const document = (await (await request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string }>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'get /api/sandbox/discord/authorize',
        'post /api/sandbox/discord/authorize',
        'get /api/sandbox/discord/guild',
        'delete /api/sandbox/discord/guild/members/{id}/roles/{roleId}',
        'get /api/sandbox/discord/switches',
        'post /api/sandbox/discord/switches',
      ]),
    );
  });
});
