// Discord, as `npm run doctor` checks it: the application (its id and the OAuth2 redirect to
// register), the bot token, the bot's place in the guild (Manage Roles, and its highest role above
// every managed role: the two causes of Discord's error 50013), the member list the audit reads,
// and each configured role id.
// DISCORD_ON_END=kick needs Kick Members, which the port's BotStanding does not report: not checked.
import pino from 'pino';
import { DISCORD_PROVIDER } from '@shared/discord-contract';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import { planEnvKey } from '@shared/plan-env';
import type { Logger } from '../../logger';
import { createDiscordClient } from './discord-client';
import { toDiscordError, type BotStanding, type DiscordBotPort, type DiscordError, type GuildRole } from './discord.port';
import { ok, problem, sandbox, unanswered, type Check } from '../../doctor-report';

export type DiscordCheckSettings = {
  credentials: { clientId: string; clientSecret: string; botToken: string; guildId: string } | null;
  /** DISCORD_ROLE_IDS */
  memberRoleIds: readonly string[];
  /** DISCORD_ROLE_IDS_<PLAN> */
  planRoleIds: Record<PlanType, readonly string[]>;
  /** The shop's address (PUBLIC_URL, no trailing slash). */
  publicUrl: string;
  isProduction: boolean;
};

export type DiscordCheckOptions = {
  /** Tests point the client at a local server (startFakeDiscord's baseUrl). */
  apiBaseUrl?: string;
  timeoutMs?: number;
  logger?: Logger;
};

/** Discord's ids (snowflakes): digits only, 17 to 20 of them. */
const SNOWFLAKE = /^\d{17,20}$/;

/** Discord's JSON error codes the bot's standing can fail with when it is not in the guild. */
const UNKNOWN_GUILD = 10004;
const UNKNOWN_MEMBER = 10007;
const MISSING_ACCESS = 50001;

const PORTAL = 'the Discord developer portal (https://discord.com/developers/applications)';
const INVITE_FIX = `invite the bot: in ${PORTAL}, OAuth2 → URL Generator, scopes "bot", bot permission "Manage Roles", open the generated URL and add it to the server; DISCORD_GUILD_ID must be that server's id (Developer Mode on: right-click the server → Copy Server ID)`;
const NETWORK_FIX = 'check the network and try again';

/** The address Discord sends members back to after consent: better-auth's callback for the provider. */
export const discordRedirectUri = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/api/auth/callback/${DISCORD_PROVIDER}`;

function checkClientId(clientId: string): Check {
  if (SNOWFLAKE.test(clientId)) return ok('Discord', `DISCORD_CLIENT_ID ${clientId} is an application id`);
  return problem('Discord', `DISCORD_CLIENT_ID "${clientId}" is not an application id (Discord's ids are digits)`, `copy the Application ID from General Information in ${PORTAL}`);
}

function checkRedirect(settings: DiscordCheckSettings): Check {
  const uri = discordRedirectUri(settings.publicUrl);
  if (settings.isProduction && new URL(settings.publicUrl).protocol !== 'https:') {
    return problem(
      'Discord',
      `PUBLIC_URL ${settings.publicUrl} is not https: Discord would send members back to ${uri} in the clear`,
      `set PUBLIC_URL to the shop's https:// address and register <PUBLIC_URL>/api/auth/callback/${DISCORD_PROVIDER} under OAuth2 → Redirects in ${PORTAL}`,
    );
  }
  return ok('Discord', `OAuth2 redirect to register under OAuth2 → Redirects in the developer portal: ${uri}`);
}

function checkGuildId(guildId: string): Check | null {
  if (SNOWFLAKE.test(guildId)) return null;
  return problem('Discord', `DISCORD_GUILD_ID "${guildId}" is not a server id (Discord's ids are digits)`, 'turn on Developer Mode (User Settings → Advanced), right-click the server → Copy Server ID, and set DISCORD_GUILD_ID');
}

function standingProblem(failure: DiscordError, guildId: string): Check {
  if (failure.kind === 'unauthorized') {
    return problem('Discord', `the bot token was refused (${failure.message})`, `reset it in ${PORTAL} (Bot → Reset Token) and set DISCORD_BOT_TOKEN`);
  }
  const code = failure.details.code;
  if (code === UNKNOWN_GUILD || code === MISSING_ACCESS || code === UNKNOWN_MEMBER) {
    return problem('Discord', `the bot is not in the guild DISCORD_GUILD_ID ${guildId} (${failure.message})`, INVITE_FIX);
  }
  // timeouts, refused connections, 5xx: Discord said nothing about the configuration
  const check = failure.kind === 'network' ? unanswered : problem;
  return check('Discord', `Discord cannot be reached: ${failure.message}`, NETWORK_FIX);
}

