// Tax and invoices in the sandbox with STRIPE_TAX: VAT for an EU billing address (prices exclusive
// or inclusive of it), none for the United States, kept on the order, the payment details, the
// receipt mail, renewals and the member's invoice list; each invoice's receipt page; bad input.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoicesResponse } from '@shared/api-contract';
import { outbox, sandboxInvoices } from '../../db/schema';
import { buyerBrowser, checkoutRow, ordersOfSession, payBody, signUp, startCheckout } from '../../test-support/billing-test-kit';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { renderMail, type MailContext } from '../mail/mail-templates';

let counter = 0;
const email = (name: string) => `${name}-${++counter}@example.com`;

type Billing = { billingCountry?: string; taxId?: string };

/** A signed-in member buys `planType`, paying on the sandbox page with this billing address. */
async function memberBuys(t: TestApp, billing: Billing, planType: 'monthly' | 'lifetime' = 'monthly') {
  const address = email('buyer');
  const cookie = await signUp(t, address);
  const { sessionId } = await startCheckout(t, { planType, customerEmail: address }, cookie);
  const paid = await t.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: { ...payBody(null), ...billing } });
  expect(paid.status, await paid.clone().text()).toBe(200);
  return { address, cookie, sessionId };
}

async function paymentDetails(t: TestApp, sessionId: string, cookie: string) {
  const response = await t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId, cookie) });
  expect(response.status).toBe(200);
  return (await response.json()) as { amountTotal: number; amountTax: number; currency: string };
}

