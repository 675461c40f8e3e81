import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { FAKE_DISCORD, startFakeDiscord, type FakeDiscord } from '../../test-support/fake-discord-server';
import { createDiscordClient, type DiscordClientOptions } from './discord-client';
import { DiscordError, type DiscordPort } from './discord.port';

const ALICE = { id: '920000000000000001', username: 'alice' };
const BOB = { id: '920000000000000002', username: 'bob' };
const CAROL = { id: '920000000000000003', username: 'carol' };
const { memberRoleId: MEMBER, vipRoleId: VIP, adminRoleId: ADMIN, botRoleId: BOT_ROLE, guildId: GUILD } = FAKE_DISCORD;
const REDIRECT = 'https://shop.example/api/discord/callback';

let fake: FakeDiscord;
let discord: DiscordPort;

const logger = createLogger('silent');
const client = (options: Partial<DiscordClientOptions> = {}) =>
  createDiscordClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    botToken: fake.botToken,
    guildId: fake.guildId,
    apiBaseUrl: fake.baseUrl,
    timeoutMs: 2_000,
    logger,
    ...options,
  });

beforeEach(async () => {
  fake = await startFakeDiscord();
  fake.addUser(ALICE);
  fake.addUser(BOB, [MEMBER]);
  discord = client();
});
afterEach(async () => {
  await fake.close();
});

/** Method and path of each call after /api/v10, query left off. */
const calls = () => fake.requests.map((request) => `${request.method} ${decodeURIComponent(request.path.replace(/^\/api(\/v10)?/, '').split('?')[0] ?? '')}`);
const rolesOf = (userId: string) => fake.members.get(userId)?.roles;

async function failure(promise: Promise<unknown>): Promise<DiscordError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DiscordError);
  return error as DiscordError;
}

