// The affiliate program end to end in the sandbox: joining, the link's click and cookie, the
// commission of a referred purchase from what was paid, the refund and disputes that take it back
// (or give it back), renewals under the terms, a promotion code bound to an affiliate winning over
// the cookie, the fraud rules, the payout run with its clawback, and the bad input of the issue.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AffiliateList, AffiliateSummary, MarkPaidResponse, ProgramResponse } from '@shared/affiliates-contract';
import { affiliateCommissions, affiliatePayouts, operatorAuditLog, orders, outbox } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { CARDS, checkoutRow, DAY_MS, jobsOf, payOnPage, sandboxOf, signUp, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import { cookieFrom, TEST_ORIGIN } from '../../test-support/test-app';
import { listOutboxMails } from '../mail/outbox.repository';
import { settlePayout } from './affiliates.repository';
import { AFFILIATE_ADMIN_ROUTES } from './affiliates.routes';

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));
let emails = 0;
const email = (name: string) => `${name}-${++emails}@example.com`;
const db = () => suite.t.deps.database.db;

const flush = async () => {
  for (let pass = 0; pass < 5 && (await undeliveredEvents(suite.t)).length > 0; pass += 1) await jobsOf(suite.t).runOnce();
};

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

async function affiliate(name: string): Promise<{ cookie: string; email: string; summary: AffiliateSummary }> {
  const address = email(name);
  const cookie = await signUp(suite.t, address);
  const summary = await json<AffiliateSummary>(await suite.t.request('/api/affiliate/join', { method: 'POST', cookie }), 201);
  return { cookie, email: address, summary };
}

const summaryOf = async (cookie: string) => json<AffiliateSummary>(await suite.t.request('/api/affiliate', { cookie }));

/** Opens `/?ref=CODE` (any page) and answers the cookie header the browser keeps. */
async function visit(ref: string, cookie?: string, path = '/'): Promise<{ status: number; cookie: string }> {
  const response = await suite.t.request(`${path}?ref=${encodeURIComponent(ref)}`, cookie ? { cookie } : {});
  return { status: response.status, cookie: cookieFrom(response) };
}

/** A referred purchase: checkout started in the browser holding `cookie`, paid on the sandbox page; answers the session. */
async function buyWith(cookie: string, buyer: string, overrides: Record<string, unknown> = {}, card?: string): Promise<string> {
  const { sessionId } = await startCheckout(suite.t, { planType: 'monthly', ...overrides }, cookie || undefined);
  const paid = await payOnPage(suite.t, sessionId, buyer, card);
  expect(paid.status, await paid.clone().text()).toBe(200);
  await flush();
  return sessionId;
}

async function chargeOf(sessionId: string): Promise<string> {
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
  return order!.providerPaymentId!;
}

