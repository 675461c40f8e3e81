import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setActiveCatalogue } from '@shared/catalogue';
import { landingCards } from '@shared/campaign';
import { sandboxPortalSchema } from '@shared/sandbox-contract';
import type { SiteSettings } from '@shared/site';
import { runAdminCommand } from './admin-command';
import { buildCatalogue } from '../dependencies';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { buy, DAY_MS, jobsOf, movableClock, ordersOfSession, rowsOfSession, signUp, userIdOf } from '../test-support/billing-test-kit';
import { claimCheckoutSession } from '../modules/fulfilment/fulfilment';
import { catalogueVersion } from '../modules/catalogue/catalogue.repository';
import { createCatalogueService } from '../modules/catalogue/catalogue.service';
import { createPriceMover } from '../modules/catalogue/price-moves';
import { recordOperatorAction } from '../modules/admin/audit.repository';

// the plans' rules read the process's catalogue, which this file edits: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

// The "Done when", in the sandbox: the seed's sale over, a weekly plan and a new monthly
// price added on the command line while the shop runs; the running instance sees them within
// MEMBER_CACHE_MS, sells and renews them, and a member keeps the price they bought at.
const SALE_ENDS_AT = '2025-11-26T23:59:59Z';
const time = movableClock(new Date('2026-03-02T10:00:00Z'));
let t: TestApp;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({ SALE_ENDS_AT }, { clock: time.clock });
});
afterAll(async () => {
  await t.close();
});

/** `npm run admin -- …` on the same database, as another process would run it. */
async function admin(...args: string[]) {
  const { config, database } = t.deps;
  const catalogue = async () => {
    const store = buildCatalogue(config, database.db, time.clock);
    await store.load();
    const mover = createPriceMover({ db: database.db, payments: t.deps.payments, taxBehavior: config.tax.behavior, audit: recordOperatorAction });
    return createCatalogueService(store, { payments: t.deps.payments, mover, audit: (entry) => recordOperatorAction(database.db, entry), taxBehavior: config.tax.behavior });
  };
  return runAdminCommand({ db: database.db, config, clock: time.clock, catalogue }, args);
}

async function member(plan: string) {
  const address = `walk-${++counter}@example.com`;
  const cookie = await signUp(t, address);
  const sessionId = await buy(t, address, { planType: plan }, cookie);
  await claimCheckoutSession(t.services.entitlements, sessionId, await userIdOf(t, cookie));
  const [order] = await ordersOfSession(t, sessionId);
  const [row] = await rowsOfSession(t, sessionId);
  return { cookie, charged: order?.amount, row: row! };
}

async function cardsOf(page: '/' | '/eu') {
  const settings = (await (await t.request('/api/site')).json()) as SiteSettings;
  return landingCards(settings, page, false).map((card) => `${card.name} ${card.price}${card.period}`);
}

async function invoicesOf(customerId: string) {
  const portal = sandboxPortalSchema.parse(await (await t.request(`/api/sandbox/portal/${customerId}`)).json());
  return portal.invoices.map((invoice) => invoice.amountDue);
}

/** Past MEMBER_CACHE_MS: the running instance reads the catalogue's version again. */
const afterCache = () => time.advance(1001);

