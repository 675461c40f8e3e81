// The sandbox Discord's own JSON API (served only while Discord runs in the sandbox): its OAuth
// authorize page (/sandbox/discord/authorize), the guild's state, a role taken away by hand and
// the simulated failures.
import { z } from 'zod';
import { safeText } from './validation';

export const SANDBOX_DISCORD_PATHS = {
  /** GET with the authorize page's own query string; POST to consent. */
  authorize: '/api/sandbox/discord/authorize',
  guild: '/api/sandbox/discord/guild',
  memberRole: (userId: string, roleId: string) => `/api/sandbox/discord/guild/members/${encodeURIComponent(userId)}/roles/${encodeURIComponent(roleId)}`,
  switches: '/api/sandbox/discord/switches',
} as const;

/** The only application the sandbox knows: the shop (its authorize URLs say client_id=sandbox). */
export const SANDBOX_DISCORD_CLIENT_ID = 'sandbox';

export const DISCORD_USERNAME_MIN_LENGTH = 2;
export const DISCORD_USERNAME_MAX_LENGTH = 32;

export const DISCORD_USERNAME_MESSAGES = {
  required: 'Please enter your Discord username.',
  tooShort: 'Discord usernames are at least 2 characters long.',
  tooLong: 'Discord usernames are at most 32 characters long.',
  invalid: 'Discord usernames contain only letters, numbers, underscores (_) and periods (.).',
  doublePeriod: 'Discord usernames cannot contain two periods in a row.',
} as const;

/**
 * A Discord username as Discord allows it since its unique usernames: 2–32 characters, lowercase
 * letters, digits, _ and . (never two periods in a row). Case does not matter, so it is lowercased;
 * a leading @ and surrounding spaces are dropped.
 */
export const discordUsernameSchema = safeText({ error: DISCORD_USERNAME_MESSAGES.required })
  .overwrite((value) => value.trim().replace(/^@/, '').toLowerCase())
  .min(1, { error: DISCORD_USERNAME_MESSAGES.required, abort: true })
  .min(DISCORD_USERNAME_MIN_LENGTH, { error: DISCORD_USERNAME_MESSAGES.tooShort, abort: true })
  .max(DISCORD_USERNAME_MAX_LENGTH, { error: DISCORD_USERNAME_MESSAGES.tooLong, abort: true })
  .regex(/^[a-z0-9_.]+$/, { error: DISCORD_USERNAME_MESSAGES.invalid, abort: true })
  .refine((value) => !value.includes('..'), { error: DISCORD_USERNAME_MESSAGES.doublePeriod });

/** What the authorize page shows: who asks, for what, and where Cancel goes. */
export const sandboxDiscordAuthorizationSchema = z.object({
  application: z.string(),
  scopes: z.array(z.object({ scope: z.string(), description: z.string() })),
  /** The address the browser returns to (the shop), shown to the user. */
  redirectOrigin: z.string(),
  /** redirect_uri with error=access_denied and the state, as Discord answers a cancel. */
  cancelUrl: z.string(),
});
export type SandboxDiscordAuthorization = z.infer<typeof sandboxDiscordAuthorizationSchema>;

export const sandboxDiscordAuthorizeRequestSchema = z.object({
  clientId: safeText().max(100),
  redirectUri: safeText().max(2000),
  state: safeText().max(1000).optional(),
  /** Space-separated, as in the authorize URL. */
  scope: safeText().max(500),
  username: discordUsernameSchema,
});
export type SandboxDiscordAuthorizeRequest = z.input<typeof sandboxDiscordAuthorizeRequestSchema>;

/** redirect_uri with the one-time code and the state. */
export const sandboxDiscordAuthorizeResponseSchema = z.object({ redirectUrl: z.string() });

export const sandboxDiscordGuildSchema = z.object({
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  members: z.array(z.object({ id: z.string(), username: z.string(), roles: z.array(z.string()) })),
});
export type SandboxDiscordGuild = z.infer<typeof sandboxDiscordGuildSchema>;

export const sandboxDiscordSwitchesSchema = z.object({
  /** Every call fails as Discord down would. */
  outage: z.boolean(),
  /** Role changes fail with 50013: the bot lacks Manage Roles. */
  missingManageRoles: z.boolean(),
  /** Role changes fail with 50013: the managed roles sit above the bot's highest role. */
  roleAboveBot: z.boolean(),
});
export type SandboxDiscordSwitches = z.infer<typeof sandboxDiscordSwitchesSchema>;

/** The switches to turn on or off; those left out stay as they are. */
export const sandboxDiscordSwitchesRequestSchema = z.strictObject({
  outage: z.boolean().optional(),
  missingManageRoles: z.boolean().optional(),
  roleAboveBot: z.boolean().optional(),
});
export type SandboxDiscordSwitchesRequest = z.infer<typeof sandboxDiscordSwitchesRequestSchema>;
