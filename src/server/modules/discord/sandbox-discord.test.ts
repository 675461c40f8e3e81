import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DiscordRoleConfig } from '@shared/discord-roles';
import { perPlan, PLAN_TYPES } from '@shared/plans';
import type { Database } from '../../db/client';
import { DiscordError } from './discord.port';
import { createTestDatabase } from '../../test-support/test-database';
import {
  createSandboxDiscord,
  isSandboxDiscord,
  SANDBOX_BOT_ROLE,
  SANDBOX_CODE_TTL_MS,
  SANDBOX_MEMBER_ROLE,
  SANDBOX_TOKEN_TTL_MS,
  sandboxDiscordRoleConfig,
  sandboxDiscordUserId,
  type SandboxDiscord,
} from './sandbox-discord';
import { OUTAGE_SWITCH_CACHE_MS } from '../tradingview/sandbox-tradingview';

const REDIRECT = 'http://localhost:3000/api/discord/callback';
const SCOPES = ['identify', 'guilds.join'];
const VIP = SANDBOX_MEMBER_ROLE.id;
const LIFETIME = 'sbx-role-lifetime';
const ROLES: DiscordRoleConfig = { memberRoleIds: [], planRoleIds: perPlan(PLAN_TYPES, (plan) => (plan === 'lifetime' ? [LIFETIME] : [])) };

let database: Database;
let now: Date;
let discord: SandboxDiscord;

