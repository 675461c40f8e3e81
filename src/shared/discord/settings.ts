// Discord's configuration keys, read by the server's config.ts (the only reader of the
// environment) and parsed here, beside the rest of the integration: without the four
// DISCORD_* keys of the bot and its OAuth application the shop runs the sandbox guild.
import { z } from 'zod';
import { perPlanEnv, planEnvKey } from '../plan-env';
import { perPlan, PLAN_TYPES, type PlanType } from '../plans';

const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());
const roleIds = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean));

/** The environment keys of the Discord integration (merged into the server's env schema). */
export const discordEnvShape = {
  // Discord roles that follow payment: all four for the real bot, none for the sandbox guild.
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_CLIENT_SECRET: optionalText,
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_GUILD_ID: optionalText,
  // Roles every member with access holds; empty: the sandbox guild's built-in role.
  DISCORD_ROLE_IDS: roleIds,
  DISCORD_ON_END: z.enum(['remove_roles', 'kick']).default('remove_roles'),
  DISCORD_AUDIT_INTERVAL_MS: z.coerce.number().int().min(10_000).default(5 * 60_000),
  // The channel the bot posts announcements to (the sandbox records its posts; empty with the real bot: not posted).
  DISCORD_ANNOUNCEMENT_CHANNEL_ID: optionalText,
  // Extra roles per plan (e.g. DISCORD_ROLE_IDS_LIFETIME), swapped on a plan change.
  ...perPlanEnv('DISCORD_ROLE_IDS', PLAN_TYPES, () => roleIds),
};

export const discordEnvSchema = z.object(discordEnvShape);
export type DiscordEnv = z.infer<typeof discordEnvSchema>;

export type DiscordCredentials = { clientId: string; clientSecret: string; botToken: string; guildId: string };

export type DiscordSettings = {
  /** The real bot and OAuth application; null runs the sandbox guild. */
  credentials: DiscordCredentials | null;
  /** Empty with the sandbox: its guild's built-in role is used (modules/discord/sandbox-discord.ts). */
  memberRoleIds: string[];
  /** The seed of each plan's roles (the catalogue's plan records hold them once seeded). */
  planRoleIds: Record<PlanType, string[]>;
  onEnd: 'remove_roles' | 'kick';
  auditIntervalMs: number;
  /** Announcements are posted here; the sandbox bot uses a channel of its own when unset. */
  announcementChannelId: string | null;
};

export function discordSettings(env: DiscordEnv): DiscordSettings {
  const credentials =
    env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET && env.DISCORD_BOT_TOKEN && env.DISCORD_GUILD_ID
      ? { clientId: env.DISCORD_CLIENT_ID, clientSecret: env.DISCORD_CLIENT_SECRET, botToken: env.DISCORD_BOT_TOKEN, guildId: env.DISCORD_GUILD_ID }
      : null;
  return {
    credentials,
    memberRoleIds: env.DISCORD_ROLE_IDS,
    planRoleIds: perPlan(PLAN_TYPES, (plan) => env[planEnvKey('DISCORD_ROLE_IDS', plan)]),
    onEnd: env.DISCORD_ON_END,
    auditIntervalMs: env.DISCORD_AUDIT_INTERVAL_MS,
    announcementChannelId: env.DISCORD_ANNOUNCEMENT_CHANNEL_ID ?? null,
  };
}

const CREDENTIAL_KEYS = ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN', 'DISCORD_GUILD_ID'] as const;

/** What is wrong with the keys together (the server refuses to start with the list). */
export function discordSettingsProblems(env: DiscordEnv, settings: DiscordSettings): string[] {
  const problems: string[] = [];
  const given = CREDENTIAL_KEYS.filter((key) => env[key]);
  if (given.length > 0 && given.length < CREDENTIAL_KEYS.length) {
    // Some keys alone would silently run the sandbox guild while the vendor believes the bot is live.
    for (const key of CREDENTIAL_KEYS.filter((name) => !env[name])) problems.push(`${key}: required together with ${given.join(', ')} (all four for the real Discord bot, or none for the sandbox)`);
  }
  if (settings.credentials && settings.memberRoleIds.length === 0) {
    problems.push('DISCORD_ROLE_IDS: required with the real Discord bot (the role ids every paying member gets)');
  }
  return problems;
}