async function invoicesOf(t: TestApp, cookie: string) {
  const response = await t.request('/api/invoices', { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as InvoicesResponse).invoices;
}

describe('STRIPE_TAX in the sandbox, tax-exclusive prices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STRIPE_TAX: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the checkout page is told to collect the billing country and adds VAT on top', async () => {
    const { sessionId } = await startCheckout(t, { customerEmail: email('page') });
    const page = (await (await t.request(`/api/sandbox/checkout/${sessionId}`)).json()) as { amount: number; tax: unknown };
    expect(page).toMatchObject({ amount: 3600, tax: { behavior: 'exclusive' } });
  });

  it('a German buyer pays 19 % VAT on top: session, order, payment details, receipt mail and invoice all say so', async () => {
    const { address, cookie, sessionId } = await memberBuys(t, { billingCountry: 'DE', taxId: 'de 123456789' });
    expect(await paymentDetails(t, sessionId, cookie)).toMatchObject({ amountTotal: 4284, amountTax: 684, currency: 'usd' });
    expect(await checkoutRow(t, sessionId)).toMatchObject({ amountTotal: 4284, amountTax: 684 });
    expect(await ordersOfSession(t, sessionId)).toMatchObject([{ amount: 4284, amountTax: 684, currency: 'usd' }]);

    const [receiptMail] = await t.deps.database.db.select().from(outbox).where(and(eq(outbox.to, address), eq(outbox.template, 'receipt')));
    expect(receiptMail?.data).toMatchObject({ amount: 4284, amountTax: 684, currency: 'usd' });

    const invoices = await invoicesOf(t, cookie);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', total: 4284, amountTax: 684, currency: 'usd', pdfUrl: null });
    expect(invoices[0]?.url).toBe(`/sandbox/receipts/${invoices[0]?.id}`);

    const page = await t.request(invoices[0]!.url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    for (const text of ['Receipt', 'Paid', `Billed to ${address}`, 'Tax ID DE 123456789', 'Subtotal', '$36.00', 'VAT 19% (Germany)', '$6.84', 'Total', '$42.84']) expect(html).toContain(text);
  });

  it('renewals keep the billing address: the next invoice is taxed the same', async () => {
    const { cookie } = await memberBuys(t, { billingCountry: 'FR' });
    const [first] = await invoicesOf(t, cookie);
    const [invoice] = await t.deps.database.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, first!.id));
    const renewed = await t.request(`/api/sandbox/portal/${invoice!.customerId}/subscriptions/${invoice!.subscriptionId}/renew-now`, { method: 'POST' });
    expect(renewed.status).toBe(200);
    const invoices = await invoicesOf(t, cookie);
    expect(invoices.map((entry) => [entry.total, entry.amountTax])).toEqual([
      [4320, 720],
      [4320, 720],
    ]);
    expect(new Date(invoices[0]!.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(invoices[1]!.createdAt).getTime());
  });

  it('a buyer in the United States pays the price: no tax', async () => {
    const { cookie, sessionId } = await memberBuys(t, { billingCountry: 'US' });
    expect(await paymentDetails(t, sessionId, cookie)).toMatchObject({ amountTotal: 3600, amountTax: 0 });
    expect(await invoicesOf(t, cookie)).toMatchObject([{ total: 3600, amountTax: 0 }]);
    const html = await (await t.request((await invoicesOf(t, cookie))[0]!.url!)).text();
    expect(html).toContain('Tax (United States)');
  });

  it('a lifetime purchase has its invoice too', async () => {
    const { cookie, sessionId } = await memberBuys(t, { billingCountry: 'IT' }, 'lifetime');
    expect(await paymentDetails(t, sessionId, cookie)).toMatchObject({ amountTotal: 67099, amountTax: 12100 });
    expect(await invoicesOf(t, cookie)).toMatchObject([{ status: 'paid', total: 67099, amountTax: 12100 }]);
  });

  it('a member with no purchase has no invoices', async () => {
    const cookie = await signUp(t, email('nobody'));
    expect(await invoicesOf(t, cookie)).toEqual([]);
  });

  describe('bad input is a clear 400 or 404, never a 5xx', () => {
    it.each([
      ['an unknown country code', { billingCountry: 'XX' }, 'billingCountry', 'Please choose a billing country from the list.'],
      ['a country name instead of a code', { billingCountry: 'Germany' }, 'billingCountry', 'Please choose a billing country from the list.'],
      ['no country at all', {}, 'billingCountry', 'Please choose a billing country from the list.'],
      ['a tax ID of 200 characters', { billingCountry: 'DE', taxId: 'D'.repeat(200) }, 'taxId', 'Tax IDs are at most 40 characters long.'],
      ['a tax ID with markup', { billingCountry: 'DE', taxId: '<b>DE1</b>' }, 'taxId', 'Tax IDs contain only letters, digits, spaces, dots and dashes.'],
    ])('%s', async (_name, billing, path, message) => {
      const { sessionId } = await startCheckout(t, { customerEmail: email('bad') });
      const response = await t.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: { ...payBody(null), ...billing } });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { details: { path: string; message: string }[] } };
      expect(body.error.details).toContainEqual({ path, message });
      // nothing was charged
      expect((await checkoutRow(t, sessionId))?.paymentStatus).toBe('unpaid');
    });

    it("another member's invoice is not found, a malformed id is refused, and a stranger is asked to sign in", async () => {
      const owner = await memberBuys(t, { billingCountry: 'DE' });
      const [invoice] = await invoicesOf(t, owner.cookie);
      expect((await t.request(`/api/invoices/${invoice!.id}`, { cookie: owner.cookie })).status).toBe(200);
      const other = await signUp(t, email('other'));
      const foreign = await t.request(`/api/invoices/${invoice!.id}`, { cookie: other });
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ error: { code: 'not_found', message: 'No invoice of yours has this id.' } });
      expect((await t.request(`/api/invoices/${'x'.repeat(200)}`, { cookie: other })).status).toBe(400);
      expect((await t.request('/api/invoices/in%3Cscript%3E', { cookie: other })).status).toBe(400);
      expect((await t.request('/api/invoices')).status).toBe(401);
    });

    it('a receipt that does not exist is a 404 page', async () => {
      expect((await t.request('/sandbox/receipts/in_sbx_000000000000000000000000')).status).toBe(404);
      expect((await t.request(`/sandbox/receipts/${'%00'.repeat(3)}`)).status).toBe(404);
    });
  });
});

