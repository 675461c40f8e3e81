// The import's cases one at a time, on the real Stripe adapter and TradingView client against their
// local look-alikes: lifetime payments, what it will not import, the buyer's set-your-password
// link, and runs cut short by a failing provider that the same command continues.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { subscriptionViewDtoSchema } from '@shared/api-contract';
import { landingCards } from '@shared/campaign';
import { setActiveCatalogue } from '@shared/catalogue';
import { planChangePage } from '@shared/catalogue-publishing';
import type { ImportReport, UsernameMap } from '@shared/imports';
import type { SiteSettings } from '@shared/site';
import { TEST_PRICE_IDS } from '../../test-support/fake-stripe-server';
import { IMPORT_SCRIPTS, importFootprint, importSuite, settleGrants } from '../../test-support/import-test-kit';
import { cookieFrom, operatorSession, signUp } from '../../test-support/test-app';
import { checkoutSessions, userSubscriptions } from '../../db/schema';

const OLD_LIFETIME_PRICE = 'price_lifetime_2024';
// Prices the catalogue published at Stripe (decision record 058): a plan added in the console, a
// new amount of a seed plan on a vendor's list, a one-time plan added in the console, and a plan
// since deleted; and a price of another product of the vendor's
const WEEKLY_PRICE = 'price_published_weekly';
const CLUB_MONTHLY_PRICE = 'price_published_club_monthly';
const FOREVER_PRICE = 'price_published_forever';
const GONE_PLAN_PRICE = 'price_published_gone';
const OTHER_PRODUCT_PRICE = 'price_ebook_club';
// the seed's /eu list's Monthly, as publishing makes it
const EU_MONTHLY_PRICE = 'price_published_eu_monthly';
const PUBLISHED_PRICES = {
  [WEEKLY_PRICE]: { amount: 1500, months: 0.25, product: 'cw_weekly', recurring: { interval: 'week', interval_count: 1 }, lookupKey: 'cw_default_weekly_1500_usd_1week_exclusive', metadata: { plan: 'weekly', list: '/' } },
  [CLUB_MONTHLY_PRICE]: { amount: 2500, months: 1, currency: 'gbp', product: 'cw_monthly', lookupKey: 'cw_club_monthly_2500_gbp_1month_exclusive', metadata: { plan: 'monthly', list: 'club' } },
  [FOREVER_PRICE]: { amount: 99900, months: null, product: 'cw_forever', lookupKey: 'cw_default_forever_99900_usd_once_exclusive', metadata: { plan: 'forever', list: '/' } },
  [GONE_PLAN_PRICE]: { amount: 900, months: 1, product: 'cw_gone', lookupKey: 'cw_default_gone_900_usd_1month_exclusive', metadata: { plan: 'gone', list: '/' } },
  [OTHER_PRODUCT_PRICE]: { amount: 500, months: 1, metadata: { plan: 'monthly' } },
  [EU_MONTHLY_PRICE]: { amount: 2999, months: 1, product: 'cw_euMonthly', lookupKey: 'cw_eu_euMonthly_2999_usd_1month_exclusive', metadata: { plan: 'euMonthly', list: 'eu' } },
};

