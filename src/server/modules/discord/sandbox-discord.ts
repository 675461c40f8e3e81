import { createHash, randomBytes } from 'node:crypto';
import { createReadCache } from '@shared/read-cache';
import type { DiscordRoleConfig } from '@shared/discord-roles';
import { planDisplayName } from '@shared/plans';
import { discordUsernameSchema, SANDBOX_DISCORD_CLIENT_ID, type SandboxDiscordGuild, type SandboxDiscordSwitches } from '@shared/sandbox-discord-contract';
import type { Db } from '../../db/client';
import {
  DiscordError,
  type DiscordPort,
  type DiscordSandboxControls,
  type DiscordTokens,
  type DiscordUser,
  type GuildMember,
  type GuildRole,
} from './discord.port';
import {
  addGuildMemberRole,
  deleteGuildMember,
  findGuildMember,
  findToken,
  insertCode,
  insertGuildMember,
  insertSandboxMessage,
  insertToken,
  listGuildMembers,
  readDiscordSwitches,
  removeGuildMemberRole,
  takeCode,
  takeRefreshToken,
  writeDiscordSwitch,
  type DiscordSwitchName,
  type SandboxGuildMemberRow,
  type SandboxTokenRow,
} from './sandbox-discord.repository';
import { OUTAGE_SWITCH_CACHE_MS } from '../tradingview/sandbox-tradingview';

/** The sandbox guild's own role for members while DISCORD_ROLE_IDS is empty. */
export const SANDBOX_MEMBER_ROLE = { id: 'sbx-role-vip', name: 'VIP' } as const;
/** The bot's role: above the managed roles, unless the role-above-bot switch is on. */
export const SANDBOX_BOT_ROLE = { id: 'sbx-role-bot', name: 'Sandbox Bot' } as const;
/** Discord's authorization codes are short-lived. */
export const SANDBOX_CODE_TTL_MS = 10 * 60_000;
/** Discord's access tokens last a week (expires_in 604800). */
export const SANDBOX_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;

/** The scopes the sandbox understands, with the line its authorize page shows for each. */
export const SANDBOX_DISCORD_SCOPES: Readonly<Record<string, string>> = {
  identify: 'Access your username and avatar',
  'guilds.join': 'Join servers for you',
  email: 'Access your email address',
  guilds: 'Know what servers you are in',
};

/**
 * The sandbox Discord account of a username: a snowflake-like id (18 digits) from a hash of the
 * lowercased name, so the same username is always the same account, on every instance and run.
 */
export function sandboxDiscordUserId(username: string): string {
  const digest = createHash('sha256').update(`sandbox-discord:${username.trim().toLowerCase()}`).digest();
  const span = 9n * 10n ** 17n;
  return (10n ** 17n + (digest.readBigUInt64BE(0) % span)).toString();
}

/** The bot's own account in the sandbox guild. */
export const SANDBOX_BOT_USER_ID = sandboxDiscordUserId('sandbox-bot');

/**
 * The roles the shop manages in the sandbox guild: DISCORD_ROLE_IDS, or the sandbox's own VIP role
 * while it is empty, and the per-plan roles. The integration hands this to the reconciler, so
 * that a zero-config shop gives its members the VIP role.
 */
export function sandboxDiscordRoleConfig(config: DiscordRoleConfig): DiscordRoleConfig {
  return config.memberRoleIds.length > 0 ? config : { ...config, memberRoleIds: [SANDBOX_MEMBER_ROLE.id] };
}

/** The managed roles by id and name, in configuration order: members' roles, then each plan's (named after it). */
export function sandboxManagedRoles(config: DiscordRoleConfig): { id: string; name: string }[] {
  const names = new Map<string, string[]>();
  const add = (id: string, name: string) => {
    const list = names.get(id) ?? [];
    if (!list.includes(name)) list.push(name);
    names.set(id, list);
  };
  const memberRoleIds = sandboxDiscordRoleConfig(config).memberRoleIds;
  if (config.memberRoleIds.length === 0) add(SANDBOX_MEMBER_ROLE.id, SANDBOX_MEMBER_ROLE.name);
  else memberRoleIds.forEach((id, index) => add(id, memberRoleIds.length === 1 ? 'Member' : `Member ${index + 1}`));
  for (const [plan, ids] of Object.entries(config.planRoleIds)) for (const id of ids) add(id, planDisplayName(plan));
  return [...names].filter(([id]) => id !== SANDBOX_BOT_ROLE.id).map(([id, list]) => ({ id, name: list.join(' / ') }));
}

export type SandboxDiscordOptions = DiscordRoleConfig & {
  db: Db;
  clock: () => Date;
  /** The shop's address: the sandbox's authorize page is one of its pages. */
  publicUrl: string;
};

export type SandboxAuthorizeResult = { code: string; user: DiscordUser };

