// The console's view of the import of an existing business: the latest runs with their reports,
// and the members the imports brought in (or whose TradingView access they adopted).
import { z } from 'zod';
import { IMPORT_SOURCES, type ImportReport } from './imports';

const importLine = z.object({ subject: z.string(), detail: z.string() });

export const importReportSchema = z.object({
  read: z.number().int(),
  created: z.array(importLine),
  unchanged: z.number().int(),
  matched: z.array(importLine),
  unmatched: z.array(importLine),
  conflicts: z.array(importLine),
  error: z.string().nullable(),
}) satisfies z.ZodType<ImportReport>;

export const importsOverviewSchema = z.object({
  runs: z.array(
    z.object({
      id: z.string(),
      source: z.enum(IMPORT_SOURCES),
      dryRun: z.boolean(),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
      report: importReportSchema,
    }),
  ),
  members: z.array(z.object({ userId: z.string(), email: z.string(), source: z.enum(IMPORT_SOURCES), sourceRef: z.string(), detail: z.string().nullable(), importedAt: z.string() })),
});
export type ImportsOverview = z.infer<typeof importsOverviewSchema>;
