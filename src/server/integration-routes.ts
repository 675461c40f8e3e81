// The console's view of every integration (GET /api/admin/integrations: one card each, with its
// page), and the integrations' console routes put together under /api/admin.
import { Hono } from 'hono';
import { describeOperation } from './http/openapi';
import type { AuthVariables } from './http/session-user';
import type { Integration } from './integration';

type Routes = Hono<{ Variables: AuthVariables }>;

export function integrationCardRoutes(integrations: readonly Integration[]): Routes {
  return new Hono<{ Variables: AuthVariables }>().get(
    '/integrations',
    describeOperation({ summary: "Each integration's card: its console page, sandbox or live, linked members, pending and failing", auth: 'operator', ok: '{ integrations: [{ name, title, path, sandbox, linked, pending, failing }] }' }),
    async (c) => c.json({ integrations: await Promise.all(integrations.flatMap((integration) => (integration.card ? [integration.card()] : []))) }),
  );
}

export function mergeRoutes(all: readonly Routes[]): Routes {
  const merged = new Hono<{ Variables: AuthVariables }>();
  for (const routes of all) merged.route('/', routes);
  return merged;
}
