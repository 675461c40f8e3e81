// The console's catalogue: every edit through the API, audited, checked by the same rules as the
// command line (a 400 with the reason, nothing saved), seen at once by the site settings.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { landingCards } from '@shared/campaign';
import { setActiveCatalogue } from '@shared/catalogue';
import { publishResponseSchema, type CatalogueResponse } from '@shared/catalogue-contract';
import type { SiteSettings } from '@shared/site';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../app';
import { oneTimePlans, operatorAuditLog, sandboxCheckoutSessions } from '../../db/schema';
import { consoleSuite, OPERATOR_EMAIL, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { checkoutBody } from '../../test-support/billing-test-kit';
import { catalogueVersion } from './catalogue.repository';
import { CATALOGUE_ADMIN_ROUTES } from './catalogue.routes';

// the plans' rules read the process's catalogue, which this file edits: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));

async function call(method: string, path: string, body?: unknown) {
  const response = await suite.t.request(`/api/admin${path}`, { method, body, cookie: suite.operator });
  return { status: response.status, body: (await response.json()) as CatalogueResponse & { error?: { message: string } } };
}

async function cards(page: string) {
  const settings = (await (await suite.t.request('/api/site')).json()) as SiteSettings;
  return landingCards(settings, page, settings.saleEndsAt === null || Date.parse(settings.saleEndsAt) > Date.now());
}

describe('the console catalogue', () => {
  it("reads the seed's catalogue before any edit", async () => {
    const { status, body } = await call('GET', '/catalogue');
    expect(status).toBe(200);
    expect(body.version).toBe(0);
    expect(body.catalogue.plans.map((plan) => plan.slug)).toEqual(['monthly', 'quarterly', 'yearly', 'lifetime', 'euMonthly', 'euQuarterly']);
    expect(body.catalogue.priceLists.map((list) => list.slug)).toEqual(['/', 'eu']);
  });

  it('adds a plan, renames a card, sets a price: each audited and on the cards at once', async () => {
    const added = await call('POST', '/catalogue/plans', { slug: 'biweekly', name: 'Two weeks', price: 2500, period: { unit: 'week', count: 2 } });
    expect(added.status).toBe(201);
    expect((await cards('/')).map((card) => `${card.name} ${card.price}${card.period}`)).toContain('Two weeks $25per 2 weeks');

    const renamed = await call('PUT', '/catalogue/plans/monthly', { name: 'Monthly Pro', badge: 'Best start', popular: true });
    expect(renamed.status).toBe(200);
    const monthly = (await cards('/')).find((card) => card.planType === 'monthly')!;
    expect(monthly).toMatchObject({ name: 'Monthly Pro', isPopular: true, savings: 'Best start' });

    expect((await call('PUT', '/catalogue/plans/quarterly/price', { price: 12000 })).status).toBe(200);
    const actions = await suite.t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.operatorEmail, OPERATOR_EMAIL));
    expect(actions.map((action) => action.action)).toEqual(expect.arrayContaining(['catalogue_add_plan', 'catalogue_update_plan', 'catalogue_set_price']));
  });

  it.each([
    ['POST', '/catalogue/plans', { slug: 'daily', name: 'Daily', price: 0, period: { unit: 'day', count: 1 } }, 'A price must be more than 0.'],
    ['POST', '/catalogue/plans', { slug: 'daily', name: 'Daily', price: 100, period: { unit: 'decade', count: 1 } }, 'Unknown period unit "decade": use day, week, month or year.'],
    ['POST', '/catalogue/plans', { slug: 'daily', name: 'Daily', price: 100, period: { unit: 'day', count: 0 } }, 'The period count must be a whole number of at least 1.'],
    ['POST', '/catalogue/plans', { slug: 'monthly', name: 'Again', price: 100, period: null }, 'A plan "monthly" exists already.'],
    ['PUT', '/catalogue/plans/monthly/price', { price: 100_000_001 }, 'A price may be at most 1,000,000.00.'],
    ['PUT', '/catalogue/sales/cyber', { label: 'Cyber Monday', startsAt: '2030-12-02T00:00:00Z', endsAt: '2030-12-01T00:00:00Z', countdown: true, list: '/', prices: [] }, 'Sale Cyber Monday ends before it starts.'],
    ['PUT', '/catalogue/sales/cyber', { label: 'Cyber Monday', startsAt: null, endsAt: '2030-12-01T00:00:00Z', countdown: true, list: '/', prices: [] }, expect.stringContaining('overlap on /')],
  ])('%s %s refused: 400 with the reason, nothing saved', async (method, path, body, reason) => {
    const before = await catalogueVersion(suite.t.deps.database.db);
    const { status, body: answer } = await call(method, path, body);
    expect(status).toBe(400);
    expect(answer.error?.message).toEqual(reason);
    expect(await catalogueVersion(suite.t.deps.database.db)).toBe(before);
  });

  it('is refused to members (403) and to visitors (401), every console route', async () => {
    for (const route of CATALOGUE_ADMIN_ROUTES) {
      const path = `/api/admin${route.path.replace(':slug', 'monthly').replace(':id', 'seed')}`;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      expect((await suite.t.request(path, { method: route.method, body, cookie: suite.member })).status, path).toBe(403);
      expect((await suite.t.request(path, { method: route.method, body })).status, path).toBe(401);
    }
  });
});

