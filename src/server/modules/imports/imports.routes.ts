// The console's page of the import: runs and imported members, read only (imports run from the
// command line, where the provider's data and the map file are).
import { Hono } from 'hono';
import { importsOverviewSchema, type ImportsOverview } from '@shared/imports-contract';
import { describeOperation } from '../../http/openapi';
import type { AuthVariables } from '../../http/session-user';
import type { Imports } from './imports.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function importAdminRoutes(imports: Pick<Imports, 'overview'>) {
  return new Hono<{ Variables: AuthVariables }>().get(
    '/imports',
    describeOperation({ summary: 'The latest import runs (npm run import) with their reports, and the members they brought in', auth: 'operator', response: importsOverviewSchema }),
    async (c) => {
      const { runs, members } = await imports.overview();
      const body: ImportsOverview = {
        runs: runs.map((run) => ({ id: run.id, source: run.source, dryRun: run.dryRun, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt?.toISOString() ?? null, report: run.report })),
        members: members.map((member) => ({ ...member, importedAt: member.importedAt.toISOString() })),
      };
      return c.json(body, 200, NO_STORE);
    },
  );
}