describe('STRIPE_TAX in the sandbox, tax-inclusive prices (PRICES_INCLUDE_TAX)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STRIPE_TAX: 'true', PRICES_INCLUDE_TAX: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a German buyer pays the price, of which 19 % VAT is shown', async () => {
    const { cookie, sessionId } = await memberBuys(t, { billingCountry: 'DE' });
    expect(await paymentDetails(t, sessionId, cookie)).toMatchObject({ amountTotal: 3600, amountTax: 575 });
    expect(await ordersOfSession(t, sessionId)).toMatchObject([{ amount: 3600, amountTax: 575 }]);
    const [invoice] = await invoicesOf(t, cookie);
    expect(invoice).toMatchObject({ total: 3600, amountTax: 575 });
    const html = await (await t.request(invoice!.url!)).text();
    expect(html).toContain('Includes VAT 19% (Germany)');
    expect(html).toContain('$5.75');
  });

  it('a buyer in the United States: no tax in the price', async () => {
    const { cookie, sessionId } = await memberBuys(t, { billingCountry: 'US' });
    expect(await paymentDetails(t, sessionId, cookie)).toMatchObject({ amountTotal: 3600, amountTax: 0 });
  });
});

describe('without STRIPE_TAX', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the checkout collects no address, charges no tax, and every purchase still has its invoice', async () => {
    const { sessionId } = await startCheckout(t, { customerEmail: email('page') });
    expect(((await (await t.request(`/api/sandbox/checkout/${sessionId}`)).json()) as { tax: unknown }).tax).toBeNull();
    // a country sent anyway is ignored, as Stripe collects no address it did not ask for
    const { cookie, sessionId: paid } = await memberBuys(t, { billingCountry: 'DE' }, 'lifetime');
    expect(await paymentDetails(t, paid, cookie)).toMatchObject({ amountTotal: 54999, amountTax: 0 });
    expect(await invoicesOf(t, cookie)).toMatchObject([{ total: 54999, amountTax: 0, status: 'paid' }]);
  });
});

describe('the receipt mail', () => {
  const context: MailContext = { brand: 'Acme Charts', publicUrl: 'https://shop.example.com', supportEmail: 'help@example.com', finishSetupUrl: () => 'https://shop.example.com/x', setupReminders: {}, offeredSteps: () => [] };

  it('names the tax included in what was charged, and says nothing of tax when there was none', () => {
    const taxed = renderMail('receipt', { planType: 'monthly', amount: 4284, amountTax: 684, currency: 'usd', renewsAt: '2026-03-08T12:00:00.000Z' }, context, new Date());
    expect(taxed.text).toContain('Amount: $42.84 (USD)');
    expect(taxed.text).toContain('Tax included: $6.84');
    const untaxed = renderMail('receipt', { planType: 'monthly', amount: 3600, currency: 'usd', renewsAt: '2026-03-08T12:00:00.000Z' }, context, new Date());
    expect(untaxed.text).not.toContain('Tax included');
  });
});

describe('the receipt page of a discounted, taxed invoice', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STRIPE_TAX: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the discount before the VAT, which is charged on what is left', async () => {
    const { cookie } = await memberBuys(t, { billingCountry: 'DE' });
    const [listed] = await invoicesOf(t, cookie);
    // the discount a promotion code would leave on the invoice: 20 % of $36, VAT on the $28.80 left
    await t.deps.database.db.update(sandboxInvoices).set({ amountDiscount: 720, amountTax: 547, amountDue: 3427 }).where(eq(sandboxInvoices.id, listed!.id));
    const html = await (await t.request(listed!.url!)).text();
    for (const text of ['Subtotal', '$36.00', 'Discount', '-$7.20', 'VAT 19% (Germany)', '$5.47', '$34.27']) expect(html).toContain(text);
    expect(html).not.toContain('Applied balance');
  });
});