/** The sandbox's controls beyond the port's: what its pages and the guild view need. */
export type SandboxDiscordControls = DiscordSandboxControls & {
  switches: () => Promise<SandboxDiscordSwitches>;
  /** The consent of the authorize page: a one-time code for `username` bound to `redirectUri`. */
  authorize: (input: { username: string; redirectUri: string; scopes: readonly string[] }) => Promise<SandboxAuthorizeResult>;
  /** The guild as its owner sees it (switches do not apply). */
  guild: () => Promise<SandboxDiscordGuild>;
  /** A role taken away by hand in the guild, as a moderator would (switches do not apply). */
  takeRole: (userId: string, roleId: string) => Promise<'removed' | 'not_held' | 'no_member'>;
};

export type SandboxDiscord = DiscordPort & { kind: 'sandbox'; sandbox: SandboxDiscordControls };

/** Whether `port` is this sandbox (its routes are mounted only then). */
export function isSandboxDiscord(port: DiscordPort): port is SandboxDiscord {
  return port.kind === 'sandbox' && port.sandbox !== undefined && 'authorize' in port.sandbox && 'guild' in port.sandbox;
}

const OUTAGE_MESSAGE = 'Discord is unreachable (simulated outage)';

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(24).toString('base64url');

const unauthorized = (message: string, status = 401, code?: number) => new DiscordError('unauthorized', message, code === undefined ? { status } : { status, code });
const invalidGrant = (what: string) => unauthorized(`invalid_grant: Invalid "${what}" in request.`, 400);
const invalidOAuthToken = (why: string) => unauthorized(`Invalid OAuth2 access token (${why})`, 403, 50025);

/**
 * The switches (operator console) in sandbox_switches, so that every instance on the database
 * fails alike; read together and kept OUTAGE_SWITCH_CACHE_MS, as the TradingView outage is. This
 * instance's own toggle ends what was kept, before the write and after it.
 */
function discordSwitches(db: Db, clock: () => Date) {
  const toggles = { count: 0 };
  const reads = createReadCache({ ttlMs: OUTAGE_SWITCH_CACHE_MS, changes: toggles, now: () => clock().getTime() });
  return {
    read: () => reads.read('discord_switches', () => readDiscordSwitches(db)),
    async write(name: DiscordSwitchName, on: boolean): Promise<void> {
      toggles.count += 1;
      await writeDiscordSwitch(db, name, on);
      toggles.count += 1;
    },
  };
}

/**
 * The default adapter: a Discord guild kept in the database (sandbox_discord_*), with Discord's
 * semantics (OAuth codes that work once, tokens that expire in a week and rotate on refresh,
 * adding a member who is there already leaves them as they are, 10007/10011/50013) and switches
 * that make it fail as a down Discord or a misconfigured bot would.
 */