describe('the import, case by case', () => {
  const bench = importSuite({ accounts: ['Ada_Charts', 'Bob_Trades', 'Cy_Pine', 'Dee_Waves'], prices: { [OLD_LIFETIME_PRICE]: { amount: 39900, months: null }, ...PUBLISHED_PRICES } });
  // a test adds plans to the process's catalogue: later suites of the worker get the seed's
  afterAll(() => setActiveCatalogue(null));
  const run = (source: 'stripe' | 'tradingview', options: { dryRun?: boolean; map?: UsernameMap } = {}) =>
    bench.t.services.imports.run(source, { dryRun: options.dryRun ?? false, map: options.map ?? new Map(), operator: 'command-line' });
  const lineOf = (lines: ImportReport['created'], subject: string) => lines.find((line) => line.subject === subject);

  it('imports lifetime payments by price and by metadata, and names what it leaves out and why', async () => {
    const { stripe, t } = bench;
    const byPrice = stripe.seedOneTimePayment({ email: 'life@example.com', priceId: TEST_PRICE_IDS.lifetime });
    const byMetadata = stripe.seedOneTimePayment({ email: 'old-life@example.com', priceId: OLD_LIFETIME_PRICE, metadata: { planType: 'lifetime' } });
    stripe.seedOneTimePayment({ email: 'other-product@example.com', priceId: OLD_LIFETIME_PRICE });
    stripe.seedSubscription({ email: 'gone@example.com', priceId: TEST_PRICE_IDS.monthly, status: 'canceled' });
    const incomplete = stripe.seedSubscription({ email: 'unpaid@example.com', priceId: TEST_PRICE_IDS.monthly, status: 'incomplete' });
    const first = stripe.seedSubscription({ email: 'twice@example.com', priceId: TEST_PRICE_IDS.monthly });
    const second = stripe.seedSubscription({ email: 'twice@example.com', priceId: TEST_PRICE_IDS.yearly });

    const report = await run('stripe');
    expect(report.error).toBeNull();
    expect(lineOf(report.created, 'life@example.com')?.detail).toBe('lifetime');
    expect(lineOf(report.created, 'old-life@example.com')?.detail).toBe('lifetime');
    expect(report.created.map((line) => line.subject)).not.toContain('other-product@example.com');
    expect(report.created.map((line) => line.subject)).not.toContain('gone@example.com');
    expect(report.conflicts).toEqual([
      { subject: 'unpaid@example.com', detail: `${incomplete} is incomplete: no access to import` },
      { subject: 'twice@example.com', detail: `${second} imported beside ${first}: two paid plans for one buyer; cancel one at the provider` },
    ]);
    const lifetimeRows = await t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.checkoutSessionId, byPrice));
    expect(lifetimeRows).toMatchObject([{ planType: 'lifetime', isActive: true, expiresAt: null, provider: 'stripe' }]);
    const [session] = await t.deps.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, byMetadata));
    expect(session).toMatchObject({ paymentStatus: 'paid', email: 'old-life@example.com' });
    const [metadataRow] = await t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.checkoutSessionId, byMetadata));
    expect(metadataRow?.userId).toBeTruthy();
    expect(session?.claimedByUserId).toBe(metadataRow?.userId);

    const again = await run('stripe');
    expect(again.created).toEqual([]);
    // the refused ones stay refused, and say so again
    expect(again.conflicts.map((line) => line.subject)).toEqual(['unpaid@example.com']);
  });

  it("mails each buyer a link that sets their password and signs them in; an existing account keeps its owner's", async () => {
    const { stripe, t } = bench;
    await signUp(t, 'had-account@example.com');
    stripe.seedSubscription({ email: 'had-account@example.com', priceId: TEST_PRICE_IDS.quarterly });
    stripe.seedSubscription({ email: 'fresh@example.com', priceId: TEST_PRICE_IDS.quarterly });
    const report = await run('stripe');
    expect(lineOf(report.created, 'had-account@example.com')?.detail).toMatch(/^quarterly until \d{4}-\d{2}-\d{2} \(existing account\)$/);
    await t.deps.mailer.runOnce();
    const mail = t.mails.find((sent) => sent.to === 'fresh@example.com');
    expect(mail?.subject).toBe('Your Candlewise access moved — set your password');
    const token = mail?.text.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    const reset = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Moved-Here-2026' } });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const cookie = cookieFrom(reset);
    const access = await t.request('/api/access', { cookie });
    expect(await access.json()).toMatchObject({ hasAccess: true });
    const signIn = await t.request('/api/auth/sign-in/email', { body: { email: 'fresh@example.com', password: 'Moved-Here-2026' } });
    expect(signIn.status).toBe(200);
    // the link works once
    expect((await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Again-Here-2026' } })).status).toBe(400);
  });

  it('a Stripe failure mid-import leaves a report of what was done; the same command continues', async () => {
    const { stripe } = bench;
    // the subscriptions Stripe lists before these (the earlier tests'): the first page of 100 holds them too
    const earlier = [...stripe.subscriptions.values()].filter((sub) => sub.status !== 'canceled').length;
    for (let index = 0; index < 120; index += 1) stripe.seedSubscription({ email: `paged-${index}@example.com`, priceId: TEST_PRICE_IDS.euQuarterly });
    const paged = (report: ImportReport) => report.created.filter((line) => line.subject.startsWith('paged-')).length;
    stripe.failWhen = (path, query) => path === '/v1/subscriptions' && query.has('starting_after');
    const cut = await run('stripe');
    expect(cut.error).toBeTruthy();
    expect(paged(cut)).toBe(100 - earlier);
    stripe.failWhen = null;
    const resumed = await run('stripe');
    expect(resumed.error).toBeNull();
    expect(paged(resumed)).toBe(20 + earlier);
    expect((await run('stripe')).created).toEqual([]);
  }, 180_000);

  it('adopts matched TradingView access, reports the rest, and continues after TradingView failed', async () => {
    const { stripe, tradingView, t } = bench;
    stripe.seedSubscription({ email: 'ada@example.com', priceId: TEST_PRICE_IDS.monthly });
    stripe.seedSubscription({ email: 'bob@example.com', priceId: TEST_PRICE_IDS.monthly });
    const map: UsernameMap = new Map([
      ['ada@example.com', 'Ada_Charts'],
      ['nobody@example.com', 'Cy_Pine'],
    ]);
    await run('stripe', { map });
    for (const scriptId of IMPORT_SCRIPTS) tradingView.access.set(scriptId, new Map([['Ada_Charts', null], ['Cy_Pine', null], ['Dee_Waves', '2030-01-01T00:00:00+00:00']]));
    const before = await importFootprint(t);

    // TradingView goes down after the first script's list was read and its access adopted
    tradingView.failWhen = (path, form) => path === '/pine_perm/list_users/' && form.pine_id === IMPORT_SCRIPTS[1];
    const cut = await run('tradingview', { map });
    expect(cut.error).toMatch(/503/);
    expect(cut.created.map((line) => line.subject)).toEqual([`Ada_Charts on ${IMPORT_SCRIPTS[0]}`]);
    expect((await importFootprint(t)).imported).toBe(before.imported + 1);
    tradingView.failWhen = null;

    const report = await run('tradingview', { map });
    expect(report.error).toBeNull();
    expect(report.unchanged).toBe(1);
    expect(report.created.map((line) => line.subject)).toEqual([`Ada_Charts on ${IMPORT_SCRIPTS[1]}`]);
    expect(report.unmatched).toEqual(
      IMPORT_SCRIPTS.flatMap((scriptId) => [
        { subject: `Cy_Pine on ${scriptId}`, detail: 'no expiry; the map names nobody@example.com, who is not a member (import from Stripe first): left alone' },
        { subject: `Dee_Waves on ${scriptId}`, detail: 'until 2030-01-01; no member uses this username: left alone' },
      ]),
    );
    await settleGrants(t);
    for (const scriptId of IMPORT_SCRIPTS) {
      expect(tradingView.access.get(scriptId)?.get('Ada_Charts')).not.toBeNull();
      expect(tradingView.access.get(scriptId)?.get('Cy_Pine')).toBeNull();
      expect(tradingView.access.get(scriptId)?.get('Dee_Waves')).toBe('2030-01-01T00:00:00+00:00');
    }
    expect((await run('tradingview', { map })).created).toEqual([]);
  });

  it('a dry run changes nothing', async () => {
    const { stripe, t } = bench;
    stripe.seedSubscription({ email: 'dry@example.com', priceId: TEST_PRICE_IDS.yearly });
    const before = await importFootprint(t);
    const report = await run('stripe', { dryRun: true, map: new Map([['dry@example.com', 'Bob_Trades']]) });
    expect(lineOf(report.created, 'dry@example.com')).toBeTruthy();
    expect(report.matched).toContainEqual({ subject: 'dry@example.com', detail: 'TradingView Bob_Trades (from the map)' });
    expect(await importFootprint(t)).toEqual(before);
  });

  it("shows operators the runs with their reports and the imported members, and no one else", async () => {
    const { t } = bench;
    const member = await signUp(t, 'curious-member@example.com');
    expect((await t.request('/api/admin/imports', { cookie: member })).status).toBe(403);
    const { cookie } = await operatorSession(t, 'ops@example.com');
    const response = await t.request('/api/admin/imports', { cookie });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { runs: { source: string; dryRun: boolean; report: ImportReport }[]; members: { email: string; source: string }[] };
    expect(body.runs[0]).toMatchObject({ source: 'stripe', dryRun: true, report: { error: null } });
    expect(body.runs.some((run) => run.report.error !== null)).toBe(true);
    expect(body.members).toContainEqual(expect.objectContaining({ email: 'fresh@example.com', source: 'stripe' }));
    expect(body.members).toContainEqual(expect.objectContaining({ email: 'ada@example.com', source: 'tradingview' }));
  });

  // #43: the import listed the configured STRIPE_PRICE_* ids only, so members of a plan added in the console were left behind
  it("imports the members of the catalogue's published Prices on their plan: a plan added in the console, a vendor list's price, a one-time plan", async () => {
    const { stripe, t } = bench;
    const { cookie } = await operatorSession(t, 'catalogue-ops@example.com');
    for (const plan of [
      { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } },
      { slug: 'forever', name: 'Forever', price: 99900, period: null },
    ]) {
      const added = await t.request('/api/admin/catalogue/plans', { body: plan, cookie });
      expect(added.status, await added.clone().text()).toBe(201);
    }
    const weekly = stripe.seedSubscription({ email: 'weekly-member@example.com', priceId: WEEKLY_PRICE });
    const club = stripe.seedSubscription({ email: 'club-member@example.com', priceId: CLUB_MONTHLY_PRICE });
    const forever = stripe.seedOneTimePayment({ email: 'forever-member@example.com', priceId: FOREVER_PRICE });
    const gone = stripe.seedSubscription({ email: 'gone-plan@example.com', priceId: GONE_PLAN_PRICE });
    stripe.seedSubscription({ email: 'ebook-reader@example.com', priceId: OTHER_PRODUCT_PRICE });

    const report = await run('stripe');
    expect(report.error).toBeNull();
    expect(lineOf(report.created, 'weekly-member@example.com')?.detail).toMatch(/^weekly until \d{4}-\d{2}-\d{2}$/);
    expect(lineOf(report.created, 'club-member@example.com')?.detail).toMatch(/^monthly until \d{4}-\d{2}-\d{2}$/);
    expect(lineOf(report.created, 'forever-member@example.com')?.detail).toBe('forever');
    const rows = async (key: { subscription: string } | { session: string }) =>
      t.deps.database.db.select().from(userSubscriptions).where('subscription' in key ? eq(userSubscriptions.providerSubscriptionId, key.subscription) : eq(userSubscriptions.checkoutSessionId, key.session));
    expect(await rows({ subscription: weekly })).toMatchObject([{ planType: 'weekly', isActive: true, provider: 'stripe' }]);
    expect(await rows({ subscription: club })).toMatchObject([{ planType: 'monthly', isActive: true }]);
    expect(await rows({ session: forever })).toMatchObject([{ planType: 'forever', isActive: true, expiresAt: null }]);
    // a Price the catalogue published for a plan this shop no longer has: named, not imported; another product of the vendor's: not the shop's
    expect(report.conflicts).toContainEqual({ subject: 'gone-plan@example.com', detail: `${gone} is on a price that is none of the shop's plans: not imported` });
    expect([...report.created, ...report.conflicts].map((line) => line.subject)).not.toContain('ebook-reader@example.com');
    expect((await run('stripe')).created).toEqual([]);
  });

  // #43: with no checkout here to name their page, an imported member's plan-change card showed the default page in dollars
  it("an imported member's view names the list their Price names and the currency it bills in: the plan-change card shows that list's plans", async () => {
    const { stripe, t } = bench;
    const { cookie } = await operatorSession(t, 'lists-ops@example.com');
    const list = await t.request('/api/admin/catalogue/price-lists', { body: { slug: 'club', currency: 'gbp', header: null, entries: [{ plan: 'monthly', price: 2500 }, { plan: 'quarterly', price: 6600 }] }, cookie });
    expect(list.status, await list.clone().text()).toBeLessThan(300);
    const clubMember = await signUp(t, 'club-import@example.com');
    const euMember = await signUp(t, 'eu-import@example.com');
    stripe.seedSubscription({ email: 'club-import@example.com', priceId: CLUB_MONTHLY_PRICE });
    stripe.seedSubscription({ email: 'eu-import@example.com', priceId: EU_MONTHLY_PRICE });
    expect((await run('stripe')).error).toBeNull();

    const view = async (member: string) => subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: member })).json());
    const settings = (await (await t.request('/api/site')).json()) as SiteSettings;
    const club = await view(clubMember);
    expect(club).toMatchObject({ planType: 'monthly', boughtOn: { list: 'club', currency: 'gbp' } });
    const clubPage = planChangePage(settings.catalogue!, club);
    expect(clubPage).toBe('/club');
    expect(landingCards(settings, clubPage, false).map((card) => `${card.name} ${card.price}${card.period}`)).toEqual(['Monthly £25/month', 'Quarterly £22/month']);

    const eu = await view(euMember);
    expect(eu).toMatchObject({ planType: 'euMonthly', boughtOn: { list: 'eu', currency: 'usd' } });
    const euPage = planChangePage(settings.catalogue!, eu);
    expect(euPage).toBe('/eu');
    // the EU page's cards (the spec's): Monthly $29.99, Quarterly $59.99, Lifetime $549.99
    expect(landingCards(settings, euPage, false).map((card) => `${card.name} ${card.price}`)).toEqual(['Monthly $29.99', 'Quarterly $59.99', 'Lifetime $549.99']);
  });
});
