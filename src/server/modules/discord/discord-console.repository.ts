// The console's Discord page reads: the linked accounts with their member's e-mail (a page at a
// time, failing first), the counts above them, and the audit's repairs with who they concerned.
// The rows are the Discord module's (discord_members, discord_repairs); writes stay with it.
import { count, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discordMembers, discordRepairs, user } from '../../db/schema';
import type { DiscordMemberRow } from './discord.repository';

export type DiscordAccountRow = DiscordMemberRow & { email: string };

export type DiscordCounts = { linkedMembers: number; synced: number; pending: number; failing: number };

export async function discordCounts(db: Db): Promise<DiscordCounts> {
  const [[linked], byStatus] = await Promise.all([
    db.select({ value: countDistinct(discordMembers.userId) }).from(discordMembers).where(eq(discordMembers.current, true)),
    db.select({ status: discordMembers.status, value: count() }).from(discordMembers).groupBy(discordMembers.status),
  ]);
  const of = (...statuses: string[]) => byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.value), 0);
  return { linkedMembers: Number(linked?.value ?? 0), synced: of('synced'), pending: of('pending', 'processing'), failing: of('failed') };
}

/** Linked accounts with their member's e-mail: failing ones first (longest failing first), then the newest links. */
export async function discordAccountsPage(db: Db, options: { failingOnly: boolean; page: number; pageSize: number }): Promise<{ rows: DiscordAccountRow[]; total: number }> {
  const where = options.failingOnly ? eq(discordMembers.status, 'failed') : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ account: discordMembers, email: user.email })
      .from(discordMembers)
      .innerJoin(user, eq(user.id, discordMembers.userId))
      .where(where)
      .orderBy(desc(sql`${discordMembers.status} = 'failed'`), sql`${discordMembers.failingSince} ASC NULLS LAST`, desc(discordMembers.linkedAt), discordMembers.id)
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ value: count() }).from(discordMembers).where(where),
  ]);
  return { rows: rows.map((row) => ({ ...row.account, email: row.email })), total: Number(total?.value ?? 0) };
}

export async function findDiscordAccount(db: Db, id: string): Promise<DiscordAccountRow | null> {
  const [row] = await db
    .select({ account: discordMembers, email: user.email })
    .from(discordMembers)
    .innerJoin(user, eq(user.id, discordMembers.userId))
    .where(eq(discordMembers.id, id))
    .limit(1);
  return row ? { ...row.account, email: row.email } : null;
}

export type DiscordRepairRow = typeof discordRepairs.$inferSelect & { email: string | null; username: string | null };

/** The audit's latest repairs, newest first, with the member's e-mail and the account's linked username. */
export async function latestRepairsWithMembers(db: Db, limit: number): Promise<DiscordRepairRow[]> {
  const repairs = await db
    .select({ repair: discordRepairs, email: user.email })
    .from(discordRepairs)
    .leftJoin(user, eq(user.id, discordRepairs.userId))
    .orderBy(desc(discordRepairs.repairedAt), desc(discordRepairs.id))
    .limit(limit);
  const ids = [...new Set(repairs.map((row) => row.repair.discordUserId))];
  // the account's username as its member linked it: read in this order, the current link's wins, else the latest
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const linked = await db
      .select({ discordUserId: discordMembers.discordUserId, username: discordMembers.username })
      .from(discordMembers)
      .where(inArray(discordMembers.discordUserId, ids))
      .orderBy(discordMembers.current, discordMembers.linkedAt);
    for (const row of linked) names.set(row.discordUserId, row.username);
  }
  return repairs.map((row) => ({ ...row.repair, email: row.email, username: names.get(row.repair.discordUserId) ?? null }));
}
