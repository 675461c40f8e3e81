// Test helpers for the import suites: the real app on the real Stripe adapter and the real
// TradingView client, each against its local look-alike. Only imported by *.test.ts files.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { FakePrice } from './fake-stripe-server';
import { FAKE_PRICES, startFakeStripe, STRIPE_TEST_ENV, type FakeStripe } from './fake-stripe-server';
import { FAKE_SESSION, startFakeTradingView, type FakeTradingView } from './fake-tradingview-server';
import { createTestApp, type TestApp } from './test-app';
import { paymentsOn } from './stripe-test-kit';
import { importedMembers, operatorAuditLog, outbox, user, userSubscriptions } from '../db/schema';
import { tradingViewOf } from '../modules/tradingview/tradingview.integration';

export const IMPORT_SCRIPTS = ['PUB;import-one', 'PUB;import-two'] as const;

export type ImportBench = { stripe: FakeStripe; tradingView: FakeTradingView; t: TestApp };

/** Registers a suite's app; `accounts` are the TradingView usernames that exist. */
export function importSuite(options: { accounts: string[]; prices?: Record<string, FakePrice> }): ImportBench {
  const bench = {} as ImportBench;
  beforeAll(async () => {
    bench.stripe = await startFakeStripe({ prices: { ...FAKE_PRICES, ...options.prices } });
    bench.tradingView = await startFakeTradingView({ accounts: options.accounts });
    bench.t = await createTestApp(
      {
        ...STRIPE_TEST_ENV,
        TRADINGVIEW_BASE_URL: bench.tradingView.baseUrl,
        TRADINGVIEW_SESSION_ID: FAKE_SESSION.sessionId,
        TRADINGVIEW_SESSION_SIGN: FAKE_SESSION.sessionSign,
        TRADINGVIEW_SCRIPT_IDS: IMPORT_SCRIPTS.join(','),
      },
      { payments: paymentsOn(bench.stripe) },
    );
  });
  afterAll(async () => {
    await bench.t.close();
    await bench.stripe.close();
    await bench.tradingView.close();
  });
  return bench;
}

/** Runs the grant reconciler until it has nothing left to do (what the import command does after a run). */
export async function settleGrants(t: TestApp): Promise<void> {
  for (;;) if ((await tradingViewOf(t.integrations).reconciler.runOnce()).processed === 0) return;
}

/** What an import may change, counted: members, subscription rows, mails, audit lines, imported members. */
export async function importFootprint(t: TestApp) {
  const db = t.deps.database.db;
  const total = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  return {
    members: await total(db.select({ n: count() }).from(user)),
    rows: await total(db.select({ n: count() }).from(userSubscriptions)),
    mails: await total(db.select({ n: count() }).from(outbox).where(eq(outbox.template, 'access_moved'))),
    audit: await total(db.select({ n: count() }).from(operatorAuditLog)),
    imported: await total(db.select({ n: count() }).from(importedMembers)),
  };
}
