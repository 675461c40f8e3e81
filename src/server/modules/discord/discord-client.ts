import { DiscordAPIError, HTTPError, makeURLSearchParams, parseResponse, RateLimitError, REST, RequestMethod, type RateLimitData } from '@discordjs/rest';
import {
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Routes,
  type APIGuildMember,
  type RESTGetAPIGuildMemberResult,
  type RESTGetAPIGuildMembersQuery,
  type RESTGetAPIGuildMembersResult,
  type RESTGetAPIGuildRolesResult,
  type RESTGetAPICurrentUserResult,
  type RESTPutAPIGuildMemberJSONBody,
} from 'discord-api-types/v10';
import { z } from 'zod';
import type { Logger } from '../../logger';
import { DiscordError, type DiscordErrorKind, type DiscordPort, type DiscordTokens, type GuildMember } from './discord.port';

export type DiscordClientOptions = {
  clientId: string;
  clientSecret: string;
  botToken: string;
  guildId: string;
  /** https://discord.com/api (without the version), or a local server in tests. */
  apiBaseUrl?: string;
  /** Bounds each call as a whole: waiting in the library's queue, retries and all. */
  timeoutMs?: number;
  logger: Logger;
};

const DEFAULT_API = 'https://discord.com/api';
/** Discord's consent page (OAuth2Routes.authorizationURL is the same page under /api/v10). */
const AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';
const DEFAULT_TIMEOUT_MS = 10_000;
/** A rate limit that would hold a call longer than this rejects (rate_limited): the reconciler tries later. */
const MAX_RATE_LIMIT_WAIT_MS = 5_000;

// The token endpoint and users/@me answer the member's (untrusted) OAuth session: check what we keep.
const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.number().positive().optional(),
  scope: z.string().optional(),
});
const userSchema = z.looseObject({ id: z.string().min(1), username: z.string() });

/**
 * The real adapter: Discord's API through @discordjs/rest, which keeps Discord's per-route rate
 * limit buckets and waits out short 429s itself. Long waits reject instead (rate_limited with
 * retryAfterMs) so that one throttled route does not hold up a reconciler pass.
 */
