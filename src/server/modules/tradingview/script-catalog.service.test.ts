// The script catalog end to end on the database (PGlite, or Postgres with TEST_DATABASE_URL): a
// sync through the sandbox and through the real client against the TradingView-shaped server, and
// plan bundles reaching members through the reconciler.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import type { Database } from '../../db/client';
import { outbox, sandboxTradingviewAccess, user, userSubscriptions } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { createLogger } from '../../logger';
import { createSandboxTradingView, type SandboxOperation } from './sandbox-tradingview';
import { FAKE_SESSION, startFakeTradingView, type FakeTradingView } from '../../test-support/fake-tradingview-server';
import { sandboxTradingViewSuite } from '../../test-support/tradingview-test-kit';
import { createGrantReconciler, type GrantReconciler } from './grant-reconciler';
import { catalogScriptIds } from './script-catalog.repository';
import { createScriptCatalogService } from './script-catalog.service';
import { createTradingViewClient } from './tradingview-client';
import { linkUsername } from './tradingview.repository';
import type { TradingViewPort } from './tradingview.port';

const PRO = 'PUB;pro-v2';
const SMC = 'PUB;smc';
const VOL = 'PUB;volatility';
const BUNDLE = [PRO, SMC, VOL];
const VENDOR_SCRIPTS = [
  { id: PRO, name: 'Pro V2' },
  { id: SMC, name: 'Smart Money Concepts' },
  { id: VOL, name: 'Volatility Index' },
];
const JULY = new Date('2030-07-01T00:00:00.000Z');

let database: Database;
let operations: SandboxOperation[];
let now: Date;
const clock = () => now;
let audited: { operator: string; action: string; details: Record<string, unknown> }[];

sandboxTradingViewSuite(
  {
    truncate: sql`TRUNCATE tradingview_scripts, outbox, tradingview_grants, tradingview_shop_access, sandbox_tradingview_access, sandbox_switches, user_subscriptions, "user" CASCADE`,
    missingUsernames: [],
    clock,
  },
  (bench) => {
    ({ database, operations } = bench);
    now = new Date('2030-06-01T00:00:00.000Z');
    audited = [];
  },
);

function vendorSandbox(scripts = VENDOR_SCRIPTS): TradingViewPort {
  return createSandboxTradingView({ db: database.db, missingUsernames: [], scripts, clock, onOperation: (operation) => operations.push(operation) });
}

function build(port: TradingViewPort = vendorSandbox()): { reconciler: GrantReconciler; catalog: ReturnType<typeof createScriptCatalogService> } {
  const reconciler = createGrantReconciler({ db: database.db, port, scriptIds: BUNDLE, logger: createLogger('silent'), clock, intervalMs: 60_000 });
  const catalog = createScriptCatalogService({ db: database.db, port, reconciler, initialBundle: BUNDLE, clock, audit: async (entry) => void audited.push(entry) });
  return { reconciler, catalog };
}

async function member(planType: PlanType, username: string): Promise<string> {
  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'member', email: `${userId}@example.com` });
  await database.db.insert(userSubscriptions).values({ userId, planType, status: 'active', isActive: true, expiresAt: planType === 'lifetime' ? null : JULY, provider: 'sandbox' });
  await linkUsername(database.db, userId, username, now);
  return userId;
}

/** The scripts TradingView (the sandbox) lists the username on. */
async function held(username: string): Promise<string[]> {
  const rows = await database.db.select({ scriptId: sandboxTradingviewAccess.scriptId }).from(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, username));
  return rows.map((row) => row.scriptId).sort();
}

async function settle(reconciler: GrantReconciler): Promise<void> {
  while ((await reconciler.runOnce()).processed > 0);
}

const writes = () => operations.filter((operation) => operation.op !== 'list').map((operation) => `${operation.op} ${operation.scriptId} ${operation.username}`);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the catalog before any sync', () => {
  it('holds TRADINGVIEW_SCRIPT_IDS with every plan, named by their ids', async () => {
    const { catalog } = build();
    expect((await catalog.list()).map(({ id, name, plans }) => ({ id, name, plans }))).toEqual(BUNDLE.map((id) => ({ id, name: id, plans: [...PLAN_TYPES] })));
    expect(await catalogScriptIds(database.db, BUNDLE)).toEqual(BUNDLE);
  });
});