export function createSandboxDiscord(options: SandboxDiscordOptions): SandboxDiscord {
  const { db, clock } = options;
  const publicUrl = options.publicUrl.replace(/\/$/, '');
  const managed = sandboxManagedRoles(options);
  const managedIds = new Set(managed.map((role) => role.id));
  const switches = discordSwitches(db, clock);

  const up = async () => {
    const state = await switches.read();
    if (state.outage) throw new DiscordError('network', OUTAGE_MESSAGE, { status: 503 });
    return state;
  };

  function guildRoles(state: SandboxDiscordSwitches): GuildRole[] {
    // the bot's role sits above the managed roles, or (simulated) below every one of them
    const bot = { ...SANDBOX_BOT_ROLE, position: state.roleAboveBot ? 1 : managed.length + 1 };
    const offset = state.roleAboveBot ? 2 : 1;
    return [...managed.map((role, index) => ({ ...role, position: index + offset })), bot];
  }

  /** Discord's order of refusal for a role change: Manage Roles, the role's existence, the hierarchy. */
  function assertMayManage(state: SandboxDiscordSwitches, roleIds: readonly string[]): void {
    if (state.missingManageRoles) throw new DiscordError('missing_permissions', 'Missing Permissions: the bot lacks Manage Roles (simulated)', { status: 403, code: 50013 });
    for (const roleId of roleIds) {
      if (!managedIds.has(roleId) && roleId !== SANDBOX_BOT_ROLE.id) throw new DiscordError('unknown_role', `Unknown Role ${roleId}`, { status: 404, code: 10011 });
    }
    if (state.roleAboveBot || roleIds.includes(SANDBOX_BOT_ROLE.id)) {
      throw new DiscordError('missing_permissions', "Missing Permissions: the role sits above the bot's highest role", { status: 403, code: 50013 });
    }
  }

  async function validToken(accessToken: string): Promise<SandboxTokenRow | null> {
    const token = await findToken(db, hash(accessToken));
    return token && token.expiresAt > clock() ? token : null;
  }

  async function issueTokens(grant: Omit<SandboxTokenRow, 'expiresAt'>): Promise<DiscordTokens> {
    const now = clock();
    const accessToken = newSecret();
    const refreshToken = newSecret();
    const expiresAt = new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS);
    await insertToken(db, { access: hash(accessToken), refresh: hash(refreshToken) }, { ...grant, expiresAt }, now);
    return { accessToken, refreshToken, expiresAt, scopes: [...grant.scopes] };
  }

  const toMember = (row: SandboxGuildMemberRow): GuildMember => ({ userId: row.discordUserId, username: row.username, roles: row.roles });

  return {
    kind: 'sandbox',
    oauth: {
      authorizeUrl({ state, redirectUri, scopes }) {
        const query = new URLSearchParams({ client_id: SANDBOX_DISCORD_CLIENT_ID, redirect_uri: redirectUri, state, scope: scopes.join(' ') });
        return `${publicUrl}/sandbox/discord/authorize?${query.toString()}`;
      },
      async exchangeCode({ code, redirectUri }) {
        await up();
        const grant = await takeCode(db, hash(code));
        if (!grant || grant.expiresAt <= clock()) throw invalidGrant('code');
        if (grant.redirectUri !== redirectUri) throw invalidGrant('redirect_uri');
        return issueTokens({ discordUserId: grant.discordUserId, username: grant.username, scopes: grant.scopes });
      },
      async refresh(refreshToken) {
        await up();
        const grant = await takeRefreshToken(db, hash(refreshToken));
        if (!grant) throw invalidGrant('refresh_token');
        return issueTokens({ discordUserId: grant.discordUserId, username: grant.username, scopes: grant.scopes });
      },
      async currentUser(accessToken) {
        await up();
        const token = await validToken(accessToken);
        if (!token || !token.scopes.includes('identify')) throw unauthorized('401: Unauthorized');
        return { id: token.discordUserId, username: token.username };
      },
    },
    bot: {
      async postMessage(channelId, content) {
        await up();
        await insertSandboxMessage(db, channelId, content, clock());
      },
      async addMember(userId, accessToken, roleIds) {
        const state = await up();
        if (roleIds.length > 0) assertMayManage(state, roleIds);
        const token = await validToken(accessToken);
        if (!token) throw invalidOAuthToken('unknown or expired');
        if (token.discordUserId !== userId) throw invalidOAuthToken('it belongs to another user');
        if (!token.scopes.includes('guilds.join')) throw invalidOAuthToken('no guilds.join scope');
        const added = await insertGuildMember(db, { discordUserId: userId, username: token.username, roles: [...roleIds] }, clock());
        return added ? 'added' : 'already_member';
      },
      async getMember(userId) {
        await up();
        const row = await findGuildMember(db, userId);
        return row ? toMember(row) : null;
      },
      async addRole(userId, roleId) {
        assertMayManage(await up(), [roleId]);
        if (!(await addGuildMemberRole(db, userId, roleId))) throw new DiscordError('unknown_member', 'Unknown Member', { status: 404, code: 10007 });
      },
      async removeRole(userId, roleId) {
        assertMayManage(await up(), [roleId]);
        await removeGuildMemberRole(db, userId, roleId);
      },
      async kick(userId) {
        await up();
        await deleteGuildMember(db, userId);
      },
      async listMembers({ after, limit }) {
        await up();
        const rows = await listGuildMembers(db, { after, limit: Math.min(Math.max(Math.trunc(limit), 1), 1000) });
        return rows.map(toMember);
      },
      roles: async () => guildRoles(await up()),
      async botStanding() {
        const state = await up();
        const bot = guildRoles(state).find((role) => role.id === SANDBOX_BOT_ROLE.id);
        return { userId: SANDBOX_BOT_USER_ID, manageRoles: !state.missingManageRoles, highestRolePosition: bot?.position ?? 0 };
      },
    },
    sandbox: {
      setOutage: (on) => switches.write('outage', on),
      setMissingManageRoles: (on) => switches.write('missingManageRoles', on),
      setRoleAboveBot: (on) => switches.write('roleAboveBot', on),
      switches: () => switches.read(),
      async authorize({ username, redirectUri, scopes }) {
        const name = discordUsernameSchema.parse(username);
        const user = { id: sandboxDiscordUserId(name), username: name };
        const code = newSecret();
        const now = clock();
        await insertCode(db, hash(code), { discordUserId: user.id, username: name, redirectUri, scopes: [...scopes], expiresAt: new Date(now.getTime() + SANDBOX_CODE_TTL_MS) }, now);
        return { code, user };
      },
      async guild() {
        const state = await switches.read();
        const members: SandboxGuildMemberRow[] = [];
        for (let page = await listGuildMembers(db, { limit: 1000 }); page.length > 0; page = await listGuildMembers(db, { after: page.at(-1)!.discordUserId, limit: 1000 })) {
          members.push(...page);
        }
        const roles = guildRoles(state).sort((a, b) => b.position - a.position);
        return {
          roles: roles.map(({ id, name }) => ({ id, name })),
          members: members.map((member) => ({ id: member.discordUserId, username: member.username, roles: member.roles })),
        };
      },
      takeRole: (userId, roleId) => removeGuildMemberRole(db, userId, roleId),
    },
  };
}