async function renewNow(sessionId: string) {
  const row = await checkoutRow(suite.t, sessionId);
  const response = await suite.t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/renew-now`, { body: {} });
  expect(response.status).toBe(200);
  await flush();
}

/** The hold period passes and the operator approves what is due (the clock goes back after: operator sessions age with it). */
async function approveAfterHold(): Promise<number> {
  suite.time.advance(31 * DAY_MS);
  try {
    return (await suite.t.services.affiliates.approveDue('operator@example.com')).approved;
  } finally {
    suite.time.advance(-31 * DAY_MS);
  }
}

const setTerms = async (body: Record<string, unknown>) => suite.t.request('/api/admin/affiliates/terms', { method: 'PUT', body, cookie: suite.operator });

describe('the walk of the issue', () => {
  it('A joins and gets a link; B buys Monthly through it: 1080 pending; the refund moves it to reversed; A buying through the own link earns nothing', async () => {
    const program = await json<ProgramResponse>(await suite.t.request('/api/affiliate/program', { cookie: suite.member }));
    expect(program).toMatchObject({ joined: false, refusal: null, terms: { mode: 'open', commission: '30 %', cookieDays: 60, holdDays: 30 } });
    expect((await suite.t.request('/api/affiliate', { cookie: suite.member })).status).toBe(404);

    const a = await affiliate('seller');
    expect(a.summary.code).toMatch(/^SELLER\d+[A-Z0-9]{4}$/);
    expect(a.summary).toMatchObject({ link: `${TEST_ORIGIN}/?ref=${a.summary.code}`, clicks: 0, sales: 0, currency: 'usd', commissions: { pending: 0, approved: 0, paid: 0, reversed: 0 } });

    // B opens the link (twice the same day: one click), on / and on /eu
    const first = await visit(a.summary.code.toLowerCase());
    expect(first.cookie).toMatch(new RegExp(`\\.ref=${a.summary.code}\\.`));
    await visit(a.summary.code, first.cookie, '/eu');
    expect((await summaryOf(a.cookie)).clicks).toBe(1);

    const b = email('buyer');
    const sessionId = await buyWith(first.cookie, b);
    const earned = await summaryOf(a.cookie);
    expect(earned).toMatchObject({ sales: 1, signups: 1, commissions: { pending: 1080, approved: 0, paid: 0, reversed: 0 } });
    expect(earned.history[0]).toMatchObject({ planType: 'monthly', base: 3600, amount: 1080, status: 'pending', currency: 'usd' });
    // the overview's "Revenue per affiliate" reads the whole program's top five, whatever page the list is on
    const listed = await json<AffiliateList>(await suite.t.request('/api/admin/affiliates?page=2', { cookie: suite.operator }));
    expect(listed.topByRevenue).toContainEqual(expect.objectContaining({ code: a.summary.code, revenue: [{ currency: 'usd', amount: 3600 }] }));

    // the operator refunds B's payment (the sandbox's refund)
    await suite.t.deps.payments.refundPayment({ paymentId: await chargeOf(sessionId), amount: null, reason: 'requested_by_customer', idempotencyKey: 'walk-refund' });
    await flush();
    expect((await summaryOf(a.cookie)).commissions).toEqual({ pending: 0, approved: 0, paid: 0, reversed: 1080 });

    // A buys through the own link while signed in: nothing earned
    const own = await visit(a.summary.code, a.cookie);
    await buyWith(`${a.cookie}; ${own.cookie}`, a.email);
    const after = await summaryOf(a.cookie);
    expect(after.commissions).toEqual({ pending: 0, approved: 0, paid: 0, reversed: 1080 });
    expect(after.history[0]).toMatchObject({ status: 'refused', amount: 0, reason: 'own_account' });

    // "you earned a commission" went out once
    const mails = await listOutboxMails(db(), { to: a.email });
    expect(mails.filter((mail) => mail.template === 'affiliate_commission')).toHaveLength(1);
  });
});

describe('links and bad input', () => {
  it('ignores an unknown, malformed or 500-character ref: no cookie, never a 5xx', async () => {
    for (const ref of ['NOSUCHCODE', 'bad code!', 'X'.repeat(500), '../../etc']) {
      const response = await visit(ref);
      expect(response.status).toBeLessThan(500);
      expect(response.cookie).not.toMatch(/\.ref=/);
    }
  });

  it('refuses a payout address that is not an e-mail, and a payout below the minimum', async () => {
    const a = await affiliate('payee');
    const bad = await suite.t.request('/api/affiliate/payout-address', { method: 'PUT', body: { email: 'not-an-email' }, cookie: a.cookie });
    expect([bad.status, ((await bad.json()) as { error: { message: string } }).error.message]).toEqual([400, 'The payout address must be an e-mail address (your PayPal or Wise account).']);
    const good = await json<AffiliateSummary>(await suite.t.request('/api/affiliate/payout-address', { method: 'PUT', body: { email: ' Payee@PayPal.example ' }, cookie: a.cookie }));
    expect(good.payoutEmail).toBe('payee@paypal.example');

    const link = await visit(a.summary.code);
    await buyWith(link.cookie, email('small'));
    expect(await approveAfterHold()).toBeGreaterThan(0);
    const id = (await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${a.summary.code}`, { cookie: suite.operator }))).affiliates[0]!.id;
    const run = await json<MarkPaidResponse>(await suite.t.request('/api/admin/affiliates/payouts/mark-paid', { body: { affiliateIds: [id] }, cookie: suite.operator }));
    expect(run).toEqual({ paid: [], skipped: [{ affiliateId: id, code: a.summary.code, reason: 'The balance is below the minimum payout of 50.00.' }] });
  });

  it('refuses terms with a negative or over-100 % rate, with the rules own words', async () => {
    for (const value of [-5, 150]) {
      const response = await setTerms({ kind: 'percent', value });
      expect([response.status, ((await response.json()) as { error: { message: string } }).error.message]).toEqual([400, 'A commission rate is between 0 % and 100 %.']);
    }
    expect((await setTerms({ cookieDays: 'sixty' })).status).toBe(400);
    expect((await suite.t.request('/api/admin/affiliates/not-a-uuid/suspend', { body: {}, cookie: suite.operator })).status).toBe(404);
  });

  it('is refused to members (403) and visitors (401), every console route', async () => {
    for (const route of AFFILIATE_ADMIN_ROUTES) {
      const path = `/api/admin${route.path.replace(':id', '00000000-0000-4000-8000-000000000000')}`;
      const body = route.method === 'GET' ? undefined : {};
      expect((await suite.t.request(path, { method: route.method, body, cookie: suite.member })).status, path).toBe(403);
      expect((await suite.t.request(path, { method: route.method, body })).status, path).toBe(401);
    }
  });
});

