// Test helper: a local HTTP server that answers like Discord's API (v10) for what the Discord
// adapter calls: the bot's guild member and role endpoints, users/@me, and the OAuth2 token
// endpoint. It keeps one guild (roles with positions and permissions, members with roles, the
// bot's own member), checks permissions and the role hierarchy as Discord does, and has switches
// for rate limits (429 + retry_after), 50013 on role changes, 5xx answers and slow answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; headers: IncomingMessage['headers']; body: string };

export type FakeDiscordRole = { id: string; name: string; position: number; permissions: bigint };
export type FakeDiscordUser = { id: string; username: string };
export type FakeDiscordMember = { roles: string[] };
export type FakeDiscordToken = { userId: string; scopes: string[]; refreshToken: string };

/** Answers the next `times` calls whose method and path (after /api/v10) match with a 429. */
export type FakeRateLimit = {
  method?: string;
  path: RegExp;
  times: number;
  /** Seconds, as Discord's `retry_after` (a float). */
  retryAfter: number;
  global?: boolean;
  scope?: 'user' | 'shared' | 'global';
};

export type FakeDiscord = {
  /** The `api` base for @discordjs/rest: http://127.0.0.1:port/api */
  baseUrl: string;
  guildId: string;
  botUserId: string;
  botToken: string;
  clientId: string;
  clientSecret: string;
  /** Guild roles by id; @everyone has the guild's id and position 0. */
  roles: Map<string, FakeDiscordRole>;
  /** Guild members by user id (the bot's member included). */
  members: Map<string, FakeDiscordMember>;
  /** Discord accounts by id (the bot's included). */
  users: Map<string, FakeDiscordUser>;
  /** OAuth2 codes that the token endpoint exchanges once. */
  codes: Map<string, { userId: string; redirectUri: string; scopes: string[] }>;
  /** Access tokens handed out. */
  tokens: Map<string, FakeDiscordToken>;
  requests: RecordedRequest[];
  rateLimits: FakeRateLimit[];
  /** Role changes (and adding a member with roles) answer 50013 whatever the bot's permissions. */
  forbidRoleChanges: boolean;
  /** The next `times` calls answer this 5xx status (times: Infinity for an outage). */
  serverErrors: { status: number; times: number } | null;
  /** When false, listing members answers 50001 as without the Server Members intent. */
  membersIntent: boolean;
  /** Answers every call this late (ms), to test timeouts. */
  delayMs: number;
  /** A code as if the user had consented on Discord's page (identify guilds.join by default). */
  consent: (userId: string, redirectUri: string, scopes?: string[]) => string;
  /** An access token for the user, as an exchanged code would give. */
  issueToken: (userId: string, scopes?: string[]) => string;
  /** Adds a Discord account, and a guild member when roles are given. */
  addUser: (user: FakeDiscordUser, roles?: string[]) => void;
  close: () => Promise<void>;
};

export const FAKE_DISCORD = {
  guildId: '900000000000000001',
  botUserId: '900000000000000002',
  botToken: 'fake-bot-token',
  clientId: '900000000000000003',
  clientSecret: 'fake-client-secret',
  /** The bot's own role (Manage Roles), above the managed roles. */
  botRoleId: '910000000000000001',
  /** Roles the shop manages. */
  memberRoleId: '910000000000000002',
  vipRoleId: '910000000000000003',
  /** A role above the bot's. */
  adminRoleId: '910000000000000004',
} as const;

const MANAGE_ROLES = 1n << 28n;
const ADMINISTRATOR = 1n << 3n;
const BASE_PERMISSIONS = (1n << 10n) | (1n << 11n); // View Channel, Send Messages
const TOKEN_LIFETIME_S = 604_800;

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