export function createDiscordClient(options: DiscordClientOptions): DiscordPort {
  const { clientId, clientSecret, botToken, guildId, logger } = options;
  const api = (options.apiBaseUrl ?? DEFAULT_API).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const rejectOnRateLimit = (data: RateLimitData) => {
    const waitMs = rateLimitWait(data);
    const reject = waitMs > MAX_RATE_LIMIT_WAIT_MS;
    logger.info({ route: data.route, method: data.method, waitMs, global: data.global, scope: data.scope, reject }, reject ? 'discord rate limit: giving up for now' : 'discord rate limit: waiting');
    return reject;
  };
  const restOptions = { api, version: '10', timeout: timeoutMs, retries: 1, rejectOnRateLimit };
  // The bot's calls, and the member's OAuth calls in their own instance: the library's rate limit
  // buckets are per instance, and Discord counts a member's token apart from the bot's.
  const rest = new REST(restOptions);
  const oauthRest = new REST(restOptions);

  async function call<T>(label: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await run(signal);
    } catch (error) {
      throw toDiscordFailure(error, label, signal.aborted ? timeoutMs : null);
    }
  }

  /** The bot's REST instance; the library forgets the token after a 401, so it is set each time. */
  const bot = () => rest.setToken(botToken);

  /** Runs a bot call; the given Discord error codes mean "done already". */
  async function botCall<T>(label: string, run: (signal: AbortSignal) => Promise<T>, doneCodes: readonly number[] = []): Promise<T | undefined> {
    try {
      return await call(label, run);
    } catch (error) {
      if (error instanceof DiscordError && error.details.code !== undefined && doneCodes.includes(error.details.code)) return undefined;
      throw error;
    }
  }

  async function token(label: string, form: Record<string, string>): Promise<DiscordTokens> {
    const answer = await call(label, (signal) =>
      oauthRest.post(Routes.oauth2TokenExchange(), {
        auth: false,
        versioned: false,
        passThroughBody: true,
        body: new URLSearchParams({ ...form, client_id: clientId, client_secret: clientSecret }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        signal,
      }),
    );
    const parsed = tokenSchema.safeParse(answer);
    if (!parsed.success) throw new DiscordError('unexpected', `${label}: Discord's token answer has no access token`);
    const { access_token, refresh_token, expires_in, scope } = parsed.data;
    return {
      accessToken: access_token,
      refreshToken: refresh_token ?? null,
      expiresAt: expires_in ? new Date(Date.now() + expires_in * 1000) : null,
      scopes: scope ? scope.split(' ').filter(Boolean) : [],
    };
  }

  const toMember = (member: APIGuildMember): GuildMember => ({ userId: member.user.id, username: member.user.username, roles: member.roles });

  return {
    kind: 'discord',
    oauth: {
      authorizeUrl: ({ state, redirectUri, scopes }) => {
        const query = [
          ['response_type', 'code'],
          ['client_id', clientId],
          ['scope', scopes.join(' ')],
          ['state', state],
          ['redirect_uri', redirectUri],
          ['prompt', 'consent'],
        ];
        return `${AUTHORIZE_URL}?${query.map(([key, value]) => `${key}=${encodeURIComponent(value ?? '')}`).join('&')}`;
      },
      exchangeCode: ({ code, redirectUri }) => token('exchange oauth code', { grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
      refresh: (refreshToken) => token('refresh oauth token', { grant_type: 'refresh_token', refresh_token: refreshToken }),
      currentUser: async (accessToken) => {
        const answer = await call('GET users/@me (member)', (signal) =>
          oauthRest.get(Routes.user('@me'), { auth: false, headers: { Authorization: `Bearer ${accessToken}` }, signal }),
        );
        const parsed = userSchema.safeParse(answer);
        if (!parsed.success) throw new DiscordError('unexpected', "GET users/@me: Discord's answer has no user id");
        return { id: parsed.data.id, username: parsed.data.username };
      },
    },
    bot: {
      postMessage: async (channelId, content) => {
        await call('POST channel message', (signal) => bot().post(Routes.channelMessages(channelId), { body: { content, allowed_mentions: { parse: [] } }, signal }));
      },
      addMember: async (userId, accessToken, roleIds) => {
        const body: RESTPutAPIGuildMemberJSONBody = { access_token: accessToken, ...(roleIds.length ? { roles: [...roleIds] } : {}) };
        return call('PUT guild member', async (signal) => {
          // queueRequest, not put(): the status tells 201 (added) from 204 (already in the guild).
          const response = await bot().queueRequest({ fullRoute: Routes.guildMember(guildId, userId), method: RequestMethod.Put, body, signal });
          await parseResponse(response);
          return response.status === 204 ? 'already_member' : 'added';
        });
      },
      getMember: async (userId) => {
        const member = await botCall(
          'GET guild member',
          (signal) => bot().get(Routes.guildMember(guildId, userId), { signal }) as Promise<RESTGetAPIGuildMemberResult>,
          [RESTJSONErrorCodes.UnknownMember, RESTJSONErrorCodes.UnknownUser],
        );
        return member ? toMember(member) : null;
      },
      addRole: async (userId, roleId) => {
        await call('PUT guild member role', (signal) => bot().put(Routes.guildMemberRole(guildId, userId, roleId), { signal }));
      },
      removeRole: async (userId, roleId) => {
        // Discord answers 204 for a role the member does not hold; a member who left, or a role
        // deleted meanwhile, leaves nothing to take either.
        await botCall('DELETE guild member role', (signal) => bot().delete(Routes.guildMemberRole(guildId, userId, roleId), { signal }), [
          RESTJSONErrorCodes.UnknownMember,
          RESTJSONErrorCodes.UnknownUser,
          RESTJSONErrorCodes.UnknownRole,
        ]);
      },
      kick: async (userId) => {
        await botCall('DELETE guild member', (signal) => bot().delete(Routes.guildMember(guildId, userId), { signal }), [
          RESTJSONErrorCodes.UnknownMember,
          RESTJSONErrorCodes.UnknownUser,
        ]);
      },
      listMembers: async ({ after, limit }) => {
        const query: RESTGetAPIGuildMembersQuery = { limit, ...(after ? { after } : {}) };
        const members = await call(
          'GET guild members',
          (signal) => bot().get(Routes.guildMembers(guildId), { query: makeURLSearchParams(query), signal }) as Promise<RESTGetAPIGuildMembersResult>,
        );
        return members.map(toMember);
      },
      roles: async () => {
        const roles = await call('GET guild roles', (signal) => bot().get(Routes.guildRoles(guildId), { signal }) as Promise<RESTGetAPIGuildRolesResult>);
        return roles.map((role) => ({ id: role.id, name: role.name, position: role.position }));
      },
      botStanding: async () => {
        const me = await call('GET users/@me (bot)', (signal) => bot().get(Routes.user('@me'), { signal }) as Promise<RESTGetAPICurrentUserResult>);
        const [member, roles] = await Promise.all([
          call('GET bot guild member', (signal) => bot().get(Routes.guildMember(guildId, me.id), { signal }) as Promise<RESTGetAPIGuildMemberResult>),
          call('GET guild roles', (signal) => bot().get(Routes.guildRoles(guildId), { signal }) as Promise<RESTGetAPIGuildRolesResult>),
        ]);
        // @everyone (the guild's id) is no entry of the member's roles but grants its permissions to all.
        const held = roles.filter((role) => role.id === guildId || member.roles.includes(role.id));
        const permissions = held.reduce((all, role) => all | BigInt(role.permissions), 0n);
        return {
          userId: me.id,
          manageRoles: (permissions & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) !== 0n,
          highestRolePosition: Math.max(0, ...held.map((role) => role.position)),
        };
      },
    },
  };
}

/** How long the library would hold the call: the bucket's reset, or the 429's retry_after. */
function rateLimitWait(data: Pick<RateLimitData, 'timeToReset' | 'retryAfter' | 'sublimitTimeout'>): number {
  return Math.max(0, Math.ceil(Math.max(data.timeToReset, data.retryAfter, data.sublimitTimeout)));
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

function isNetworkFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current.name === 'AbortError' || current.name === 'TimeoutError') return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'))) return true;
  }
  return false;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? `: ${describe(error.cause)}` : '';
  return `${error.message || error.name}${typeof code === 'string' ? ` (${code})` : ''}${cause}`;
}

