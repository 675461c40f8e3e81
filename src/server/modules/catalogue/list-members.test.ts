// The members of a vendor's own price list in the sandbox (decision record 058): a plan change
// charges the plan's price on the list they bought on, in its currency, and is refused for a plan
// no list sells in that currency; their subscription view names that list, whose cards the
// settings' plan-change card shows.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { subscriptionViewDtoSchema } from '@shared/api-contract';
import { landingCards } from '@shared/campaign';
import { setActiveCatalogue } from '@shared/catalogue';
import { planChangePage } from '@shared/catalogue-publishing';
import type { SiteSettings } from '@shared/site';
import { sandboxInvoices, sandboxSubscriptions } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { buy, rowsOfSession, signUp, userIdOf } from '../../test-support/billing-test-kit';
import { claimCheckoutSession } from '../fulfilment/fulfilment';

// the plans' rules read the process's catalogue, which this file edits: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

let suite: ConsoleSuite;
// the seed's sale over: the default page sells at its regular prices
consoleSuite((value) => (suite = value), { SALE_ENDS_AT: '2025-11-26T23:59:59Z' });
let counter = 0;
const db = () => suite.t.deps.database.db;

async function admin(method: string, path: string, body?: unknown) {
  const response = await suite.t.request(`/api/admin${path}`, { method, body, cookie: suite.operator });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

/** A member who bought `plan` on the page `originPage`, signed in. */
async function member(plan: string, originPage: string) {
  const address = `list-member-${++counter}@example.com`;
  const cookie = await signUp(suite.t, address);
  const sessionId = await buy(suite.t, address, { planType: plan, originPage }, cookie);
  await claimCheckoutSession(suite.t.services.entitlements, sessionId, await userIdOf(suite.t, cookie));
  const [row] = await rowsOfSession(suite.t, sessionId);
  return { address, cookie, subscriptionId: row!.providerSubscriptionId! };
}

const subscription = async (id: string) => (await db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)))[0]!;

describe("a plan change of a member who bought on a vendor's list", () => {
  it("charges the plan's price on that list, in its currency; a plan no list sells in it is refused with the reason", async () => {
    await admin('POST', '/catalogue/price-lists', { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'quarterly', price: 6000 }] });
    const buyer = await member('monthly', '/partners');
    expect(await subscription(buyer.subscriptionId)).toMatchObject({ unitAmount: 2900, currency: 'eur', metadata: { price_list: 'partners' } });

    const preview = await suite.t.request('/api/preview-upgrade-cost', { body: { planType: 'quarterly' }, cookie: buyer.cookie });
    expect(preview.status, await preview.clone().text()).toBe(200);
    expect(await preview.json()).toMatchObject({ currentPlan: 'monthly', newPlan: 'quarterly', newPlanCharge: 6000, currency: 'eur' });

    const changed = await suite.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie: buyer.cookie });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await subscription(buyer.subscriptionId)).toMatchObject({ planType: 'quarterly', unitAmount: 6000, currency: 'eur', metadata: { price_list: 'partners' } });
    const [change] = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.billingReason, 'subscription_update'));
    expect(change).toMatchObject({ subscriptionId: buyer.subscriptionId, currency: 'eur' });
    expect(change!.lines.find((line) => !line.proration)?.amount).toBe(6000);

    // Yearly is sold on / only, in US dollars: a subscription billed in euros cannot change to it
    const refused = await suite.t.request('/api/preview-upgrade-cost', { body: { planType: 'yearly' }, cookie: buyer.cookie });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { message: 'Yearly is not sold in EUR, the currency your plan is billed in.' } });
    expect((await suite.t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie: buyer.cookie })).status).toBe(400);
    expect(await subscription(buyer.subscriptionId)).toMatchObject({ planType: 'quarterly', unitAmount: 6000 });
  });

  it("a member of the default page changes at the default page's price, as before", async () => {
    const buyer = await member('monthly', '/');
    expect(await subscription(buyer.subscriptionId)).toMatchObject({ unitAmount: 4700, currency: 'usd', metadata: { price_list: '/' } });
    const changed = await suite.t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie: buyer.cookie });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await subscription(buyer.subscriptionId)).toMatchObject({ planType: 'yearly', unitAmount: 56400, currency: 'usd', metadata: { price_list: '/' } });
  });

  // #43: the card showed the default page's plans in dollars to a member a change charges in euros on their list
  it("the member's view names the list and currency they bought on, before and after a change: the card shows that list's plans at what a change charges", async () => {
    await admin('POST', '/catalogue/price-lists', { slug: 'club', currency: 'gbp', header: null, entries: [{ plan: 'monthly', price: 2500 }, { plan: 'quarterly', price: 6600 }] });
    const buyer = await member('monthly', '/club');
    const view = async () => subscriptionViewDtoSchema.parse(await (await suite.t.request('/api/subscription', { cookie: buyer.cookie })).json());
    expect(await view()).toMatchObject({ planType: 'monthly', boughtOn: { list: 'club', currency: 'gbp' } });

    const settings = (await (await suite.t.request('/api/site')).json()) as SiteSettings;
    const page = planChangePage(settings.catalogue!, { planType: 'monthly', boughtOn: (await view()).boughtOn });
    expect(page).toBe('/club');
    const cards = landingCards(settings, page, false);
    expect(cards.map((card) => `${card.name} ${card.price}${card.period}`)).toEqual(['Monthly £25/month', 'Quarterly £22/month']);
    const preview = await suite.t.request('/api/preview-upgrade-cost', { body: { planType: 'quarterly' }, cookie: buyer.cookie });
    expect(await preview.json()).toMatchObject({ newPlanCharge: 6600, currency: 'gbp' });

    expect((await suite.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie: buyer.cookie })).status).toBe(200);
    // the change unlinked the checkout's order: the list and currency still come from where it was bought
    expect(await view()).toMatchObject({ planType: 'quarterly', boughtOn: { list: 'club', currency: 'gbp' } });
  });

  it("a default page member's view names the default list in dollars", async () => {
    const buyer = await member('monthly', '/');
    const view = subscriptionViewDtoSchema.parse(await (await suite.t.request('/api/subscription', { cookie: buyer.cookie })).json());
    expect(view.boughtOn).toEqual({ list: '/', currency: 'usd' });
  });
});
