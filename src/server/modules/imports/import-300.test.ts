// The move of an existing business of 300 subscriptions, through the real Stripe adapter and the
// real TradingView client against their local look-alikes: dry runs change nothing, the real runs
// create each member once and adopt the access they hold, and no matched TradingView user is
// without access at any step.
import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { UsernameMap } from '@shared/imports';
import { TEST_PRICE_IDS } from '../../test-support/fake-stripe-server';
import { IMPORT_SCRIPTS, importFootprint, importSuite, settleGrants } from '../../test-support/import-test-kit';
import { userSubscriptions } from '../../db/schema';

const BUYERS = 300;
const MAPPED = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const email = (index: number) => `buyer-${index}@example.com`;
const username = (index: number) => `Trader_${index}`;
const STRANGERS = ['Stranger_1', 'Stranger_2', 'Stranger_3'];
// 200 monthly (two pages of Stripe's 100) and 100 yearly
const PLANS = [TEST_PRICE_IDS.monthly, TEST_PRICE_IDS.monthly, TEST_PRICE_IDS.yearly];

describe('importing 300 subscriptions and their TradingView access', () => {
  const bench = importSuite({ accounts: [...Array.from({ length: BUYERS }, (_, index) => username(index)), ...STRANGERS] });
  const map: UsernameMap = new Map(Array.from({ length: MAPPED }, (_, index) => [email(index), username(index)]));
  // Access the vendor gave by hand: no expiry, a year, or two days (shorter than the paid period).
  const handExpiry = (index: number) => [null, new Date(Date.now() + 365 * DAY_MS).toISOString(), new Date(Date.now() + 2 * DAY_MS).toISOString()][index % 3]!;

  /** Every mapped buyer is on every script's list with access that has not run out. */
  function everyMatchedUserHoldsAccess(): void {
    const now = Date.now();
    for (const scriptId of IMPORT_SCRIPTS) {
      const users = bench.tradingView.access.get(scriptId);
      const lacking = Array.from({ length: MAPPED }, (_, index) => username(index)).filter((name) => {
        if (!users?.has(name)) return true;
        const expiration = users.get(name);
        return expiration !== null && expiration !== undefined && new Date(expiration).getTime() <= now;
      });
      expect(lacking, `${scriptId}: matched users without access`).toEqual([]);
    }
  }

  const run = (source: 'stripe' | 'tradingview', dryRun: boolean) => bench.t.services.imports.run(source, { dryRun, map, operator: 'command-line' });

  it('reads every page and creates 300 members once; dry runs change nothing; nobody loses TradingView access', async () => {
    const { stripe, tradingView, t } = bench;
    for (let index = 0; index < BUYERS; index += 1) stripe.seedSubscription({ email: email(index), priceId: PLANS[index % 3]! });
    for (const scriptId of IMPORT_SCRIPTS) {
      tradingView.access.set(scriptId, new Map([...Array.from({ length: MAPPED }, (_, index) => [username(index), handExpiry(index)] as const), ...STRANGERS.map((name) => [name, null] as const)]));
    }
    const strangersBefore = IMPORT_SCRIPTS.map((scriptId) => STRANGERS.map((name) => tradingView.access.get(scriptId)?.get(name)));
    const before = await importFootprint(t);

    const dry = await run('stripe', true);
    expect(dry).toMatchObject({ read: BUYERS, unchanged: 0, conflicts: [], error: null });
    expect(dry.created).toHaveLength(BUYERS);
    expect(dry.matched).toHaveLength(MAPPED);
    expect(await importFootprint(t)).toEqual(before);

    const real = await run('stripe', false);
    expect(real).toMatchObject({ read: BUYERS, unchanged: 0, conflicts: [], error: null });
    expect(real.created).toHaveLength(BUYERS);
    expect(await importFootprint(t)).toEqual({ members: before.members + BUYERS, rows: BUYERS, mails: BUYERS, audit: before.audit + BUYERS, imported: BUYERS });
    const owned = await t.deps.database.db.select({ id: userSubscriptions.id }).from(userSubscriptions).where(and(isNotNull(userSubscriptions.userId), eq(userSubscriptions.isActive, true)));
    expect(owned).toHaveLength(BUYERS);
    everyMatchedUserHoldsAccess();
    await settleGrants(t);
    everyMatchedUserHoldsAccess();
    // no charge, no new subscription, no change at the provider: the import only read, every page
    expect(stripe.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(stripe.requests.filter((request) => request.path === '/v1/subscriptions' && request.query.has('starting_after'))).not.toEqual([]);

    const again = await run('stripe', false);
    expect(again).toMatchObject({ read: BUYERS, unchanged: BUYERS, created: [], matched: [], conflicts: [], error: null });
    const afterStripe = await importFootprint(t);
    expect(afterStripe).toEqual({ members: before.members + BUYERS, rows: BUYERS, mails: BUYERS, audit: before.audit + BUYERS, imported: BUYERS });

    const tvDry = await run('tradingview', true);
    expect(tvDry.error).toBeNull();
    expect(tvDry.read).toBe(IMPORT_SCRIPTS.length * (MAPPED + STRANGERS.length));
    expect(tvDry.unmatched.map((line) => line.subject).sort()).toEqual(IMPORT_SCRIPTS.flatMap((scriptId) => STRANGERS.map((name) => `${name} on ${scriptId}`)).sort());
    expect(await importFootprint(t)).toEqual(afterStripe);

    const tv = await run('tradingview', false);
    expect(tv).toMatchObject({ read: tvDry.read, conflicts: [], error: null });
    expect(tv.created.map((line) => line.subject)).toEqual(tvDry.created.map((line) => line.subject));
    // access the reconciler already extended after the Stripe import (the two-day grants) is the shop's already
    expect(tv.created.length + tv.unchanged).toBe(IMPORT_SCRIPTS.length * MAPPED);
    everyMatchedUserHoldsAccess();
    await settleGrants(t);
    everyMatchedUserHoldsAccess();

    // adopted access now runs to each member's paid period, and the strangers' access is as it was
    const rows = await t.deps.database.db.select({ expiresAt: userSubscriptions.expiresAt, providerSubscriptionId: userSubscriptions.providerSubscriptionId }).from(userSubscriptions);
    const periodEnd = new Map(rows.map((row) => [row.providerSubscriptionId, row.expiresAt]));
    for (let index = 0; index < MAPPED; index += 1) {
      const subscriptionId = [...stripe.subscriptions.values()].find((sub) => stripe.customers.get(sub.customer as string)?.email === email(index))?.id as string;
      const wanted = periodEnd.get(subscriptionId)!.getTime();
      for (const scriptId of IMPORT_SCRIPTS) {
        const listed = tradingView.access.get(scriptId)?.get(username(index));
        expect(Math.abs(new Date(listed!).getTime() - wanted), `${username(index)} on ${scriptId}`).toBeLessThan(DAY_MS);
      }
    }
    expect(IMPORT_SCRIPTS.map((scriptId) => STRANGERS.map((name) => tradingView.access.get(scriptId)?.get(name)))).toEqual(strangersBefore);

    const tvAgain = await run('tradingview', false);
    expect(tvAgain).toMatchObject({ created: [], matched: [], conflicts: [], error: null, unchanged: IMPORT_SCRIPTS.length * MAPPED });
  }, 300_000);
});