describe('addMember (PUT guilds/{guild}/members/{user})', () => {
  it("adds the user with the roles, using the member's OAuth token (201 → added)", async () => {
    const token = fake.issueToken(ALICE.id);
    expect(await discord.bot.addMember(ALICE.id, token, [MEMBER, VIP])).toBe('added');
    expect(rolesOf(ALICE.id)).toEqual([MEMBER, VIP]);
    const request = fake.requests[0];
    expect(`${request?.method} ${request?.path}`).toBe(`PUT /api/v10/guilds/${GUILD}/members/${ALICE.id}`);
    expect(request?.headers.authorization).toBe(`Bot ${fake.botToken}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({ access_token: token, roles: [MEMBER, VIP] });
  });

  it('leaves a member already in the guild as they are (204 → already_member)', async () => {
    expect(await discord.bot.addMember(BOB.id, fake.issueToken(BOB.id), [VIP])).toBe('already_member');
    expect(rolesOf(BOB.id)).toEqual([MEMBER]);
  });

  it('sends no roles when there are none to give', async () => {
    expect(await discord.bot.addMember(ALICE.id, fake.issueToken(ALICE.id), [])).toBe('added');
    expect(JSON.parse(fake.requests[0]?.body ?? '')).toEqual({ access_token: expect.any(String) });
  });

  it("an invalid member token is unauthorized (50025), a role the bot may not give is missing_permissions", async () => {
    const invalid = await failure(discord.bot.addMember(ALICE.id, 'not-a-token', [MEMBER]));
    expect(invalid).toMatchObject({ kind: 'unauthorized', details: { status: 403, code: 50025 } });
    const above = await failure(discord.bot.addMember(ALICE.id, fake.issueToken(ALICE.id), [ADMIN]));
    expect(above).toMatchObject({ kind: 'missing_permissions', details: { status: 403, code: 50013 } });
  });
});

describe('getMember', () => {
  it('answers the member, or null for a user not in the guild (10007)', async () => {
    expect(await discord.bot.getMember(BOB.id)).toEqual({ userId: BOB.id, username: 'bob', roles: [MEMBER] });
    expect(await discord.bot.getMember(ALICE.id)).toBeNull();
  });
});

describe('addRole / removeRole (guilds/{guild}/members/{user}/roles/{role})', () => {
  it('gives and takes a role', async () => {
    await discord.bot.addRole(BOB.id, VIP);
    expect(rolesOf(BOB.id)).toEqual([MEMBER, VIP]);
    await discord.bot.removeRole(BOB.id, MEMBER);
    expect(rolesOf(BOB.id)).toEqual([VIP]);
    expect(calls()).toEqual([`PUT /guilds/${GUILD}/members/${BOB.id}/roles/${VIP}`, `DELETE /guilds/${GUILD}/members/${BOB.id}/roles/${MEMBER}`]);
  });

  it('giving a role twice is done', async () => {
    await discord.bot.addRole(BOB.id, MEMBER);
    expect(rolesOf(BOB.id)).toEqual([MEMBER]);
  });

  it('removing a role the member does not hold, a deleted role, or from a user not in the guild is done', async () => {
    await discord.bot.removeRole(BOB.id, VIP);
    await discord.bot.removeRole(BOB.id, '910000000000000099');
    await discord.bot.removeRole(ALICE.id, MEMBER);
    expect(rolesOf(BOB.id)).toEqual([MEMBER]);
    expect(calls()).toHaveLength(3);
  });

  it('adding to a user not in the guild is unknown_member; an unknown role is unknown_role', async () => {
    expect(await failure(discord.bot.addRole(ALICE.id, VIP))).toMatchObject({ kind: 'unknown_member', details: { status: 404, code: 10007 } });
    expect(await failure(discord.bot.addRole(BOB.id, '910000000000000099'))).toMatchObject({ kind: 'unknown_role', details: { status: 404, code: 10011 } });
  });

  it('50013 is missing_permissions: a role above the bot, or no Manage Roles', async () => {
    expect(await failure(discord.bot.addRole(BOB.id, ADMIN))).toMatchObject({ kind: 'missing_permissions', details: { status: 403, code: 50013 } });
    fake.forbidRoleChanges = true;
    const error = await failure(discord.bot.removeRole(BOB.id, MEMBER));
    expect(error.kind).toBe('missing_permissions');
    expect(error.message).toContain('Missing Permissions');
    expect(rolesOf(BOB.id)).toEqual([MEMBER]);
  });
});

describe('kick (DELETE guilds/{guild}/members/{user})', () => {
  it('removes the member; a user not in the guild is done', async () => {
    await discord.bot.kick(BOB.id);
    expect(fake.members.has(BOB.id)).toBe(false);
    await discord.bot.kick(BOB.id);
    expect(calls()).toEqual([`DELETE /guilds/${GUILD}/members/${BOB.id}`, `DELETE /guilds/${GUILD}/members/${BOB.id}`]);
  });
});

describe('listMembers (GET guilds/{guild}/members)', () => {
  it('pages by user id with limit and after', async () => {
    fake.addUser(CAROL, [VIP]);
    const first = await discord.bot.listMembers({ limit: 2 });
    expect(first).toEqual([
      { userId: FAKE_DISCORD.botUserId, username: 'Candlewise Bot', roles: [BOT_ROLE] },
      { userId: BOB.id, username: 'bob', roles: [MEMBER] },
    ]);
    const second = await discord.bot.listMembers({ limit: 2, after: first.at(-1)?.userId });
    expect(second).toEqual([{ userId: CAROL.id, username: 'carol', roles: [VIP] }]);
    expect(await discord.bot.listMembers({ limit: 2, after: CAROL.id })).toEqual([]);
    expect(fake.requests.map((request) => request.path.split('?')[1])).toEqual(['limit=2', `limit=2&after=${BOB.id}`, `limit=2&after=${CAROL.id}`]);
  });

  it('without the Server Members intent Discord answers 50001: missing_permissions', async () => {
    fake.membersIntent = false;
    expect(await failure(discord.bot.listMembers({ limit: 10 }))).toMatchObject({ kind: 'missing_permissions', details: { code: 50001 } });
  });
});

describe('roles (GET guilds/{guild}/roles)', () => {
  it("answers the guild's roles with their positions", async () => {
    expect(await discord.bot.roles()).toEqual([
      { id: GUILD, name: '@everyone', position: 0 },
      { id: MEMBER, name: 'Members', position: 1 },
      { id: VIP, name: 'VIP', position: 2 },
      { id: BOT_ROLE, name: 'Candlewise', position: 3 },
      { id: ADMIN, name: 'Admins', position: 4 },
    ]);
  });
});

describe('botStanding', () => {
  const role = (id: string) => {
    const found = fake.roles.get(id);
    if (!found) throw new Error(`no role ${id}`);
    return found;
  };

  it("reads the bot's id, Manage Roles and its highest role's position", async () => {
    expect(await discord.bot.botStanding()).toEqual({ userId: FAKE_DISCORD.botUserId, manageRoles: true, highestRolePosition: 3 });
    expect(calls().sort()).toEqual([`GET /guilds/${GUILD}/members/${FAKE_DISCORD.botUserId}`, `GET /guilds/${GUILD}/roles`, 'GET /users/@me'].sort());
  });

  it('without Manage Roles on any of its roles', async () => {
    role(BOT_ROLE).permissions = 0n;
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: false, highestRolePosition: 3 });
  });

  it('Manage Roles given to @everyone, or Administrator, counts', async () => {
    role(BOT_ROLE).permissions = 0n;
    role(GUILD).permissions |= 1n << 28n;
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: true });
    role(GUILD).permissions = 0n;
    role(BOT_ROLE).permissions = 1n << 3n;
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: true });
  });

  it('the hierarchy: the bot role moved below the managed roles', async () => {
    role(BOT_ROLE).position = 1;
    role(MEMBER).position = 2;
    role(VIP).position = 3;
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: true, highestRolePosition: 1 });
    expect(await failure(discord.bot.addRole(BOB.id, VIP))).toMatchObject({ kind: 'missing_permissions' });
  });

  it('a bot token Discord refuses is unauthorized, and the next call still sends the token', async () => {
    const wrong = client({ botToken: 'revoked' });
    expect(await failure(wrong.bot.botStanding())).toMatchObject({ kind: 'unauthorized', details: { status: 401 } });
    expect(await failure(wrong.bot.roles())).toMatchObject({ kind: 'unauthorized', details: { status: 401 } });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bot revoked');
  });
});

describe('OAuth2', () => {
  it("builds Discord's consent URL", () => {
    const url = discord.oauth.authorizeUrl({ state: 's t&1', redirectUri: REDIRECT, scopes: ['identify', 'guilds.join'] });
    expect(url).toBe(
      `https://discord.com/oauth2/authorize?response_type=code&client_id=${fake.clientId}&scope=identify%20guilds.join&state=s%20t%261&redirect_uri=${encodeURIComponent(REDIRECT)}&prompt=consent`,
    );
  });

  it('exchanges a code (form-encoded, with the client credentials), reads the user, and refreshes', async () => {
    const code = fake.consent(ALICE.id, REDIRECT);
    const before = Date.now();
    const tokens = await discord.oauth.exchangeCode({ code, redirectUri: REDIRECT });
    expect(tokens).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), scopes: ['identify', 'guilds.join'] });
    expect(tokens.expiresAt?.getTime()).toBeGreaterThanOrEqual(before + 604_800_000);
    const request = fake.requests[0];
    expect(`${request?.method} ${request?.path}`).toBe('POST /api/oauth2/token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });

    expect(await discord.oauth.currentUser(tokens.accessToken)).toEqual(ALICE);
    expect(fake.requests[1]?.headers.authorization).toBe(`Bearer ${tokens.accessToken}`);

    const refreshed = await discord.oauth.refresh(tokens.refreshToken ?? '');
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(Object.fromEntries(new URLSearchParams(fake.requests[2]?.body))).toMatchObject({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    expect(await discord.oauth.currentUser(refreshed.accessToken)).toEqual(ALICE);
    // The bot's token never goes along with the member's calls.
    expect(fake.requests.some((r) => r.headers.authorization?.startsWith('Bot'))).toBe(false);
  });

  it('a used or unknown code, a wrong redirect URI, and a spent refresh token are invalid_grant: unauthorized', async () => {
    const code = fake.consent(ALICE.id, REDIRECT);
    const tokens = await discord.oauth.exchangeCode({ code, redirectUri: REDIRECT });
    const reused = await failure(discord.oauth.exchangeCode({ code, redirectUri: REDIRECT }));
    expect(reused).toMatchObject({ kind: 'unauthorized', details: { status: 400 } });
    expect(reused.message).toContain('invalid_grant');
    const elsewhere = fake.consent(ALICE.id, REDIRECT);
    expect(await failure(discord.oauth.exchangeCode({ code: elsewhere, redirectUri: 'https://evil.example/cb' }))).toMatchObject({ kind: 'unauthorized' });
    await discord.oauth.refresh(tokens.refreshToken ?? '');
    expect(await failure(discord.oauth.refresh(tokens.refreshToken ?? ''))).toMatchObject({ kind: 'unauthorized' });
  });

  it('wrong client credentials are unauthorized (invalid_client)', async () => {
    const wrong = client({ clientSecret: 'nope' });
    const error = await failure(wrong.oauth.exchangeCode({ code: fake.consent(ALICE.id, REDIRECT), redirectUri: REDIRECT }));
    expect(error).toMatchObject({ kind: 'unauthorized', details: { status: 401 } });
  });

  it('currentUser with an expired token is unauthorized (401), and the bot keeps working', async () => {
    expect(await failure(discord.oauth.currentUser('expired'))).toMatchObject({ kind: 'unauthorized', details: { status: 401 } });
    expect(await discord.bot.getMember(BOB.id)).not.toBeNull();
  });
});