function apiErrorKind(status: number, code: number | string): DiscordErrorKind {
  switch (code) {
    case RESTJSONErrorCodes.MissingPermissions:
    case RESTJSONErrorCodes.MissingAccess:
      return 'missing_permissions';
    case RESTJSONErrorCodes.UnknownMember:
    case RESTJSONErrorCodes.UnknownUser:
      return 'unknown_member';
    case RESTJSONErrorCodes.UnknownRole:
      return 'unknown_role';
    case RESTJSONErrorCodes.InvalidToken:
    case RESTJSONErrorCodes.InvalidOAuth2AccessToken:
    case 'invalid_grant':
    case 'invalid_client':
    case 'invalid_token':
      return 'unauthorized';
  }
  if (status === 401) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'network';
  return 'unexpected';
}

/** Maps what @discordjs/rest throws to the port's DiscordError; `timedOutAfter` when our deadline passed. */
function toDiscordFailure(error: unknown, label: string, timedOutAfter: number | null = null): DiscordError {
  if (error instanceof DiscordError) return error;
  if (error instanceof RateLimitError) {
    const retryAfterMs = rateLimitWait(error);
    return new DiscordError('rate_limited', `${label}: rate limited by Discord for ${retryAfterMs} ms (${error.global ? 'global' : error.scope})`, {
      status: 429,
      retryAfterMs,
    });
  }
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === 'number' ? error.code : undefined;
    const reason = typeof error.code === 'string' ? ` (${error.code})` : code ? ` (code ${code})` : '';
    return new DiscordError(apiErrorKind(error.status, error.code), `${label}: Discord answered ${error.status}: ${error.message}${reason}`, {
      status: error.status,
      ...(code === undefined ? {} : { code }),
    });
  }
  if (error instanceof HTTPError) {
    return new DiscordError(error.status >= 500 ? 'network' : 'unexpected', `${label}: Discord answered ${error.status} ${error.message}`, { status: error.status });
  }
  if (timedOutAfter !== null) return new DiscordError('network', `${label} timed out after ${timedOutAfter} ms`);
  if (isNetworkFailure(error)) return new DiscordError('network', `${label} failed: ${describe(error)}`);
  return new DiscordError('unexpected', `${label} failed: ${describe(error)}`);
}