describe('the catalogue edited on the command line while the shop runs', () => {
  let monthlyBefore: Awaited<ReturnType<typeof member>>;

  it("sells the seed's shop with no change", async () => {
    expect(await cardsOf('/')).toEqual(['Monthly $47/month', 'Quarterly $47/month', 'Yearly $47/month']);
    expect(await cardsOf('/eu')).toEqual(['Monthly $29.99/Month', 'Quarterly $59.99per 3 months', 'Lifetime $549.99one time']);
    monthlyBefore = await member('monthly');
    expect(monthlyBefore.charged).toBe(4700);
    expect(await catalogueVersion(t.deps.database.db)).toBe(0);
  });

  it('plans add weekly --price 1500 --every 1w: a Weekly card at $15, bought, renewed a week later at 1500', async () => {
    const added = await admin('plans', 'add', 'weekly', '--name', 'Weekly', '--price', '1500', '--every', '1w');
    expect(added).toMatchObject({ exitCode: 0, output: expect.stringContaining('weekly  Weekly  every week  $15.00 on /') });
    afterCache();
    expect(await cardsOf('/')).toEqual(['Monthly $47/month', 'Quarterly $47/month', 'Yearly $47/month', 'Weekly $15/week']);

    const buyer = await member('weekly');
    expect(buyer.charged).toBe(1500);
    const view = await (await t.request('/api/subscription', { cookie: buyer.cookie })).json();
    expect(view).toMatchObject({ planType: 'weekly', isActive: true, amount: 1500 });
    expect(new Date(view.expiresAt).getTime() - time.now().getTime()).toBeGreaterThan(6 * DAY_MS);
    expect(new Date(view.expiresAt).getTime() - time.now().getTime()).toBeLessThanOrEqual(7 * DAY_MS);

    time.advance(7 * DAY_MS + 1000);
    await jobsOf(t).runOnce();
    expect(await invoicesOf(buyer.row.providerCustomerId!)).toEqual([1500, 1500]);
    const renewed = await (await t.request('/api/subscription', { cookie: buyer.cookie })).json();
    expect(renewed).toMatchObject({ planType: 'weekly', isActive: true });
  });

  it('plans set-price monthly 4000: $40 on the card and charged to new buyers; the earlier member renews at $47', async () => {
    expect(await admin('plans', 'set-price', 'monthly', '4000')).toMatchObject({ exitCode: 0 });
    afterCache();
    expect((await cardsOf('/'))[0]).toBe('Monthly $40/month');
    expect((await member('monthly')).charged).toBe(4000);

    time.advance(31 * DAY_MS);
    await jobsOf(t).runOnce();
    expect(await invoicesOf(monthlyBefore.row.providerCustomerId!)).toEqual([4700, 4700]);
  });

  it('plans move-members monthly: the earlier member renews at $40 from then on; running it again moves nobody', async () => {
    const moved = await admin('plans', 'move-members', 'monthly');
    expect(moved.exitCode).toBe(0);
    expect(moved.output).toMatch(/^walk-1@example\.com: \$47\.00 → \$40\.00 per month from \d{4}-\d{2}-\d{2} \(mailed\)\nMoved 1 member of monthly on \/ to \$40\.00 per month at their next renewal\.$/);
    expect(await admin('plans', 'move-members', 'monthly')).toMatchObject({ exitCode: 0, output: 'Moved 0 members of monthly on / to $40.00 per month at their next renewal. 1 already moved.' });
    time.advance(31 * DAY_MS);
    await jobsOf(t).runOnce();
    // newest first: the renewal after the move charges $40
    expect(await invoicesOf(monthlyBefore.row.providerCustomerId!)).toEqual([4000, 4700, 4700]);
    expect(await admin('plans', 'move-members', 'weekly')).toEqual({ exitCode: 2, output: "weekly's price on / never changed: every member pays the current one." });
    expect(await admin('plans', 'move-members', 'monthly', '--list')).toEqual({ exitCode: 2, output: '--list needs a value.' });
  });

  it('plans list names every plan with its price', async () => {
    const listed = await admin('plans', 'list');
    expect(listed.exitCode).toBe(0);
    expect(listed.output).toContain('monthly  Monthly  every month  $40.00 on /');
    expect(listed.output).toContain('weekly  Weekly  every week  $15.00 on /');
    expect(listed.output).toContain('lifetime  Lifetime  one time (never expires)  $549.99 on eu');
  });

  it.each([
    [['plans', 'add', 'daily', '--name', 'Daily', '--price', '0', '--every', '1d'], 'A price must be more than 0.'],
    [['plans', 'add', 'daily', '--name', 'Daily', '--price', '-100', '--every', '1d'], 'A price must be more than 0.'],
    [['plans', 'add', 'daily', '--name', 'Daily', '--price', '100000001', '--every', '1d'], 'A price may be at most 1,000,000.00.'],
    [['plans', 'add', 'daily', '--name', 'Daily', '--price', '100', '--every', '1x'], 'Unknown period unit "x": use d, w, m or y.'],
    [['plans', 'add', 'daily', '--name', 'Daily', '--price', '100', '--every', '0d'], 'The period count must be at least 1.'],
    [['plans', 'add', 'weekly', '--name', 'Weekly', '--price', '100', '--every', '1w'], 'A plan "weekly" exists already.'],
    [['plans', 'add', 'we/ek', '--name', 'Weekly', '--price', '100', '--every', '1w'], expect.stringContaining('is not URL-safe')],
    [['plans', 'set-price', 'monthly', '4000', '--list', 'de'], 'Unknown price list "de" (lists: /, eu).'],
    [['plans', 'archive', 'nope'], 'Unknown plan "nope".'],
  ])('refuses %j with exit 2 and the reason, saving nothing', async (args, reason) => {
    const before = await catalogueVersion(t.deps.database.db);
    const result = await admin(...args);
    expect(result).toEqual({ exitCode: 2, output: reason });
    expect(await catalogueVersion(t.deps.database.db)).toBe(before);
  });

  it('archiving every plan but one, then the last: refused', async () => {
    for (const plan of ['monthly', 'quarterly', 'yearly', 'weekly', 'euMonthly', 'euQuarterly']) expect((await admin('plans', 'archive', plan)).exitCode).toBe(0);
    expect(await admin('plans', 'archive', 'lifetime')).toEqual({ exitCode: 2, output: 'At least one plan must stay visible: archiving the last one would leave nothing to buy.' });
    afterCache();
    expect(await cardsOf('/')).toEqual([]);
    expect(await cardsOf('/eu')).toEqual(['Lifetime $549.99one time']);
    // archived, and still the plan of the members who hold it
    const view = await (await t.request('/api/subscription', { cookie: monthlyBefore.cookie })).json();
    expect(view).toMatchObject({ planType: 'monthly', isActive: true });
  });

  it('plans publish in the sandbox: nothing to publish, the sandbox charges the catalogue itself', async () => {
    expect(await admin('plans', 'publish')).toEqual({ exitCode: 0, output: "Payments run in the sandbox: it charges the catalogue's prices itself, nothing to publish." });
    expect((await admin('plans', 'publish', 'monthly')).exitCode).toBe(2);
  });
});
