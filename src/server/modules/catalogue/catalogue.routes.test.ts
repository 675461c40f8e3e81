// The console's catalogue: every edit through the API, audited, checked by the same rules as the
// command line (a 400 with the reason, nothing saved), seen at once by the site settings.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { landingCards } from '@shared/campaign';
import { setActiveCatalogue } from '@shared/catalogue';
import type { CatalogueResponse } from '@shared/catalogue-contract';
import type { SiteSettings } from '@shared/site';
import { operatorAuditLog } from '../../db/schema';
import { consoleSuite, OPERATOR_EMAIL, type ConsoleSuite } from '../../test-support/admin-test-kit';
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

async function cards(page: '/' | '/eu') {
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
