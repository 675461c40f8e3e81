// The console's Discord page's API (mounted at /api/admin behind the operator check, as the
// integration's admin routes): the overview, the guild's roles, the linked accounts with "Retry
// now", the audit's repairs and "Audit now". Handlers validate, call the console service and answer a DTO.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  actionResultSchema,
  discordAccountsQuerySchema,
  discordAccountsSchema,
  discordAuditSummarySchema,
  discordOverviewSchema,
  discordRepairsSchema,
  discordRolesSchema,
} from '@shared/admin-contract';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { DiscordConsoleService } from './discord-console.service';

/** Every route below (under /api/admin), for the table-driven authorisation test (admin-ops.routes.test.ts). */
export const DISCORD_CONSOLE_ROUTES = [
  { method: 'GET', path: '/discord/overview' },
  { method: 'GET', path: '/discord/roles' },
  { method: 'GET', path: '/discord/accounts' },
  { method: 'POST', path: '/discord/accounts/:id/retry' },
  { method: 'GET', path: '/discord/repairs' },
  { method: 'POST', path: '/discord/audit' },
] as const;

const discordAccountId = z.uuid('Malformed Discord account id.');
const NO_STORE = { 'cache-control': 'private, no-store' };

export function discordConsoleRoutes(discord: DiscordConsoleService) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/discord/overview', describeOperation({ summary: 'Members with Discord linked, and the linked accounts synced, pending and failing', auth: 'operator', response: discordOverviewSchema }), async (c) =>
      c.json(await discord.overview(), 200, NO_STORE),
    )
    .get('/discord/roles', describeOperation({ summary: "The Discord guild's roles by name (none, with the error, while Discord does not answer)", auth: 'operator', response: discordRolesSchema }), async (c) =>
      c.json(await discord.roles(), 200, NO_STORE),
    )
    .get('/discord/accounts', describeOperation({ summary: 'Linked Discord accounts with their roles wanted and held, failing first, a page at a time', auth: 'operator', response: discordAccountsSchema }), async (c) =>
      c.json(await discord.accounts(discordAccountsQuerySchema.parse(c.req.query())), 200, NO_STORE),
    )
    .post('/discord/accounts/:id/retry', describeOperation({ summary: "Retry a failing Discord account's roles now", auth: 'operator', response: actionResultSchema }), async (c) =>
      c.json(await discord.retryNow(discordAccountId.parse(c.req.param('id')), requireUser(c))),
    )
    .get('/discord/repairs', describeOperation({ summary: "The Discord audit's latest repairs: roles given back or taken away", auth: 'operator', response: discordRepairsSchema }), async (c) =>
      c.json(await discord.repairs(), 200, NO_STORE),
    )
    .post('/discord/audit', describeOperation({ summary: 'Audit the Discord guild now: repair roles held without access and missing with it', auth: 'operator', response: discordAuditSummarySchema }), async (c) =>
      c.json(await discord.runAudit(requireUser(c))),
    );
}
