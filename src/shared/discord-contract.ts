// A member's Discord link as the member area sees it: the member API's paths and answers, how the
// link starts (better-auth's link-social with the Discord provider) and where it comes back, and
// the roles' state in words. The error texts of the link are in error-messages.ts.
import { z } from 'zod';

export const DISCORD_API_PATHS = {
  /** GET: the member's linked Discord account and its roles. */
  status: '/api/discord',
  /** POST: unlinks the account; the reconciler takes the roles off it. */
  disconnect: '/api/discord/disconnect',
} as const;

/** better-auth's provider id for Discord (its account rows, its callback /api/auth/callback/discord). */
export const DISCORD_PROVIDER = 'discord';

/** What the shop asks Discord for: who the account is, and adding it to the guild. */
export const DISCORD_OAUTH_SCOPES = ['identify', 'guilds.join'] as const;

/** better-auth's endpoint that starts a link: POST, answers the consent page's address. */
export const LINK_SOCIAL_PATH = '/api/auth/link-social';

/** The page a member starts and ends the link on: after consent, and with ?error=… after a refusal. */
export const DISCORD_PAGE_PATH = '/dashboard/discord';

/** The body of POST /api/auth/link-social for Discord. */
export const discordLinkRequest = () => ({ provider: DISCORD_PROVIDER, callbackURL: DISCORD_PAGE_PATH, errorCallbackURL: DISCORD_PAGE_PATH });

export const linkSocialResponseSchema = z.object({ url: z.string().min(1), redirect: z.boolean() });

/** pending covers a pass under way (processing); failed is retried with back-off. */
export const DISCORD_LINK_STATUSES = ['pending', 'synced', 'failed'] as const;
export type DiscordLinkStatus = (typeof DISCORD_LINK_STATUSES)[number];

export const discordRoleSchema = z.object({ id: z.string(), name: z.string() });
export type DiscordRole = z.infer<typeof discordRoleSchema>;

export const discordStatusResponseSchema = z.discriminatedUnion('connected', [
  z.object({ connected: z.literal(false) }),
  z.object({
    connected: z.literal(true),
    username: z.string(),
    /** The managed roles the account holds now (the last pass's), by name. */
    roles: z.array(discordRoleSchema),
    status: z.enum(DISCORD_LINK_STATUSES),
    /** The last failed pass's error, as the reconciler recorded it ("kind: message"). */
    lastError: z.string().nullable(),
  }),
]);
export type DiscordStatusResponse = z.infer<typeof discordStatusResponseSchema>;

export const DISCORD_STATUS_TEXTS = {
  notConnected: 'Not connected',
  rolesPending: 'Roles pending…',
  noRoles: 'No roles yet: your roles appear here while your membership is active.',
  unavailable: 'Your Discord connection could not be loaded.',
} as const;

/** The member's words for a failed role change, by the kind the reconciler recorded first. */
export const DISCORD_FAILURE_TEXTS = {
  unauthorized: 'Your Discord connection has expired. Connect Discord again so that we can give you your roles.',
  unknown_member: 'Your Discord account is not in our server. Use Join Discord; we will try again automatically.',
  missing_permissions: 'Our Discord server is not set up to give roles right now. We will try again automatically; contact support if this lasts.',
  unknown_role: 'Our Discord server is not set up to give roles right now. We will try again automatically; contact support if this lasts.',
  rate_limited: 'Discord is busy right now. We will try again automatically.',
  network: 'Discord is not answering right now. We will try again automatically.',
  other: 'Your roles could not be updated yet. We will try again automatically.',
} as const;

/** A failed pass in words for the member (never the raw error). */
export function discordFailureText(lastError: string | null): string {
  const kind = lastError?.split(':', 1)[0]?.trim() ?? '';
  return Object.hasOwn(DISCORD_FAILURE_TEXTS, kind) && kind !== 'other'
    ? DISCORD_FAILURE_TEXTS[kind as keyof typeof DISCORD_FAILURE_TEXTS]
    : DISCORD_FAILURE_TEXTS.other;
}