const error = (status: number, code: number, message: string): Answer => ({ status, body: { message, code } });
const unauthorized: Answer = error(401, 0, '401: Unauthorized');
const oauthError = (status: number, kind: string, description: string): Answer => ({ status, body: { error: kind, error_description: description } });

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const { guildId, botUserId } = FAKE_DISCORD;
  let counter = 0;
  const fake: FakeDiscord = {
    baseUrl: '',
    guildId,
    botUserId,
    botToken: FAKE_DISCORD.botToken,
    clientId: FAKE_DISCORD.clientId,
    clientSecret: FAKE_DISCORD.clientSecret,
    roles: new Map(
      [
        { id: guildId, name: '@everyone', position: 0, permissions: BASE_PERMISSIONS },
        { id: FAKE_DISCORD.memberRoleId, name: 'Members', position: 1, permissions: 0n },
        { id: FAKE_DISCORD.vipRoleId, name: 'VIP', position: 2, permissions: 0n },
        { id: FAKE_DISCORD.botRoleId, name: 'Candlewise', position: 3, permissions: MANAGE_ROLES },
        { id: FAKE_DISCORD.adminRoleId, name: 'Admins', position: 4, permissions: ADMINISTRATOR },
      ].map((role) => [role.id, role]),
    ),
    members: new Map([[botUserId, { roles: [FAKE_DISCORD.botRoleId] }]]),
    users: new Map([[botUserId, { id: botUserId, username: 'Candlewise Bot' }]]),
    codes: new Map(),
    tokens: new Map(),
    requests: [],
    rateLimits: [],
    forbidRoleChanges: false,
    serverErrors: null,
    membersIntent: true,
    delayMs: 0,
    consent: (userId, redirectUri, scopes = ['identify', 'guilds.join']) => {
      const code = `code-${++counter}`;
      fake.codes.set(code, { userId, redirectUri, scopes });
      return code;
    },
    issueToken: (userId, scopes = ['identify', 'guilds.join']) => {
      const accessToken = `access-${++counter}`;
      fake.tokens.set(accessToken, { userId, scopes, refreshToken: `refresh-${counter}` });
      return accessToken;
    },
    addUser: (user, roles) => {
      fake.users.set(user.id, user);
      if (roles) fake.members.set(user.id, { roles: [...roles] });
    },
    close: async () => {},
  };

  const roleJson = (role: FakeDiscordRole) => ({
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.id === FAKE_DISCORD.botRoleId,
    mentionable: false,
    flags: 0,
  });
  const userJson = (user: FakeDiscordUser) => ({
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: null,
    avatar: null,
    ...(user.id === botUserId ? { bot: true } : {}),
  });
  const memberJson = (userId: string, member: FakeDiscordMember) => ({
    user: userJson(fake.users.get(userId) ?? { id: userId, username: `user${userId.slice(-4)}` }),
    nick: null,
    avatar: null,
    roles: member.roles,
    joined_at: '2025-01-01T00:00:00.000000+00:00',
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
  });

  /** Discord's rule for giving or taking a role: Manage Roles (or Administrator) and a higher role than it. */
  function mayManage(roleIds: readonly string[]): boolean {
    if (fake.forbidRoleChanges) return false;
    const held = [guildId, ...(fake.members.get(botUserId)?.roles ?? [])].flatMap((id) => fake.roles.get(id) ?? []);
    const permissions = held.reduce((all, role) => all | role.permissions, 0n);
    if (!(permissions & (MANAGE_ROLES | ADMINISTRATOR))) return false;
    const highest = Math.max(...held.map((role) => role.position));
    return roleIds.every((id) => (fake.roles.get(id)?.position ?? 0) < highest);
  }

  function bearer(req: IncomingMessage): FakeDiscordToken | null {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    return match?.[1] ? (fake.tokens.get(match[1]) ?? null) : null;
  }

  function tokenAnswer(userId: string, scopes: string[]): Answer {
    const accessToken = fake.issueToken(userId, scopes);
    const token = fake.tokens.get(accessToken);
    return {
      status: 200,
      body: { token_type: 'Bearer', access_token: accessToken, expires_in: TOKEN_LIFETIME_S, refresh_token: token?.refreshToken, scope: scopes.join(' ') },
    };
  }

  function oauthToken(req: IncomingMessage, form: URLSearchParams): Answer {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    const clientId = form.get('client_id') ?? basicId;
    const clientSecret = form.get('client_secret') ?? basicSecret;
    if (clientId !== fake.clientId || clientSecret !== fake.clientSecret) return oauthError(401, 'invalid_client', 'Invalid client');
    switch (form.get('grant_type')) {
      case 'authorization_code': {
        const code = fake.codes.get(form.get('code') ?? '');
        if (!code) return oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
        fake.codes.delete(form.get('code') ?? '');
        if (code.redirectUri !== form.get('redirect_uri')) return oauthError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
        return tokenAnswer(code.userId, code.scopes);
      }
      case 'refresh_token': {
        const found = [...fake.tokens].find(([, token]) => token.refreshToken === form.get('refresh_token'));
        if (!found) return oauthError(400, 'invalid_grant', 'Invalid "refresh_token" in request.');
        fake.tokens.delete(found[0]);
        return tokenAnswer(found[1].userId, found[1].scopes);
      }
      default:
        return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type');
    }
  }

  function api(req: IncomingMessage, method: string, route: string, query: URLSearchParams, body: string): Answer {
    if (method === 'GET' && route === '/users/@me') {
      if (req.headers.authorization === `Bot ${fake.botToken}`) return { status: 200, body: userJson(fake.users.get(botUserId) ?? { id: botUserId, username: 'bot' }) };
      const token = bearer(req);
      const user = token && token.scopes.includes('identify') ? fake.users.get(token.userId) : undefined;
      return user ? { status: 200, body: userJson(user) } : unauthorized;
    }
    if (req.headers.authorization !== `Bot ${fake.botToken}`) return unauthorized;

    const guild = /^\/guilds\/(\d+)(\/.*)?$/.exec(route);
    if (!guild) return error(404, 0, '404: Not Found');
    if (guild[1] !== guildId) return error(404, 10004, 'Unknown Guild');
    const rest = guild[2] ?? '';

    if (method === 'GET' && rest === '/roles') {
      return { status: 200, body: [...fake.roles.values()].sort((a, b) => a.position - b.position).map(roleJson) };
    }
    if (method === 'GET' && rest === '/members') {
      if (!fake.membersIntent) return error(403, 50001, 'Missing Access');
      const limit = Number(query.get('limit') ?? '1');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return error(400, 50035, 'Invalid Form Body');
      const after = BigInt(query.get('after') ?? '0');
      const page = [...fake.members.keys()]
        .filter((id) => BigInt(id) > after)
        .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        .slice(0, limit);
      return { status: 200, body: page.map((id) => memberJson(id, fake.members.get(id) ?? { roles: [] })) };
    }

    const memberRoute = /^\/members\/(\d+)(?:\/roles\/(\d+))?$/.exec(rest);
    if (!memberRoute) return error(404, 0, '404: Not Found');
    const [, userId = '', roleId] = memberRoute;
    const member = fake.members.get(userId);

    if (roleId !== undefined) {
      if (method !== 'PUT' && method !== 'DELETE') return error(405, 0, '405: Method Not Allowed');
      if (!member) return error(404, 10007, 'Unknown Member');
      if (!fake.roles.has(roleId)) return error(404, 10011, 'Unknown Role');
      if (!mayManage([roleId])) return error(403, 50013, 'Missing Permissions');
      if (method === 'PUT' && !member.roles.includes(roleId)) member.roles.push(roleId);
      if (method === 'DELETE') member.roles = member.roles.filter((id) => id !== roleId);
      return { status: 204 };
    }

    switch (method) {
      case 'GET':
        return member ? { status: 200, body: memberJson(userId, member) } : error(404, 10007, 'Unknown Member');
      case 'DELETE':
        if (!member) return error(404, 10007, 'Unknown Member');
        fake.members.delete(userId);
        return { status: 204 };
      case 'PUT': {
        let json: { access_token?: unknown; roles?: unknown };
        try {
          json = JSON.parse(body) as typeof json;
        } catch {
          return error(400, 50109, 'The request body contains invalid JSON.');
        }
        const token = typeof json.access_token === 'string' ? fake.tokens.get(json.access_token) : undefined;
        if (!token || token.userId !== userId || !token.scopes.includes('guilds.join')) return error(403, 50025, 'Invalid OAuth2 access token');
        // Discord leaves a member who is already in the guild as they are.
        if (member) return { status: 204 };
        const roles = Array.isArray(json.roles) ? json.roles.filter((id): id is string => typeof id === 'string') : [];
        if (roles.some((id) => !fake.roles.has(id))) return error(400, 50035, 'Invalid Form Body');
        if (roles.length && !mayManage(roles)) return error(403, 50013, 'Missing Permissions');
        const added = { roles };
        fake.members.set(userId, added);
        return { status: 201, body: memberJson(userId, added) };
      }
      default:
        return error(405, 0, '405: Method Not Allowed');
    }
  }

  function rateLimited(method: string, route: string): Answer | null {
    const limit = fake.rateLimits.find((candidate) => candidate.times > 0 && (!candidate.method || candidate.method === method) && candidate.path.test(route));
    if (!limit) return null;
    limit.times--;
    const global = limit.global ?? false;
    const scope = limit.scope ?? (global ? 'global' : 'user');
    const headers: Record<string, string> = { 'Retry-After': String(limit.retryAfter), 'X-RateLimit-Scope': scope };
    if (global) headers['X-RateLimit-Global'] = 'true';
    else {
      Object.assign(headers, {
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': ((Date.now() + limit.retryAfter * 1000) / 1000).toFixed(3),
        'X-RateLimit-Reset-After': String(limit.retryAfter),
        'X-RateLimit-Bucket': `bucket-${method}-${route.replace(/\d{17,19}/g, 'id')}`,
      });
    }
    return { status: 429, headers, body: { message: 'You are being rate limited.', retry_after: limit.retryAfter, global } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk: Buffer) => (data += chunk.toString()));
      req.on('end', () => resolve(data));
    });
    const method = req.method ?? 'GET';
    fake.requests.push({ method, path: url.pathname + url.search, headers: req.headers, body });
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const send = (answer: Answer) => {
      const hasBody = answer.body !== undefined;
      res.writeHead(answer.status, { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...answer.headers });
      res.end(hasBody ? JSON.stringify(answer.body) : undefined);
    };

    if (fake.serverErrors && fake.serverErrors.times > 0) {
      fake.serverErrors.times--;
      res.writeHead(fake.serverErrors.status, { 'content-type': 'text/html' });
      return res.end('<html><body>upstream connect error</body></html>');
    }
    // discord-api-types' Routes encode ids (users/%40me); Discord decodes the path.
    const route = decodeURIComponent(url.pathname).replace(/^\/api(\/v10)?/, '');
    const limited = rateLimited(method, route);
    if (limited) return send(limited);
    if (method === 'POST' && route === '/oauth2/token') return send(oauthToken(req, new URLSearchParams(body)));
    if (!url.pathname.startsWith('/api/v10/')) return send(error(404, 0, '404: Not Found'));
    return send(api(req, method, route, url.searchParams, body));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/api`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