describe("a vendor's price list at /{slug}", () => {
  it('is added in the console, audited, served at /{slug} (200) while other addresses stay 404, and sells its plans in its currency', async () => {
    const added = await call('POST', '/catalogue/price-lists', { slug: 'partners', currency: 'EUR', header: 'Partner prices, this month only', entries: [{ plan: 'monthly', price: 2900 }, { plan: 'lifetime', price: 49900 }] });
    expect(added.status).toBe(201);
    expect(added.body.catalogue.priceLists.find((list) => list.slug === 'partners')).toEqual({ slug: 'partners', currency: 'eur', header: 'Partner prices, this month only', countdown: false, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'lifetime', price: 49900 }] });
    expect((await cards('/partners')).map((card) => `${card.name} ${card.price}`)).toEqual(['Monthly Pro €29', 'Lifetime €499']);

    const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-lists-'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
    try {
      const app = await createApp({ deps: suite.t.deps, services: suite.t.services, jobs: suite.t.jobs }, { clientDir });
      for (const path of ['/partners', '/partners/', '/', '/eu']) expect((await app.request(path)).status, path).toBe(200);
      for (const path of ['/partner', '/partners/more', '/pricing']) expect((await app.request(path)).status, path).toBe(404);
    } finally {
      rmSync(clientDir, { recursive: true, force: true });
    }

    // a checkout from its page charges the list's price in its currency; from / the default page's
    const checkout = async (originPage: string) => {
      const response = await suite.t.request('/api/create-checkout', { method: 'POST', body: checkoutBody({ planType: 'monthly', originPage, customerEmail: `buyer-${originPage.length}@example.com` }) });
      expect(response.status, `${originPage} ${await response.clone().text()}`).toBe(200);
      const { sessionId } = (await response.json()) as { sessionId: string };
      const [session] = await suite.t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
      return { amount: session!.unitAmount, currency: session!.currency };
    };
    expect(await checkout('/partners')).toEqual({ amount: 2900, currency: 'eur' });
    expect((await checkout('/')).currency).toBe('usd');

    const changed = await call('PUT', '/catalogue/price-lists/partners', { currency: 'gbp', header: null, entries: [{ plan: 'quarterly', price: 6000 }] });
    expect(changed.status).toBe(200);
    expect((await cards('/partners')).map((card) => `${card.name} ${card.price}${card.period}`)).toEqual(['Quarterly £20/month']);
    const actions = await suite.t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.operatorEmail, OPERATOR_EMAIL));
    expect(actions.map((action) => action.action)).toEqual(expect.arrayContaining(['catalogue_add_price_list', 'catalogue_update_price_list']));
  });

  it('is served pre-rendered like / and /eu, its page rendered by the client build; a list added later too, without a restart', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-prerendered-lists-'));
    const template = '<!doctype html><html><head><title>x</title></head><body><div id="root"><!--page--></div></body></html>';
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
    writeFileSync(join(clientDir, 'landing.html'), template);
    writeFileSync(join(clientDir, 'legal.html'), template);
    mkdirSync(join(clientDir, 'ssr'));
    // the client build's renderer (src/client/prerender.tsx), reduced to the page and the lists it was given
    writeFileSync(
      join(clientDir, 'ssr', 'prerender.js'),
      'export const renderLanding = (settings, page) => `<main data-page="${page}">${settings.catalogue.priceLists.map((list) => list.slug).join(" ")}</main>`;\nexport const renderLegal = () => "<main>legal</main>";\n',
    );
    try {
      const app = await createApp({ deps: suite.t.deps, services: suite.t.services, jobs: suite.t.jobs }, { clientDir });
      const partners = await app.request('/partners');
      expect(partners.status).toBe(200);
      expect(await partners.text()).toContain('<main data-page="/partners">/ eu partners</main>');
      expect(await (await app.request('/partners/')).text()).toContain('<main data-page="/partners">');

      expect((await call('POST', '/catalogue/price-lists', { slug: 'club', currency: 'usd', header: 'Members of the club', entries: [{ plan: 'monthly', price: 2500 }] })).status).toBe(201);
      const club = await app.request('/club');
      expect(club.status).toBe(200);
      expect(await club.text()).toContain('<main data-page="/club">/ eu partners club</main>');
      // a member (a session cookie) gets the app, which asks who they are
      const member = await app.request('/club', { headers: { cookie: 'candlewise.session_token=x' } });
      expect(await member.text()).not.toContain('data-page');
    } finally {
      rmSync(clientDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['POST', '/catalogue/price-lists', { slug: 'admin', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, '/admin is a page of the shop already: choose another address.'],
    ['POST', '/catalogue/price-lists', { slug: 'Partners2', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, 'A price list\'s address is lower-case: use "partners2".'],
    ['POST', '/catalogue/price-lists', { slug: 'x', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, "A price list's address is 2 to 40 characters long; \"x\" has 1."],
    ['POST', '/catalogue/price-lists', { slug: 'eu', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, 'A price list at /eu exists already.'],
    ['POST', '/catalogue/price-lists', { slug: 'friends', currency: 'xyz', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, 'XYZ is not a currency we know: use its three-letter ISO code, e.g. USD or EUR.'],
    ['POST', '/catalogue/price-lists', { slug: 'friends', currency: 'usd', header: null, entries: [] }, 'A price list sells at least one plan.'],
    ['PUT', '/catalogue/price-lists/default', { currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, "The default page charges in the shop's currency, USD."],
    ['PUT', '/catalogue/price-lists/nowhere', { currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, 'Unknown price list "nowhere".'],
  ])('%s %s refused: 400 with the reason, nothing saved', async (method, path, body, reason) => {
    const before = await catalogueVersion(suite.t.deps.database.db);
    const { status, body: answer } = await call(method, path, body);
    expect(status).toBe(400);
    expect(answer.error?.message).toEqual(reason);
    expect(await catalogueVersion(suite.t.deps.database.db)).toBe(before);
  });
});

describe('"Publish to Stripe" with payments in the sandbox', () => {
  it('sends nothing, answers the prices the sandbox charges from the catalogue, and is audited', async () => {
    const response = await suite.t.request('/api/admin/catalogue/publish', { method: 'POST', body: {}, cookie: suite.operator });
    expect(response.status).toBe(200);
    const answer = publishResponseSchema.parse(await response.json());
    expect(answer.mode).toBe('sandbox');
    expect(answer.prices.every((price) => price.id === null && price.how === 'sandbox')).toBe(true);
    expect(answer.prices.map((price) => `${price.plan}@${price.list} ${price.amount} ${price.currency}`)).toEqual(expect.arrayContaining(['quarterly@/ 12000 usd', 'euMonthly@eu 2999 usd', 'quarterly@partners 6000 gbp']));
    const [entry] = await suite.t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'catalogue_publish'));
    expect(entry).toMatchObject({ operatorEmail: OPERATOR_EMAIL, details: { mode: 'sandbox', prices: answer.prices.length, created: 0, adopted: 0 } });
  });
});

describe("a plan's own trial days", () => {
  it('are set in the console and given by a checkout of that plan (TRIAL_DAYS is off here); 0 takes the trial away', async () => {
    const trialOf = async (planType: string, email: string) => {
      const response = await suite.t.request('/api/create-checkout', { method: 'POST', body: checkoutBody({ planType, originPage: '/', customerEmail: email }) });
      expect(response.status).toBe(200);
      const { sessionId } = (await response.json()) as { sessionId: string };
      const [session] = await suite.t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
      return session!.trialPeriodDays;
    };
    expect(await trialOf('yearly', 'trial-before@example.com')).toBeNull();
    expect((await call('PUT', '/catalogue/plans/yearly', { trialDays: 10 })).status).toBe(200);
    expect(await trialOf('yearly', 'trial-after@example.com')).toBe(10);
    expect((await call('PUT', '/catalogue/plans/yearly', { trialDays: 0 })).status).toBe(200);
    expect(await trialOf('yearly', 'trial-off@example.com')).toBeNull();
    const refused = await call('PUT', '/catalogue/plans/lifetime', { trialDays: 7 });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe('Lifetime is a one-time purchase: it has no free trial.');
  });
});

describe('a one-time plan added in the console', () => {
  it("is one of the SQL access rules' one-time plans (migration 0040) beside the seed's lifetime", async () => {
    expect((await call('POST', '/catalogue/plans', { slug: 'founder', name: 'Founder', price: 99900, period: null })).status).toBe(201);
    const slugs = (await suite.t.deps.database.db.select().from(oneTimePlans)).map((row) => row.slug);
    expect(slugs).toEqual(expect.arrayContaining(['lifetime', 'founder']));
    expect(slugs).not.toContain('monthly');
  });
});