const create = (roles: DiscordRoleConfig = ROLES) => createSandboxDiscord({ db: database.db, ...roles, clock: () => now, publicUrl: 'http://localhost:3000/' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE sandbox_discord_members, sandbox_discord_codes, sandbox_discord_tokens, sandbox_switches`);
  now = new Date('2030-06-01T00:00:00.000Z');
  discord = create();
});

/** The member's side: consent on the authorize page, then the shop exchanges the code. */
async function link(username: string, scopes: readonly string[] = SCOPES, on: SandboxDiscord = discord) {
  const { code, user } = await on.sandbox.authorize({ username, redirectUri: REDIRECT, scopes });
  const tokens = await on.oauth.exchangeCode({ code, redirectUri: REDIRECT });
  return { user, tokens };
}

const failure = (kind: DiscordError['kind'], code?: number) => expect.objectContaining({ name: 'DiscordError', kind, ...(code === undefined ? {} : { details: expect.objectContaining({ code }) }) });

describe('sandbox Discord accounts', () => {
  it('gives a username one snowflake-like id, the same for any case, every time', () => {
    const id = sandboxDiscordUserId('trader.joe');
    expect(id).toMatch(/^[1-9]\d{17}$/);
    expect(sandboxDiscordUserId('Trader.Joe')).toBe(id);
    expect(sandboxDiscordUserId(' trader.joe ')).toBe(id);
    expect(sandboxDiscordUserId('trader.joey')).not.toBe(id);
  });

  it('is the same account through the authorize page, lowercased', async () => {
    const { user } = await link('@Trader.Joe');
    expect(user).toEqual({ id: sandboxDiscordUserId('trader.joe'), username: 'trader.joe' });
  });

  it.each(['a', 'x'.repeat(33), 'has space', 'semi;colon', 'two..periods', ''])('refuses the username %j as Discord would', async (username) => {
    await expect(discord.sandbox.authorize({ username, redirectUri: REDIRECT, scopes: SCOPES })).rejects.toThrow();
  });
});

describe('sandbox Discord OAuth', () => {
  it('builds the authorize URL of the sandbox page on the shop', () => {
    const url = new URL(discord.oauth.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT, scopes: SCOPES }));
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:3000/sandbox/discord/authorize');
    expect([...url.searchParams]).toEqual([
      ['client_id', 'sandbox'],
      ['redirect_uri', REDIRECT],
      ['state', 'st-1'],
      ['scope', 'identify guilds.join'],
    ]);
  });

  it('exchanges a code once for week-long tokens, and the token names the user', async () => {
    const { code, user } = await discord.sandbox.authorize({ username: 'alice', redirectUri: REDIRECT, scopes: SCOPES });
    const tokens = await discord.oauth.exchangeCode({ code, redirectUri: REDIRECT });
    expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresAt: new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS), scopes: SCOPES });
    expect(await discord.oauth.currentUser(tokens.accessToken)).toEqual(user);
    await expect(discord.oauth.exchangeCode({ code, redirectUri: REDIRECT })).rejects.toEqual(failure('unauthorized'));
  });

  it('refuses a code for another redirect_uri, an unknown code and an expired one', async () => {
    const first = await discord.sandbox.authorize({ username: 'alice', redirectUri: REDIRECT, scopes: SCOPES });
    await expect(discord.oauth.exchangeCode({ code: first.code, redirectUri: 'http://localhost:3000/elsewhere' })).rejects.toMatchObject({ kind: 'unauthorized', message: expect.stringContaining('redirect_uri') });
    await expect(discord.oauth.exchangeCode({ code: 'nope', redirectUri: REDIRECT })).rejects.toEqual(failure('unauthorized'));
    const late = await discord.sandbox.authorize({ username: 'alice', redirectUri: REDIRECT, scopes: SCOPES });
    now = new Date(now.getTime() + SANDBOX_CODE_TTL_MS);
    await expect(discord.oauth.exchangeCode({ code: late.code, redirectUri: REDIRECT })).rejects.toEqual(failure('unauthorized'));
  });

  it('lets an access token lapse after a week; the refresh token gives new ones once', async () => {
    const { user, tokens } = await link('alice');
    now = new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS);
    await expect(discord.oauth.currentUser(tokens.accessToken)).rejects.toEqual(failure('unauthorized'));
    const renewed = await discord.oauth.refresh(tokens.refreshToken!);
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    expect(renewed.refreshToken).not.toBe(tokens.refreshToken);
    expect(renewed.expiresAt).toEqual(new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS));
    expect(await discord.oauth.currentUser(renewed.accessToken)).toEqual(user);
    // the refresh token rotated: the old one is spent
    await expect(discord.oauth.refresh(tokens.refreshToken!)).rejects.toEqual(failure('unauthorized'));
    await expect(discord.oauth.refresh('never-issued')).rejects.toEqual(failure('unauthorized'));
  });

  it('answers currentUser only with the identify scope', async () => {
    const { tokens } = await link('alice', ['guilds.join']);
    await expect(discord.oauth.currentUser(tokens.accessToken)).rejects.toEqual(failure('unauthorized'));
  });
});

describe('the sandbox guild', () => {
  it('has the built-in VIP role and the plan roles, named after the plan, below the bot', async () => {
    expect(await discord.bot.roles()).toEqual([
      { id: VIP, name: 'VIP', position: 1 },
      { id: LIFETIME, name: 'Lifetime', position: 2 },
      { id: SANDBOX_BOT_ROLE.id, name: SANDBOX_BOT_ROLE.name, position: 3 },
    ]);
    expect(sandboxDiscordRoleConfig(ROLES).memberRoleIds).toEqual([VIP]);
  });

  it('uses the configured member roles instead of VIP, and one role for plans that share it', async () => {
    const shared = create({ memberRoleIds: ['111'], planRoleIds: perPlan(PLAN_TYPES, (plan) => (plan === 'monthly' || plan === 'euMonthly' ? ['222'] : plan === 'yearly' ? ['333'] : [])) });
    expect((await shared.bot.roles()).map(({ id, name }) => ({ id, name }))).toEqual([
      { id: '111', name: 'Member' },
      { id: '222', name: 'Monthly' },
      { id: '333', name: 'Yearly' },
      { id: SANDBOX_BOT_ROLE.id, name: SANDBOX_BOT_ROLE.name },
    ]);
    expect(sandboxDiscordRoleConfig({ memberRoleIds: ['111'], planRoleIds: ROLES.planRoleIds }).memberRoleIds).toEqual(['111']);
  });

  it('adds a member with a valid token and roles, then leaves them as they are', async () => {
    const { user, tokens } = await link('alice');
    expect(await discord.bot.addMember(user.id, tokens.accessToken, [VIP])).toBe('added');
    expect(await discord.bot.getMember(user.id)).toEqual({ userId: user.id, username: 'alice', roles: [VIP] });
    expect(await discord.bot.addMember(user.id, tokens.accessToken, [VIP, LIFETIME])).toBe('already_member');
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([VIP]);
    expect(await discord.bot.getMember(sandboxDiscordUserId('nobody'))).toBeNull();
  });

  it("refuses addMember with an unknown or expired token, another user's token, or one without guilds.join", async () => {
    const { user, tokens } = await link('alice');
    const bob = await link('bob');
    const identifyOnly = await link('carol', ['identify']);
    await expect(discord.bot.addMember(user.id, 'forged', [])).rejects.toEqual(failure('unauthorized'));
    await expect(discord.bot.addMember(user.id, bob.tokens.accessToken, [])).rejects.toEqual(failure('unauthorized'));
    await expect(discord.bot.addMember(identifyOnly.user.id, identifyOnly.tokens.accessToken, [])).rejects.toEqual(failure('unauthorized'));
    now = new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS + 1);
    await expect(discord.bot.addMember(user.id, tokens.accessToken, [])).rejects.toEqual(failure('unauthorized'));
    expect(await discord.bot.getMember(user.id)).toBeNull();
  });

  it('gives and takes roles idempotently; an unknown role is 10011, a stranger 10007 for adds', async () => {
    const { user, tokens } = await link('alice');
    await discord.bot.addMember(user.id, tokens.accessToken, []);
    await discord.bot.addRole(user.id, VIP);
    await discord.bot.addRole(user.id, VIP);
    await discord.bot.addRole(user.id, LIFETIME);
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([VIP, LIFETIME]);
    await discord.bot.removeRole(user.id, VIP);
    await discord.bot.removeRole(user.id, VIP);
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([LIFETIME]);

    await expect(discord.bot.addRole(user.id, 'no-such-role')).rejects.toEqual(failure('unknown_role', 10011));
    await expect(discord.bot.removeRole(user.id, 'no-such-role')).rejects.toEqual(failure('unknown_role', 10011));
    await expect(discord.bot.addMember(user.id, tokens.accessToken, ['no-such-role'])).rejects.toEqual(failure('unknown_role', 10011));
    const stranger = sandboxDiscordUserId('stranger');
    await expect(discord.bot.addRole(stranger, VIP)).rejects.toEqual(failure('unknown_member', 10007));
    await expect(discord.bot.removeRole(stranger, VIP)).resolves.toBeUndefined();
    // the bot cannot hand out its own role: it is not below the bot's highest role
    await expect(discord.bot.addRole(user.id, SANDBOX_BOT_ROLE.id)).rejects.toEqual(failure('missing_permissions', 50013));
  });

  it('kicks, and kicking someone not there is done', async () => {
    const { user, tokens } = await link('alice');
    await discord.bot.addMember(user.id, tokens.accessToken, [VIP]);
    await discord.bot.kick(user.id);
    expect(await discord.bot.getMember(user.id)).toBeNull();
    await expect(discord.bot.kick(user.id)).resolves.toBeUndefined();
    // back in the guild afresh, without the old roles
    expect(await discord.bot.addMember(user.id, tokens.accessToken, [])).toBe('added');
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([]);
  });

  it('pages members by user id, as a number, with after and limit', async () => {
    const names = ['alice', 'bob', 'carol', 'dave', 'erin'];
    for (const name of names) {
      const { user, tokens } = await link(name);
      await discord.bot.addMember(user.id, tokens.accessToken, [VIP]);
    }
    const ids = names.map(sandboxDiscordUserId).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const first = await discord.bot.listMembers({ limit: 2 });
    expect(first.map((member) => member.userId)).toEqual(ids.slice(0, 2));
    const second = await discord.bot.listMembers({ after: first.at(-1)!.userId, limit: 2 });
    expect(second.map((member) => member.userId)).toEqual(ids.slice(2, 4));
    const last = await discord.bot.listMembers({ after: second.at(-1)!.userId, limit: 2 });
    expect(last.map((member) => member.userId)).toEqual(ids.slice(4));
    expect(await discord.bot.listMembers({ after: ids[4], limit: 2 })).toEqual([]);
    // a shorter id is a smaller number: every 18-digit id comes after it
    expect(await discord.bot.listMembers({ after: '99', limit: 10 })).toHaveLength(5);
    expect(last[0]).toEqual({ userId: ids[4], username: expect.any(String), roles: [VIP] });
  });

  it('shows the guild to its owner: roles highest first, members with their roles', async () => {
    const { user, tokens } = await link('alice');
    await discord.bot.addMember(user.id, tokens.accessToken, [VIP, LIFETIME]);
    expect(await discord.sandbox.guild()).toEqual({
      roles: [
        { id: SANDBOX_BOT_ROLE.id, name: SANDBOX_BOT_ROLE.name },
        { id: LIFETIME, name: 'Lifetime' },
        { id: VIP, name: 'VIP' },
      ],
      members: [{ id: user.id, username: 'alice', roles: [VIP, LIFETIME] }],
    });
    expect(await discord.sandbox.takeRole(user.id, VIP)).toBe('removed');
    expect(await discord.sandbox.takeRole(user.id, VIP)).toBe('not_held');
    expect(await discord.sandbox.takeRole(sandboxDiscordUserId('nobody'), VIP)).toBe('no_member');
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([LIFETIME]);
  });

  it('reports the bot standing well', async () => {
    expect(await discord.bot.botStanding()).toEqual({ userId: expect.stringMatching(/^\d{18}$/), manageRoles: true, highestRolePosition: 3 });
    expect(isSandboxDiscord(discord)).toBe(true);
  });
});

describe('the sandbox switches', () => {
  it('an outage fails every call as network, until it ends', async () => {
    const { user, tokens } = await link('alice');
    const code = (await discord.sandbox.authorize({ username: 'bob', redirectUri: REDIRECT, scopes: SCOPES })).code;
    await discord.sandbox.setOutage(true);
    expect(await discord.sandbox.switches()).toEqual({ outage: true, missingManageRoles: false, roleAboveBot: false });
    const calls = [
      () => discord.bot.addMember(user.id, tokens.accessToken, []),
      () => discord.bot.getMember(user.id),
      () => discord.bot.addRole(user.id, VIP),
      () => discord.bot.removeRole(user.id, VIP),
      () => discord.bot.kick(user.id),
      () => discord.bot.listMembers({ limit: 10 }),
      () => discord.bot.roles(),
      () => discord.bot.botStanding(),
      () => discord.oauth.exchangeCode({ code, redirectUri: REDIRECT }),
      () => discord.oauth.refresh(tokens.refreshToken!),
      () => discord.oauth.currentUser(tokens.accessToken),
    ];
    for (const call of calls) await expect(call()).rejects.toEqual(failure('network'));
    await discord.sandbox.setOutage(false);
    expect(await discord.bot.addMember(user.id, tokens.accessToken, [VIP])).toBe('added');
    // the code was not spent by the refused exchange
    expect((await discord.oauth.exchangeCode({ code, redirectUri: REDIRECT })).scopes).toEqual(SCOPES);
  });

  it.each([
    ['missing Manage Roles', (on: SandboxDiscord) => on.sandbox.setMissingManageRoles(true)],
    ['a role above the bot', (on: SandboxDiscord) => on.sandbox.setRoleAboveBot(true)],
  ])('%s fails role changes and addMember with roles with 50013, nothing else', async (_name, turnOn) => {
    const { user, tokens } = await link('alice');
    const bob = await link('bob');
    await discord.bot.addMember(user.id, tokens.accessToken, [VIP]);
    await turnOn(discord);
    await expect(discord.bot.addRole(user.id, LIFETIME)).rejects.toEqual(failure('missing_permissions', 50013));
    await expect(discord.bot.removeRole(user.id, VIP)).rejects.toEqual(failure('missing_permissions', 50013));
    await expect(discord.bot.addMember(bob.user.id, bob.tokens.accessToken, [VIP])).rejects.toEqual(failure('missing_permissions', 50013));
    expect(await discord.bot.getMember(bob.user.id)).toBeNull();
    // joining without roles, reading and kicking need no Manage Roles
    expect(await discord.bot.addMember(bob.user.id, bob.tokens.accessToken, [])).toBe('added');
    expect((await discord.bot.listMembers({ limit: 10 })).length).toBe(2);
    await discord.bot.kick(bob.user.id);
    expect((await discord.bot.getMember(user.id))?.roles).toEqual([VIP]);
  });

  it('shows in the bot standing and the role positions', async () => {
    await discord.sandbox.setMissingManageRoles(true);
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: false, highestRolePosition: 3 });
    await discord.sandbox.setMissingManageRoles(false);
    await discord.sandbox.setRoleAboveBot(true);
    const standing = await discord.bot.botStanding();
    expect(standing.manageRoles).toBe(true);
    const roles = await discord.bot.roles();
    const managed = roles.filter((role) => role.id !== SANDBOX_BOT_ROLE.id);
    expect(managed.every((role) => role.position > standing.highestRolePosition)).toBe(true);
    expect(roles.find((role) => role.id === SANDBOX_BOT_ROLE.id)?.position).toBe(standing.highestRolePosition);
  });

  it('is one set of switches for every instance on the database', async () => {
    const other = create();
    expect(await other.bot.botStanding()).toMatchObject({ manageRoles: true });
    await discord.sandbox.setOutage(true);
    await discord.sandbox.setMissingManageRoles(true);
    now = new Date(now.getTime() + OUTAGE_SWITCH_CACHE_MS);
    expect(await other.sandbox.switches()).toEqual({ outage: true, missingManageRoles: true, roleAboveBot: false });
    await expect(other.bot.roles()).rejects.toEqual(failure('network'));
    await other.sandbox.setOutage(false);
    now = new Date(now.getTime() + OUTAGE_SWITCH_CACHE_MS);
    expect(await discord.bot.botStanding()).toMatchObject({ manageRoles: false });
  });

  it('throws DiscordError instances', async () => {
    await discord.sandbox.setOutage(true);
    await expect(discord.bot.roles()).rejects.toBeInstanceOf(DiscordError);
  });
});