function checkManageRoles(standing: BotStanding): Check {
  if (standing.manageRoles) return ok('Discord', 'the bot has Manage Roles in the guild');
  return problem(
    'Discord',
    "the bot has no Manage Roles permission in the guild: every role it gives or takes fails with Discord's error 50013 (Missing Permissions)",
    "give the bot's role Manage Roles (Server Settings → Roles → the bot's role → Permissions), or invite it again with the Manage Roles permission",
  );
}

/** The audit (DISCORD_AUDIT_INTERVAL_MS) pages through the guild's members: Discord allows it with the Server Members Intent only. */
async function checkMemberList(bot: DiscordBotPort): Promise<Check> {
  try {
    await bot.listMembers({ limit: 1 });
    return ok('Discord', "the bot can list the guild's members (Server Members Intent)");
  } catch (error) {
    const failure = toDiscordError(error);
    if (failure.details.code === MISSING_ACCESS) {
      return problem(
        'Discord',
        `the bot cannot list the guild's members: the audit that repairs drift fails (${failure.message})`,
        `turn on Server Members Intent in ${PORTAL} (Bot → Privileged Gateway Intents)`,
      );
    }
    return problem('Discord', `the guild's members could not be read: ${failure.message}`, NETWORK_FIX);
  }
}

type ConfiguredRole = { id: string; keys: string[] };

/** Each configured role id once, with the env keys that name it (DISCORD_ROLE_IDS first, then per plan). */
function configuredRoles(settings: DiscordCheckSettings): ConfiguredRole[] {
  const byId = new Map<string, ConfiguredRole>();
  const add = (key: string, ids: readonly string[]) => {
    for (const id of ids) {
      const entry = byId.get(id) ?? { id, keys: [] };
      if (!entry.keys.includes(key)) entry.keys.push(key);
      byId.set(id, entry);
    }
  };
  add('DISCORD_ROLE_IDS', settings.memberRoleIds);
  for (const plan of PLAN_TYPES) add(planEnvKey('DISCORD_ROLE_IDS', plan), settings.planRoleIds[plan] ?? []);
  return [...byId.values()];
}

function checkRole(role: ConfiguredRole, guildRoles: readonly GuildRole[], standing: BotStanding): Check {
  const named = `${role.keys.join(', ')} ${role.id}`;
  const found = guildRoles.find((candidate) => candidate.id === role.id);
  if (!found) {
    return problem(
      'Discord',
      `${named} is not a role of the guild`,
      `copy the role's id (Developer Mode on: Server Settings → Roles → right-click the role → Copy Role ID) into ${role.keys.join(' / ')}`,
    );
  }
  if (found.position >= standing.highestRolePosition) {
    return problem(
      'Discord',
      `the role "${found.name}" (${named}) sits at or above the bot's highest role: giving or taking it fails with Discord's error 50013 (Missing Permissions)`,
      `drag the bot's role above "${found.name}" in Server Settings → Roles`,
    );
  }
  return ok('Discord', `${named}: "${found.name}", below the bot's highest role`);
}

async function checkRoles(bot: DiscordBotPort, settings: DiscordCheckSettings, standing: BotStanding): Promise<Check[]> {
  const roles = configuredRoles(settings);
  if (roles.length === 0) return [problem('Discord', 'DISCORD_ROLE_IDS is empty: the bot has no role to give', 'list the ids of the roles every paying member gets, separated by commas')];
  let guildRoles: GuildRole[];
  try {
    guildRoles = await bot.roles();
  } catch (error) {
    return [problem('Discord', `the guild's roles could not be read: ${toDiscordError(error).message}`, NETWORK_FIX)];
  }
  return roles.map((role) => checkRole(role, guildRoles, standing));
}

/** Every Discord check, in the order the report shows them; without a working bot in the guild the roles are not checked. */
export async function checkDiscord(settings: DiscordCheckSettings, options: DiscordCheckOptions = {}): Promise<Check[]> {
  const credentials = settings.credentials;
  if (!credentials) return [sandbox('Discord', 'no Discord keys: roles are given in the sandbox guild')];
  const application = [checkClientId(credentials.clientId), checkRedirect(settings)];
  const guildId = checkGuildId(credentials.guildId);
  if (guildId) return [...application, guildId];

  const discord = createDiscordClient({
    ...credentials,
    logger: options.logger ?? pino({ level: 'silent' }),
    ...(options.apiBaseUrl === undefined ? {} : { apiBaseUrl: options.apiBaseUrl }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  let standing: BotStanding;
  try {
    standing = await discord.bot.botStanding();
  } catch (error) {
    return [...application, standingProblem(toDiscordError(error), credentials.guildId)];
  }
  const bot = ok('Discord', `the bot token works: bot user ${standing.userId} is in the guild ${credentials.guildId}`);
  return [...application, bot, checkManageRoles(standing), await checkMemberList(discord.bot), ...(await checkRoles(discord.bot, settings, standing))];
}