describe('rate limits', () => {
  it('a short 429 is waited out by the library and the call succeeds', async () => {
    fake.rateLimits.push({ method: 'PUT', path: /\/roles\//, times: 1, retryAfter: 0.05 });
    const started = Date.now();
    await discord.bot.addRole(BOB.id, VIP);
    expect(rolesOf(BOB.id)).toEqual([MEMBER, VIP]);
    expect(calls()).toEqual([`PUT /guilds/${GUILD}/members/${BOB.id}/roles/${VIP}`, `PUT /guilds/${GUILD}/members/${BOB.id}/roles/${VIP}`]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('a short global 429 is waited out too', async () => {
    fake.rateLimits.push({ path: /\/members\//, times: 1, retryAfter: 0.05, global: true });
    expect(await discord.bot.getMember(BOB.id)).not.toBeNull();
    expect(calls()).toHaveLength(2);
  });

  it('a long 429 rejects at once with rate_limited and retryAfterMs', async () => {
    fake.rateLimits.push({ method: 'PUT', path: /\/roles\//, times: 1, retryAfter: 30 });
    const started = Date.now();
    const error = await failure(discord.bot.addRole(BOB.id, VIP));
    expect(error).toMatchObject({ kind: 'rate_limited', details: { status: 429 } });
    expect(error.details.retryAfterMs).toBeGreaterThanOrEqual(30_000);
    expect(error.details.retryAfterMs).toBeLessThan(31_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls()).toHaveLength(1);
    expect(rolesOf(BOB.id)).toEqual([MEMBER]);
  });

  it('a long global 429 (Retry-After only, no bucket headers) rejects too', async () => {
    fake.rateLimits.push({ path: /\/members\//, times: 1, retryAfter: 12, global: true });
    const error = await failure(discord.bot.kick(BOB.id));
    expect(error.kind).toBe('rate_limited');
    expect(error.details.retryAfterMs).toBeGreaterThanOrEqual(12_000);
    expect(fake.members.has(BOB.id)).toBe(true);
  });

  it('a long 429 on the OAuth token endpoint rejects too', async () => {
    fake.rateLimits.push({ method: 'POST', path: /^\/oauth2\/token$/, times: 1, retryAfter: 20 });
    const error = await failure(discord.oauth.exchangeCode({ code: fake.consent(ALICE.id, REDIRECT), redirectUri: REDIRECT }));
    expect(error.kind).toBe('rate_limited');
    expect(error.details.retryAfterMs).toBeGreaterThanOrEqual(20_000);
  });
});

describe('network failures', () => {
  it('5xx is network, after one immediate retry', async () => {
    fake.serverErrors = { status: 502, times: Infinity };
    expect(await failure(discord.bot.roles())).toMatchObject({ kind: 'network', details: { status: 502 } });
    expect(calls()).toHaveLength(2);
  });

  it('a single 5xx is retried and succeeds', async () => {
    fake.serverErrors = { status: 500, times: 1 };
    expect(await discord.bot.roles()).toHaveLength(5);
    expect(calls()).toHaveLength(2);
  });

  it('a server that refuses connections is network', async () => {
    const closed = await unusedPort();
    const down = client({ apiBaseUrl: `http://127.0.0.1:${closed}/api` });
    const error = await failure(down.bot.getMember(BOB.id));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
    expect((await failure(down.oauth.exchangeCode({ code: 'x', redirectUri: REDIRECT }))).kind).toBe('network');
  });

  it('a call that takes longer than timeoutMs is network (timed out)', async () => {
    fake.delayMs = 1_000;
    const slow = client({ timeoutMs: 100 });
    const started = Date.now();
    const error = await failure(slow.bot.addRole(BOB.id, VIP));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('timed out after 100 ms');
    expect(Date.now() - started).toBeLessThan(900);
    expect((await failure(slow.oauth.currentUser('whatever'))).message).toContain('timed out');
  });
});

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
