// The trials table (only this module writes it) and the reads that decide who may start a trial.
import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { normaliseEmailIdentity } from '@shared/email-identity';
import type { RepeatReason, TrialKeys, TrialOutcome } from '@shared/trials';
import type { Db } from '../../db/client';
import { trials, user } from '../../db/schema';
import { paidWithEmail } from '../provider-records/checkout-session-reads';
import { subscriptionIdsOfMember } from '../entitlements/entitlement-reads';

export type TrialRow = typeof trials.$inferSelect;
export type NewTrial = Omit<typeof trials.$inferInsert, 'id' | 'emailIdentity' | 'outcome' | 'repeatReason' | 'repeatOfTrialId' | 'outcomeAt' | 'createdAt' | 'updatedAt'>;

const lower = (value: string | null) => value?.trim().toLowerCase() ?? null;

/** Whether the e-mail (or the member's TradingView username) ever had a trial, and whether the e-mail ever paid. */
export async function buyerTrialHistory(db: Db, buyer: { email: string | null; tradingviewUsername: string | null }): Promise<{ hadTrial: boolean; boughtBefore: boolean }> {
  const email = lower(buyer.email);
  const username = lower(buyer.tradingviewUsername);
  const keys: SQL[] = [];
  // the person the e-mail reaches: a.l.i.c.e+2@googlemail.com had the trial alice@gmail.com had
  if (email) keys.push(eq(trials.emailIdentity, normaliseEmailIdentity(email)));
  if (username) keys.push(eq(trials.tradingviewUsername, username));
  if (keys.length === 0) return { hadTrial: false, boughtBefore: false };
  const [trial] = await db.select({ id: trials.id }).from(trials).where(or(...keys)).limit(1);
  const boughtBefore = email ? await paidWithEmail(db, email) : false;
  return { hadTrial: trial !== undefined, boughtBefore };
}

export async function findTrialBySubscription(db: Db, subscriptionId: string): Promise<TrialRow | null> {
  const [row] = await db.select().from(trials).where(eq(trials.providerSubscriptionId, subscriptionId)).limit(1);
  return row ?? null;
}

export async function findTrialByCheckoutSession(db: Db, sessionId: string): Promise<TrialRow | null> {
  const [row] = await db.select().from(trials).where(eq(trials.checkoutSessionId, sessionId)).limit(1);
  return row ?? null;
}

/** Records a trial once per subscription; answers the stored row either way. */
export async function recordTrial(db: Db, trial: NewTrial): Promise<TrialRow> {
  await db
    .insert(trials)
    .values({ ...trial, email: lower(trial.email) ?? '', emailIdentity: normaliseEmailIdentity(trial.email), tradingviewUsername: lower(trial.tradingviewUsername ?? null) })
    .onConflictDoNothing({ target: trials.providerSubscriptionId });
  const stored = await findTrialBySubscription(db, trial.providerSubscriptionId);
  if (!stored) throw new Error(`trial of ${trial.providerSubscriptionId} vanished`);
  return stored;
}

/** Trials started before `trial` that share one of its keys (any outcome). */
export async function earlierTrialsSharingKeys(db: Db, trial: TrialRow & TrialKeys): Promise<TrialRow[]> {
  const keys: SQL[] = [eq(trials.emailIdentity, trial.emailIdentity)];
  if (trial.cardFingerprint) keys.push(eq(trials.cardFingerprint, trial.cardFingerprint));
  if (trial.tradingviewUsername) keys.push(eq(trials.tradingviewUsername, trial.tradingviewUsername));
  return db
    .select()
    .from(trials)
    .where(and(or(...keys), or(lt(trials.createdAt, trial.createdAt), and(eq(trials.createdAt, trial.createdAt), lt(trials.id, trial.id)))))
    .orderBy(trials.createdAt);
}

/** Moves a running trial to its outcome; false when it had already left `running`. */
export async function endRunningTrial(db: Db, id: string, outcome: Exclude<TrialOutcome, 'running'>, at: Date, repeat?: { reason: RepeatReason; of: string }): Promise<boolean> {
  const updated = await db
    .update(trials)
    .set({ outcome, outcomeAt: at, updatedAt: at, ...(repeat ? { repeatReason: repeat.reason, repeatOfTrialId: repeat.of } : {}) })
    .where(and(eq(trials.id, id), eq(trials.outcome, 'running')))
    .returning({ id: trials.id });
  return updated.length > 0;
}

export async function updateTrialFacts(db: Db, id: string, facts: Partial<Pick<TrialRow, 'endsAt' | 'cardFingerprint' | 'tradingviewUsername'>>, at: Date): Promise<void> {
  await db
    .update(trials)
    .set({ ...facts, ...(facts.tradingviewUsername ? { tradingviewUsername: lower(facts.tradingviewUsername) } : {}), updatedAt: at })
    .where(eq(trials.id, id));
}

/** The trials of a member: of their subscriptions, or paid with their e-mail; newest first. */
export async function trialsOfMember(db: Db, userId: string): Promise<TrialRow[]> {
  const email = db.select({ email: sql<string>`lower(${user.email})` }).from(user).where(eq(user.id, userId));
  return db
    .select()
    .from(trials)
    .where(or(sql`${trials.providerSubscriptionId} IN (${subscriptionIdsOfMember(userId)})`, inArray(trials.email, email)))
    .orderBy(desc(trials.createdAt), desc(trials.id));
}

/** The console's figures: trials started since `since`, by outcome and by repeat reason, and the latest ones. */
export async function trialsReport(db: Db, since: Date, until: Date, limit: number) {
  const window = and(gte(trials.startedAt, since), lt(trials.startedAt, until));
  const byOutcome = await db.select({ outcome: trials.outcome, count: sql<number>`count(*)::int` }).from(trials).where(window).groupBy(trials.outcome);
  const byReason = await db
    .select({ reason: trials.repeatReason, count: sql<number>`count(*)::int` })
    .from(trials)
    .where(and(window, eq(trials.outcome, 'refused_repeat')))
    .groupBy(trials.repeatReason);
  const latest = await db.select().from(trials).where(window).orderBy(desc(trials.startedAt), desc(trials.id)).limit(limit);
  return { byOutcome, byReason, latest };
}
