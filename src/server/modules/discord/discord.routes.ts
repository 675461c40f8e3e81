// The member's Discord link: what it is and where its roles stand, and unlinking. Linking itself
// is better-auth's (POST /api/auth/link-social with provider discord, then its callback); see
// the Discord provider in modules/auth/auth.ts. Mounted under /api (DISCORD_API_PATHS).
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import type { ReadCache } from '@shared/read-cache';
import { discordStatusResponseSchema } from '@shared/discord-contract';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { DiscordService } from './discord.service';

export function discordRoutes({ service, trustedOrigins, reads }: { service: DiscordService; trustedOrigins: string[]; reads: ReadCache }) {
  return (
    new Hono<{ Variables: AuthVariables }>()
      // A cross-site form post must not unlink a member's account.
      .use('/discord/*', csrf({ origin: trustedOrigins }))
      .get('/discord', describeOperation({
        summary: "The member's linked Discord account, the roles it holds and where they stand",
        auth: 'session',
        description: 'Any signed-in member may read it; connecting (POST /api/auth/link-social, provider discord) needs paid access.',
        response: discordStatusResponseSchema,
      }), async (c) => {
        const user = requireUser(c);
        c.header('Cache-Control', 'no-store');
        return c.json(await reads.read(`discord-status:${user.id}`, () => service.status(user.id)));
      })
      .post('/discord/disconnect', describeOperation({
        summary: "Unlink the member's Discord account; the shop's roles are taken off it",
        auth: 'session',
        response: discordStatusResponseSchema,
      }), async (c) => {
        const user = requireUser(c);
        return c.json(await service.disconnect(user.id));
      })
  );
}