describe('attribution', () => {
  it('the last click wins, and a promotion code bound to an affiliate wins over the cookie', async () => {
    const first = await affiliate('first');
    const last = await affiliate('last');
    const bound = await affiliate('bound');
    const clickFirst = await visit(first.summary.code);
    const clickLast = await visit(last.summary.code, clickFirst.cookie);
    await buyWith(clickLast.cookie, email('last-click'));
    expect((await summaryOf(last.cookie)).commissions.pending).toBe(1080);
    expect((await summaryOf(first.cookie)).commissions.pending).toBe(0);

    await json(await suite.t.request('/api/admin/promotion-codes', { body: { code: 'BOUND10', percentOff: 10 }, cookie: suite.operator }), 201);
    const list = await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${bound.summary.code}`, { cookie: suite.operator }));
    await json(await suite.t.request(`/api/admin/affiliates/${list.affiliates[0]!.id}/promotion-code`, { method: 'PUT', body: { code: 'bound10' }, cookie: suite.operator }));
    await buyWith(clickLast.cookie, email('coded'), { promotionCode: 'BOUND10' });
    // 10 % off $36: $32.40 paid, 30 % of it
    expect((await summaryOf(bound.cookie)).commissions.pending).toBe(972);
    expect((await summaryOf(last.cookie)).commissions.pending).toBe(1080);
  });

  it('an affiliate asks for a promotion code bound to them: 10 % off, and its buyers are theirs', async () => {
    const seller = await affiliate('coder');
    const made = await json<AffiliateSummary>(await suite.t.request('/api/affiliate/promotion-code', { method: 'POST', cookie: seller.cookie }), 201);
    expect(made.promotionCode).toBe(seller.summary.code);
    // asking again changes nothing
    expect((await json<AffiliateSummary>(await suite.t.request('/api/affiliate/promotion-code', { method: 'POST', cookie: seller.cookie }), 201)).promotionCode).toBe(seller.summary.code);
    await buyWith('', email('code-only'), { promotionCode: seller.summary.code.toLowerCase() });
    expect((await summaryOf(seller.cookie)).commissions.pending).toBe(972);
  });

  it('renewals earn as the terms say: for as long as the member pays, or the first payment only', async () => {
    const seller = await affiliate('recurring');
    const link = await visit(seller.summary.code);
    const lifetime = await buyWith(link.cookie, email('renews'));
    await renewNow(lifetime);
    expect((await summaryOf(seller.cookie)).commissions.pending).toBe(2160);

    await json(await setTerms({ duration: 'first' }));
    await renewNow(lifetime);
    expect((await summaryOf(seller.cookie)).commissions.pending).toBe(2160);

    await json(await setTerms({ duration: 'months', durationMonths: 12, kind: 'fixed', value: 500 }));
    await renewNow(lifetime);
    const summary = await summaryOf(seller.cookie);
    expect(summary.commissions.pending).toBe(2660);
    expect(summary.sales).toBe(3);
    await json(await setTerms({ duration: 'lifetime', kind: 'percent', value: 30 }));
  });

  it("gives nothing for the affiliate's own mailbox (Gmail dots, +tags, googlemail) or card, nor to a suspended affiliate", async () => {
    const cookie = await signUp(suite.t, 'jane.doe+shop@gmail.com');
    const jane = await json<AffiliateSummary>(await suite.t.request('/api/affiliate/join', { method: 'POST', cookie }), 201);
    const link = await visit(jane.code);
    // her own account and card; then her card in another mailbox; then her mailbox as Google spells it
    await buyWith(`${cookie}; ${link.cookie}`, 'jane.doe+shop@gmail.com', {}, CARDS.ok);
    await buyWith(link.cookie, email('same-card'), {}, CARDS.ok);
    await buyWith(link.cookie, 'JaneDoe@googlemail.com', {}, '5555 5555 5555 4444');
    expect((await summaryOf(cookie)).history.map((item) => [item.status, item.reason])).toEqual([
      ['refused', 'own_email'],
      ['refused', 'own_card'],
      ['refused', 'own_account'],
    ]);

    const suspended = await affiliate('suspended');
    const click = await visit(suspended.summary.code);
    const list = await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${suspended.summary.code}`, { cookie: suite.operator }));
    await json(await suite.t.request(`/api/admin/affiliates/${list.affiliates[0]!.id}/suspend`, { body: { reason: 'spam' }, cookie: suite.operator }));
    expect((await visit(suspended.summary.code)).cookie).not.toMatch(/\.ref=/);
    await buyWith(click.cookie, email('still-buys'));
    const after = await summaryOf(suspended.cookie);
    expect([after.status, after.commissions.pending, after.history[0]?.reason]).toEqual(['suspended', 0, 'suspended']);
    const audit = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'suspend_affiliate'));
    expect(audit).toHaveLength(1);
  });
});

