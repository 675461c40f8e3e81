// Test helpers for the operator console suites. Only imported by *.test.ts files.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { PlanType } from '@shared/plans';
import { user, userSubscriptions } from '../db/schema';
import type { Db } from '../db/client';
import { linkUsername } from '../modules/tradingview/tradingview.repository';
import { createTestApp, operatorSession, signUp, type TestApp } from './test-app';
import { movableClock, type MovableClock } from './billing-test-kit';

export const OPERATOR_EMAIL = 'operator@example.com';

export type ConsoleSuite = { t: TestApp; operator: string; member: string; time: MovableClock };

/**
 * One app per suite with OPERATOR_EMAIL in ADMIN_EMAILS on a movable clock, and the session
 * cookies of that operator (who accepted an invitation) and of an ordinary member, handed to
 * `set` before the tests run.
 */
export function consoleSuite(set: (suite: ConsoleSuite) => void, env: Record<string, string> = {}): void {
  const time = movableClock();
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: OPERATOR_EMAIL, ...env }, { clock: time.clock });
    set({ t, operator: (await operatorSession(t, OPERATOR_EMAIL)).cookie, member: await signUp(t, `member-${randomUUID()}@example.com`), time });
  });
  afterAll(async () => {
    await t?.close();
  });
}

export type SeededMember = { userId: string; email: string; subscriptionId: string };

/**
 * A member with one subscription written straight to the database (what billing would have
 * written) and, when given, a current TradingView username linked through the TradingView module.
 */
export async function seedMember(
  db: Db,
  input: { username: string | null; expiresAt?: Date | null; isActive?: boolean; status?: string; planType?: PlanType },
): Promise<SeededMember> {
  const userId = randomUUID();
  const email = `${userId}@example.com`;
  await db.insert(user).values({ id: userId, name: 'member', email });
  const [row] = await db
    .insert(userSubscriptions)
    .values({
      userId,
      planType: input.planType ?? 'monthly',
      status: input.status ?? 'active',
      isActive: input.isActive ?? true,
      expiresAt: input.expiresAt === undefined ? new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) : input.expiresAt,
      provider: 'sandbox',
    })
    .returning({ id: userSubscriptions.id });
  if (input.username !== null) await linkUsername(db, userId, input.username, new Date());
  return { userId, email, subscriptionId: row!.id };
}
