// "Move existing members at their next renewal" in the sandbox, through the console's API: the
// issue's done-when (a member who bought Monthly at $47 renews at $47 after the price became $40,
// then at $40 once moved), one mail each, audited, idempotent, and bad input refused with a 400.
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { setActiveCatalogue } from '@shared/catalogue';
import type { MoveMembersResponse } from '@shared/catalogue-contract';
import { sandboxPortalSchema } from '@shared/sandbox-contract';
import { operatorAuditLog, outbox } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { buy, jobsOf, sandboxOf, ordersOfSession, rowsOfSession, signUp, userIdOf } from '../../test-support/billing-test-kit';
import { claimCheckoutSession } from '../fulfilment/fulfilment';
import { catalogueVersion } from './catalogue.repository';

// the plans' rules read the process's catalogue, which this file edits: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

let suite: ConsoleSuite;
// the seed's sale over: Monthly sells at its regular $47
consoleSuite((value) => (suite = value), { SALE_ENDS_AT: '2025-11-26T23:59:59Z' });
let counter = 0;

async function call(method: string, path: string, body?: unknown) {
  const response = await suite.t.request(`/api/admin${path}`, { method, body, cookie: suite.operator });
  return { status: response.status, body: (await response.json()) as MoveMembersResponse & { error?: { message: string } } };
}

const move = (plan: string, list?: string) => call('POST', `/catalogue/plans/${plan}/move-members`, list === undefined ? {} : { list });

async function member(plan: string, originPage = '/') {
  const address = `mover-${++counter}@example.com`;
  const cookie = await signUp(suite.t, address);
  const sessionId = await buy(suite.t, address, { planType: plan, originPage }, cookie);
  await claimCheckoutSession(suite.t.services.entitlements, sessionId, await userIdOf(suite.t, cookie));
  const [order] = await ordersOfSession(suite.t, sessionId);
  const [row] = await rowsOfSession(suite.t, sessionId);
  return { address, charged: order?.amount, customerId: row!.providerCustomerId!, subscriptionId: row!.providerSubscriptionId! };
}

async function invoicesOf(customerId: string) {
  const portal = sandboxPortalSchema.parse(await (await suite.t.request(`/api/sandbox/portal/${customerId}`)).json());
  return portal.invoices.map((invoice) => invoice.amountDue).reverse();
}

/** The sandbox portal's "advance to period end" for each (the operator's session would not outlast a month of the clock). */
async function renew(...members: { customerId: string; subscriptionId: string }[]) {
  for (const each of members) await sandboxOf(suite.t).sandbox.advanceToPeriodEnd(each.customerId, each.subscriptionId);
  await jobsOf(suite.t).runOnce();
}

const db = () => suite.t.deps.database.db;
const mailsTo = (address: string) => db().select().from(outbox).where(and(eq(outbox.to, address), eq(outbox.template, 'price_moved')));

