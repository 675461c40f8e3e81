// The import's own rows: its runs with their reports, and the members it brought in or adopted.
import { desc, eq } from 'drizzle-orm';
import type { ImportReport, ImportSource } from '@shared/imports';
import type { Db } from '../../db/client';
import { importedMembers, importRuns, user } from '../../db/schema';

export async function startRun(db: Db, run: { source: ImportSource; dryRun: boolean; startedAt: Date; report: ImportReport }): Promise<string> {
  const [row] = await db.insert(importRuns).values(run).returning({ id: importRuns.id });
  if (!row) throw new Error('import run not recorded');
  return row.id;
}

export async function finishRun(db: Db, id: string, report: ImportReport, finishedAt: Date): Promise<void> {
  await db.update(importRuns).set({ report, error: report.error, finishedAt }).where(eq(importRuns.id, id));
}

/** Records a member brought in for `sourceRef`, once (an earlier run's row stays). */
export async function recordImportedMember(db: Db, entry: { userId: string; source: ImportSource; sourceRef: string; detail: string }): Promise<void> {
  await db.insert(importedMembers).values(entry).onConflictDoNothing();
}

export async function recentRuns(db: Db, limit: number) {
  return db.select().from(importRuns).orderBy(desc(importRuns.startedAt)).limit(limit);
}

export async function recentImportedMembers(db: Db, limit: number) {
  return db
    .select({ userId: importedMembers.userId, email: user.email, source: importedMembers.source, sourceRef: importedMembers.sourceRef, detail: importedMembers.detail, importedAt: importedMembers.importedAt })
    .from(importedMembers)
    .innerJoin(user, eq(user.id, importedMembers.userId))
    .orderBy(desc(importedMembers.importedAt))
    .limit(limit);
}
