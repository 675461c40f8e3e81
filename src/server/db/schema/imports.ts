import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ImportReport, ImportSource } from '@shared/imports';
import { user } from './auth';

/** Each run of `npm run import -- stripe|tradingview`, dry or real, with its report. Written only by modules/imports. */
export const importRuns = pgTable(
  'import_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: text('source').$type<ImportSource>().notNull(),
    dryRun: boolean('dry_run').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    report: jsonb('report').$type<ImportReport>().notNull(),
    /** What stopped the run (a provider that failed mid-import); null when it finished. */
    error: text('error'),
  },
  (table) => [index('import_runs_started_idx').on(table.startedAt)],
);

/**
 * A member an import brought in (source stripe: the provider's subscription or checkout) or whose
 * TradingView access it adopted (source tradingview: script id and username), once per source_ref.
 */
export const importedMembers = pgTable(
  'imported_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    source: text('source').$type<ImportSource>().notNull(),
    sourceRef: text('source_ref').notNull(),
    detail: text('detail'),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('imported_members_source_ref_uq').on(table.source, table.sourceRef), index('imported_members_imported_idx').on(table.importedAt)],
);