describe('disputes, payouts and clawback', () => {
  it('a dispute takes the commission back and a won one gives it back; the console flags a quarter of buyers reversing', async () => {
    const seller = await affiliate('disputed');
    const link = await visit(seller.summary.code);
    const sessionId = await buyWith(link.cookie, email('disputer'));
    const charge = await chargeOf(sessionId);
    await sandboxOf(suite.t).sandbox.disputeCharge(charge, 'needs_response');
    await flush();
    expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ pending: 0, reversed: 1080 });
    const flagged = await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${seller.summary.code}`, { cookie: suite.operator }));
    expect(flagged.affiliates[0]).toMatchObject({ flagged: true, buyers: 1, reversedBuyers: 1 });
    await sandboxOf(suite.t).sandbox.disputeCharge(charge, 'won');
    await flush();
    expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ pending: 1080, reversed: 0 });
  });

  it('approves after the hold, exports the CSV, marks paid (audited, mailed); a refund after that is a negative balance taken from the next payout', async () => {
    const seller = await affiliate('paid');
    await json(await suite.t.request('/api/affiliate/payout-address', { method: 'PUT', body: { email: 'paid@wise.example' }, cookie: seller.cookie }));
    const link = await visit(seller.summary.code);
    const sessions = [];
    for (let index = 0; index < 6; index += 1) sessions.push(await buyWith(link.cookie, email('many')));
    expect((await summaryOf(seller.cookie)).commissions.pending).toBe(6480);

    // before the hold ends nothing is approved; after it, all six
    expect((await json<{ approved: number }>(await suite.t.request('/api/admin/affiliates/payouts/approve', { body: {}, cookie: suite.operator }))).approved).toBe(0);
    expect(await approveAfterHold()).toBeGreaterThanOrEqual(6);
    expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ pending: 0, approved: 6480 });
    const csv = await (await suite.t.request('/api/admin/affiliates/payouts.csv', { cookie: suite.operator })).text();
    expect(csv).toContain('paid@wise.example,64.80,USD,');
    const id = (await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${seller.summary.code}`, { cookie: suite.operator }))).affiliates[0]!.id;
    const run = await json<MarkPaidResponse>(await suite.t.request('/api/admin/affiliates/payouts/mark-paid', { body: { affiliateIds: [id] }, cookie: suite.operator }));
    expect(run.paid).toEqual([{ affiliateId: id, code: seller.summary.code, email: 'paid@wise.example', amount: 6480, currency: 'usd' }]);
    expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ approved: 0, paid: 6480 });
    expect((await listOutboxMails(db(), { to: seller.email })).map((mail) => mail.template)).toContain('affiliate_payout');

    // a second mark of the same run is a clear 409 and pays nothing twice
    const again = await suite.t.request('/api/admin/affiliates/payouts/mark-paid', { body: { affiliateIds: [id] }, cookie: suite.operator });
    expect([again.status, ((await again.json()) as { error: { message: string } }).error.message]).toEqual([409, 'Nothing is owed: this payout run was already marked paid, or no commission is approved yet.']);
    expect(await db().select().from(affiliatePayouts).where(eq(affiliatePayouts.affiliateId, id))).toHaveLength(1);
    expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ approved: 0, paid: 6480 });

    await suite.t.deps.payments.refundPayment({ paymentId: await chargeOf(sessions[0]!), amount: null, reason: 'requested_by_customer', idempotencyKey: 'after-payout' });
    await flush();
    const clawed = await summaryOf(seller.cookie);
    expect(clawed.commissions).toMatchObject({ paid: 5400, reversed: 1080 });
    expect(clawed.balance).toBe(-1080);
    const rows = await db().select().from(affiliateCommissions).where(eq(affiliateCommissions.status, 'reversed'));
    expect(rows.some((row) => row.payoutId !== null && row.clawbackPayoutId === null)).toBe(true);
  });

  it('marks a run paid all or nothing: when one balance moved, no payout of the run is recorded', async () => {
    const sellers = [await affiliate('run-a'), await affiliate('run-b')];
    for (const seller of sellers) {
      await json(await suite.t.request('/api/affiliate/payout-address', { method: 'PUT', body: { email: `${seller.summary.code.toLowerCase()}@wise.example` }, cookie: seller.cookie }));
      const link = await visit(seller.summary.code);
      await buyWith(link.cookie, email('run-buyer'), { planType: 'yearly' });
    }
    await approveAfterHold();
    const ids = (await Promise.all(sellers.map(async (seller) => (await json<AffiliateList>(await suite.t.request(`/api/admin/affiliates?q=${seller.summary.code}`, { cookie: suite.operator }))).affiliates[0]!.id))) as [string, string];
    // the second affiliate's balance was read before a commission moved: the rows changed do not add up to it
    const settled = await db()
      .transaction(async (tx) => {
        expect(await settlePayout(tx, ids[0], 'usd', { amount: 6120, payoutEmail: 'a@wise.example', paidBy: 'test', at: new Date() })).not.toBeNull();
        const stale = await settlePayout(tx, ids[1], 'usd', { amount: 5040, payoutEmail: 'b@wise.example', paidBy: 'test', at: new Date() });
        expect(stale).toBeNull();
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    expect(settled).toBe('rolled back');
    for (const seller of sellers) expect((await summaryOf(seller.cookie)).commissions).toMatchObject({ approved: 6120, paid: 0 });
    expect(await db().select().from(affiliatePayouts).where(inArray(affiliatePayouts.affiliateId, ids))).toHaveLength(0);

    // the run itself pays both in one go
    const run = await json<MarkPaidResponse>(await suite.t.request('/api/admin/affiliates/payouts/mark-paid', { body: { affiliateIds: ids }, cookie: suite.operator }));
    expect(run.paid.map((line) => line.amount)).toEqual([6120, 6120]);
  });

  it("mails at most one commission digest a day: the day's first at once, later ones in the next day's digest pass", async () => {
    const seller = await affiliate('digest');
    const link = await visit(seller.summary.code);
    const digests = async () => (await db().select().from(outbox).where(eq(outbox.to, seller.email))).filter((mail) => mail.template === 'affiliate_commission');
    await buyWith(link.cookie, email('digest-buyer'));
    await buyWith(link.cookie, email('digest-buyer'));
    expect((await digests()).map((mail) => mail.data)).toEqual([{ count: 1, amounts: [{ currency: 'usd', amount: 1080 }], holdDays: 30 }]);
    // the same day's pass writes nothing more
    await suite.t.jobs.affiliateDigest.runOnce();
    expect(await digests()).toHaveLength(1);
    suite.time.advance(DAY_MS);
    try {
      await suite.t.jobs.affiliateDigest.runOnce();
      expect((await digests()).map((mail) => mail.data)).toEqual([
        { count: 1, amounts: [{ currency: 'usd', amount: 1080 }], holdDays: 30 },
        { count: 1, amounts: [{ currency: 'usd', amount: 1080 }], holdDays: 30 },
      ]);
      // told once: a second pass that day writes nothing
      await suite.t.jobs.affiliateDigest.runOnce();
      expect(await digests()).toHaveLength(2);
    } finally {
      suite.time.advance(-DAY_MS);
    }
  });
});
