// Test helpers for suites that need a member with Discord linked, without the browser's OAuth
// round trip: what linking leaves behind (better-auth's account row with the member's sandbox
// token, the Discord module's row), then a sync of the member's roles.
import { and, eq } from 'drizzle-orm';
import { account } from '../db/schema';
import { DISCORD_PROVIDER_ID, linkAccount } from '../modules/discord/discord.repository';
import { isDiscordIntegration, type DiscordIntegration } from '../modules/discord/discord.integration';
import { isSandboxDiscord, type SandboxDiscord } from '../modules/discord/sandbox-discord';
import type { TestApp } from './test-app';

/** The app's Discord integration as built: its port and its reconciler, which tests drive. */
export function discordOf(t: TestApp): DiscordIntegration {
  const discord = t.integrations.find(isDiscordIntegration);
  if (!discord) throw new Error('the test app has no Discord integration');
  return discord;
}

export function sandboxGuild(t: TestApp): SandboxDiscord {
  const { port } = discordOf(t);
  if (!isSandboxDiscord(port)) throw new Error('the test app runs the sandbox Discord');
  return port;
}

export async function linkSandboxDiscord(t: TestApp, userId: string, username: string, now: Date) {
  const guild = sandboxGuild(t);
  const redirectUri = 'http://localhost:3000/api/auth/callback/discord';
  const { code, user } = await guild.sandbox.authorize({ username, redirectUri, scopes: ['identify', 'guilds.join'] });
  const tokens = await guild.oauth.exchangeCode({ code, redirectUri });
  const db = t.deps.database.db;
  await db.delete(account).where(and(eq(account.userId, userId), eq(account.providerId, DISCORD_PROVIDER_ID)));
  await db.insert(account).values({ userId, providerId: DISCORD_PROVIDER_ID, accountId: user.id, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, accessTokenExpiresAt: tokens.expiresAt });
  await db.transaction((tx) => linkAccount(tx, userId, user, now));
  await discordOf(t).reconciler.syncUser(userId);
  return user;
}