describe('moving the members who pay an older price at their next renewal (sandbox)', () => {
  let before: Awaited<ReturnType<typeof member>>;

  it('refuses a plan whose price never changed, an unknown plan and a one-time plan, changing nothing', async () => {
    before = await member('monthly');
    expect(before.charged).toBe(4700);
    expect(await move('monthly')).toMatchObject({ status: 400, body: { error: { message: "monthly's price on / never changed: every member pays the current one." } } });
    expect(await move('nope')).toMatchObject({ status: 400, body: { error: { message: 'Unknown plan "nope".' } } });
    expect(await move('lifetime', 'eu')).toMatchObject({ status: 400, body: { error: { message: 'lifetime is a one-time plan: nothing renews, so there is no price to move.' } } });
    expect(await move('monthly', 'de')).toMatchObject({ status: 400, body: { error: { message: 'Unknown price list "de" (lists: /, eu).' } } });
    expect(await mailsTo(before.address)).toEqual([]);
    expect(await catalogueVersion(db())).toBe(0);
  });

  it('after set-price 4000 the member renews at $47 until moved, then at $40, with one mail and an audit entry', async () => {
    expect((await call('PUT', '/catalogue/plans/monthly/price', { price: 4000 })).status).toBe(200);
    const newBuyer = await member('monthly');
    expect(newBuyer.charged).toBe(4000);
    await renew(before, newBuyer);
    expect(await invoicesOf(before.customerId)).toEqual([4700, 4700]);

    const moved = await move('monthly');
    expect(moved.status).toBe(200);
    // the new buyer already pays $40: not moved, not mailed
    expect(moved.body).toMatchObject({ plan: 'monthly', list: '/', amount: 4000, currency: 'usd', alreadyMoved: 0 });
    expect(moved.body.moved).toEqual([{ email: before.address, from: 4700, renewsAt: expect.any(String) }]);
    // nothing is charged now: no proration invoice
    expect(await invoicesOf(before.customerId)).toEqual([4700, 4700]);

    const [mail, ...more] = await mailsTo(before.address);
    expect(more).toEqual([]);
    expect(mail!.data).toEqual({ planType: 'monthly', amount: 4000, currency: 'usd', from: moved.body.moved[0]!.renewsAt });
    expect(await mailsTo(newBuyer.address)).toEqual([]);
    const audit = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'catalogue_move_member_price'));
    expect(audit.map((entry) => entry.details)).toEqual([expect.objectContaining({ plan: 'monthly', list: '/', subscriptionId: before.subscriptionId, from: 4700, to: 4000 })]);

    await renew(before, newBuyer);
    expect(await invoicesOf(before.customerId)).toEqual([4700, 4700, 4000]);
    expect(await invoicesOf(newBuyer.customerId)).toEqual([4000, 4000, 4000]);
  });

  it('running it again moves nobody twice and mails once', async () => {
    const again = await move('monthly');
    expect(again).toMatchObject({ status: 200, body: { moved: [], alreadyMoved: 0 } });
    expect(await mailsTo(before.address)).toHaveLength(1);
    expect(await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'catalogue_move_member_price'))).toHaveLength(1);
  });

  it('a second run before the renewal counts the member as already moved', async () => {
    const quarterly = await member('quarterly');
    expect((await call('PUT', '/catalogue/plans/quarterly/price', { price: 12000 })).status).toBe(200);
    expect((await move('quarterly')).body.moved.map((each) => each.email)).toEqual([quarterly.address]);
    expect(await move('quarterly')).toMatchObject({ status: 200, body: { moved: [], alreadyMoved: 1 } });
    expect(await mailsTo(quarterly.address)).toHaveLength(1);
  });

  it('refuses an archived plan', async () => {
    expect((await call('POST', '/catalogue/plans/quarterly/archive')).status).toBe(200);
    expect(await move('quarterly')).toMatchObject({ status: 400, body: { error: { message: 'quarterly is archived: its members keep their price, there is no current one to move them to.' } } });
  });
});

describe('a move picks the members who bought the plan on its list', () => {
  it("moves a vendor list's members to its new price, never the default page's members of the plan, in the same currency", async () => {
    expect((await call('POST', '/catalogue/price-lists', { slug: 'vip', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 3000 }] })).status).toBe(201);
    const home = await member('monthly');
    const vip = await member('monthly', '/vip');
    expect([home.charged, vip.charged]).toEqual([4000, 3000]);
    expect((await call('PUT', '/catalogue/plans/monthly/price', { price: 2500, list: 'vip' })).status).toBe(200);

    // the default page's members pay $40 or $47, not $25: still not vip's to move
    const moved = await move('monthly', 'vip');
    expect(moved).toMatchObject({ status: 200, body: { plan: 'monthly', list: 'vip', amount: 2500, alreadyMoved: 0 } });
    expect(moved.body.moved.map((each) => each.email)).toEqual([vip.address]);
    expect(await mailsTo(home.address)).toEqual([]);
    await renew(home, vip);
    expect(await invoicesOf(home.customerId)).toEqual([4000, 4000]);
    expect(await invoicesOf(vip.customerId)).toEqual([3000, 2500]);
  });
});