describe('sync', () => {
  it("names the configured scripts from TradingView, adds the vendor's others with no plan, and keeps unlisted ones", async () => {
    const { catalog } = build(vendorSandbox([...VENDOR_SCRIPTS.slice(0, 2), { id: 'PUB;new', name: 'New One' }]));
    await catalog.setPlans(VOL, ['lifetime'], 'ops@example.com');

    const outcome = await catalog.sync('ops@example.com');

    expect(outcome.added).toEqual([{ id: 'PUB;new', name: 'New One', plans: [] }]);
    expect(outcome.renamed).toEqual([PRO, SMC]);
    expect(outcome.unlisted).toEqual([VOL]);
    expect(outcome.scripts.map(({ id, name, plans }) => ({ id, name, plans }))).toEqual([
      { id: PRO, name: 'Pro V2', plans: [...PLAN_TYPES] },
      { id: SMC, name: 'Smart Money Concepts', plans: [...PLAN_TYPES] },
      { id: VOL, name: VOL, plans: ['lifetime'] },
      { id: 'PUB;new', name: 'New One', plans: [] },
    ]);
    expect(outcome.scripts.map((script) => script.syncedAt !== null)).toEqual([true, true, false, true]);
    expect(audited.at(-1)).toEqual({ operator: 'ops@example.com', action: 'tradingview.sync_scripts', details: { added: ['PUB;new'], renamed: [PRO, SMC], unlisted: [VOL] } });
  });

  it('a second sync changes nothing', async () => {
    const { catalog } = build();
    const first = await catalog.sync('ops@example.com');
    const second = await catalog.sync('ops@example.com');
    expect(second).toMatchObject({ added: [], renamed: [], unlisted: [] });
    expect(second.scripts.map(({ id, name, plans }) => ({ id, name, plans }))).toEqual(first.scripts.map(({ id, name, plans }) => ({ id, name, plans })));
  });

  it('TradingView down: a 502 with the reason, and the catalog unchanged', async () => {
    const port = vendorSandbox();
    const { catalog } = build(port);
    await port.sandbox!.setOutage(true);
    const error = await refusal(catalog.sync('ops@example.com'));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/TradingView did not answer: .*simulated outage/);
    expect((await catalog.list()).map((script) => script.name)).toEqual(BUNDLE);
    expect(audited).toEqual([]);
  });

  describe('through the real client', () => {
    let fake: FakeTradingView;
    beforeEach(async () => {
      fake = await startFakeTradingView();
    });
    afterEach(async () => {
      await fake.close();
    });

    it("reads the vendor's invite-only scripts from the TradingView-shaped server", async () => {
      fake.scripts = VENDOR_SCRIPTS;
      const { catalog } = build(createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: BUNDLE, retryDelayMs: 0 }));
      const outcome = await catalog.sync('ops@example.com');
      expect(outcome.scripts.map(({ id, name }) => ({ id, name }))).toEqual(VENDOR_SCRIPTS);
    });
  });
});

describe('plans choose their scripts', () => {
  it("taking a script from a plan revokes it from that plan's members only; giving it back grants it again", async () => {
    const { catalog, reconciler } = build();
    const monthly = await member('monthly', 'Monthly_Joe');
    const yearly = await member('yearly', 'Yearly_Ann');
    for (const userId of [monthly, yearly]) await reconciler.syncUser(userId);
    await settle(reconciler);
    expect(await held('Monthly_Joe')).toEqual([...BUNDLE].sort());
    operations.length = 0;

    const { script, resynced } = await catalog.setPlans(VOL, ['quarterly', 'yearly', 'lifetime', 'euQuarterly'], 'ops@example.com');
    expect(script.plans).toEqual(['quarterly', 'yearly', 'lifetime', 'euQuarterly']);
    expect(resynced).toBe(1);
    await settle(reconciler);

    expect(await held('Monthly_Joe')).toEqual([PRO, SMC].sort());
    expect(await held('Yearly_Ann')).toEqual([...BUNDLE].sort());
    expect(writes()).toEqual([`remove ${VOL} Monthly_Joe`]);
    expect(audited.at(-1)).toMatchObject({ action: 'tradingview.set_script_plans', details: { scriptId: VOL, before: [...PLAN_TYPES], members: 1 } });

    operations.length = 0;
    await catalog.setPlans(VOL, [...PLAN_TYPES], 'ops@example.com');
    await settle(reconciler);
    expect(await held('Monthly_Joe')).toEqual([...BUNDLE].sort());
    expect(writes()).toEqual([`add ${VOL} Monthly_Joe`]);
  });

  it('a plan change grants and revokes exactly the difference between the two bundles', async () => {
    const { catalog, reconciler } = build();
    await catalog.setPlans(SMC, ['yearly'], 'ops@example.com');
    await catalog.setPlans(VOL, ['monthly'], 'ops@example.com');
    const userId = await member('monthly', 'Switcher');
    await reconciler.syncUser(userId);
    await settle(reconciler);
    expect(await held('Switcher')).toEqual([PRO, VOL].sort());
    operations.length = 0;

    await database.db.update(userSubscriptions).set({ planType: 'yearly' }).where(eq(userSubscriptions.userId, userId));
    await reconciler.syncUser(userId);
    await settle(reconciler);

    expect(await held('Switcher')).toEqual([PRO, SMC].sort());
    expect(writes().sort()).toEqual([`add ${SMC} Switcher`, `remove ${VOL} Switcher`]);
  });

  it("the access mail names the scripts of the member's bundle", async () => {
    const { catalog, reconciler } = build();
    await catalog.sync('ops@example.com');
    await catalog.setPlans(SMC, ['yearly'], 'ops@example.com');
    await reconciler.syncUser(await member('monthly', 'Monthly_Joe'));
    await settle(reconciler);
    const mails = await database.db.select({ data: outbox.data }).from(outbox).where(eq(outbox.template, 'tradingview_active'));
    expect(mails.map((mail) => mail.data)).toEqual([{ username: 'Monthly_Joe', scripts: ['Pro V2', 'Volatility Index'] }]);
  });

  it('a plan with no scripts: its members hold none of the shop\'s access, and no "access is active" mail', async () => {
    const { catalog, reconciler } = build();
    for (const script of BUNDLE) await catalog.setPlans(script, ['yearly'], 'ops@example.com');
    await reconciler.syncUser(await member('monthly', 'Monthly_Joe'));
    await settle(reconciler);
    expect(await held('Monthly_Joe')).toEqual([]);
    expect(await database.db.select().from(outbox).where(eq(outbox.template, 'tradingview_active'))).toEqual([]);
  });

  it('an unknown script id: a 404 that names it, and nothing changed', async () => {
    const { catalog } = build();
    const error = await refusal(catalog.setPlans('PUB;nope', ['monthly'], 'ops@example.com'));
    expect(error.status).toBe(404);
    expect(error.message).toContain('PUB;nope');
    expect((await catalog.list()).every((script) => script.plans.length === PLAN_TYPES.length)).toBe(true);
    expect(audited).toEqual([]);
  });
});
