// What the shop asks of Discord: OAuth2 for linking a member's Discord account (scopes identify and
// guilds.join), and a bot in the vendor's guild that adds members and gives or takes the roles the
// shop manages. A real adapter (@discordjs/rest) and a sandbox adapter (a guild kept in the
// database) implement it; failures throw DiscordError with a kind the reconciler can act on.

/** The Discord account a member linked. */
export type DiscordUser = { id: string; username: string };

export type DiscordTokens = {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token stops working (Discord's are valid for about a week). */
  expiresAt: Date | null;
  scopes: string[];
};

export type GuildRole = { id: string; name: string; position: number };

export type GuildMember = { userId: string; username: string; roles: string[] };

/** The bot's own standing in the guild, for the doctor (Discord's error 50013 has these two causes). */
export type BotStanding = { userId: string; manageRoles: boolean; highestRolePosition: number };

export const DISCORD_ERROR_KINDS = [
  /** 429 after the client's own waiting: try later (`retryAfterMs`). */
  'rate_limited',
  /** 50013: the bot lacks Manage Roles, or a managed role sits above the bot's highest role. */
  'missing_permissions',
  /** 10007: the user is not (or no longer) in the guild. */
  'unknown_member',
  /** 10011: a configured role id does not exist. */
  'unknown_role',
  /** 401/invalid_grant: the bot token, or the member's OAuth token, is not valid (any more). */
  'unauthorized',
  /** Timeouts, refused connections, 5xx. */
  'network',
  'unexpected',
] as const;
export type DiscordErrorKind = (typeof DISCORD_ERROR_KINDS)[number];

export class DiscordError extends Error {
  constructor(
    readonly kind: DiscordErrorKind,
    message: string,
    readonly details: { status?: number; code?: number; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'DiscordError';
  }
}

export function toDiscordError(error: unknown): DiscordError {
  if (error instanceof DiscordError) return error;
  return new DiscordError('unexpected', error instanceof Error ? error.message : String(error));
}

export type DiscordOAuthPort = {
  /** Where the member's browser goes to consent (Discord's page, or the sandbox's). */
  authorizeUrl: (input: { state: string; redirectUri: string; scopes: readonly string[] }) => string;
  exchangeCode: (input: { code: string; redirectUri: string }) => Promise<DiscordTokens>;
  refresh: (refreshToken: string) => Promise<DiscordTokens>;
  currentUser: (accessToken: string) => Promise<DiscordUser>;
};

/** The bot in the vendor's guild (DISCORD_GUILD_ID). Every call is idempotent. */
export type DiscordBotPort = {
  /**
   * Puts the user in the guild with these roles, using their OAuth token (guilds.join).
   * A user already in the guild is left as they are ('already_member'): roles are then set one by one.
   */
  addMember: (userId: string, accessToken: string, roleIds: readonly string[]) => Promise<'added' | 'already_member'>;
  /** The member, or null when the user is not in the guild. */
  getMember: (userId: string) => Promise<GuildMember | null>;
  addRole: (userId: string, roleId: string) => Promise<void>;
  /** A role the member does not hold, or a member not in the guild, is done already. */
  removeRole: (userId: string, roleId: string) => Promise<void>;
  /** Removes the member from the guild (DISCORD_ON_END=kick); not in the guild is done already. */
  kick: (userId: string) => Promise<void>;
  /** Up to `limit` members with ids after `after` (Discord's paging, by user id). */
  listMembers: (input: { after?: string; limit: number }) => Promise<GuildMember[]>;
  roles: () => Promise<GuildRole[]>;
  botStanding: () => Promise<BotStanding>;
  /** Posts a message to a channel of the guild (announcements); absent on adapters that cannot. */
  postMessage?: (channelId: string, content: string) => Promise<void>;
};

/** The sandbox's switches, kept in the database like the TradingView sandbox's. */
export type DiscordSandboxControls = {
  /** Every call fails as Discord down would (network). */
  setOutage: (on: boolean) => Promise<void>;
  /** Role changes fail with 50013 as if the bot had no Manage Roles. */
  setMissingManageRoles: (on: boolean) => Promise<void>;
  /** Role changes fail with 50013 as if the managed roles sat above the bot's highest role. */
  setRoleAboveBot: (on: boolean) => Promise<void>;
};

export type DiscordPort = {
  kind: 'discord' | 'sandbox';
  oauth: DiscordOAuthPort;
  bot: DiscordBotPort;
  /** Present on the sandbox adapter only. */
  sandbox?: DiscordSandboxControls;
};
