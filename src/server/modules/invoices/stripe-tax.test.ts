// Tax and invoices with Stripe (the real SDK against the Stripe-shaped server): with STRIPE_TAX the
// checkout asks Stripe Tax to compute the tax and collects the billing address and tax ID; the tax
// Stripe charged is kept with the order and shown in the payment details; the member's invoices,
// every plan including lifetime, are listed with their hosted pages and PDFs.
import { describe, expect, it } from 'vitest';
import type { InvoicesResponse } from '@shared/api-contract';
import { createLogger } from '../../logger';
import { STRIPE_TEST_ENV, TEST_PRICE_IDS } from '../../test-support/fake-stripe-server';
import { createStripePayments } from '../payments/stripe-payments';
import { checkoutRow, ordersOfSession, signUp, startCheckout } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite({ STRIPE_TAX: 'true' });
const { email, webhook, lastRequest } = bench;

const checkoutForm = () => lastRequest('POST', /^\/v1\/checkout\/sessions$/)!.form;

/** A signed-in member buys on Stripe Checkout with this billing address; the webhook arrives. */
async function stripeMember(planType: 'monthly' | 'lifetime', country: string, taxId?: string) {
  const address = email('taxed');
  const cookie = await signUp(bench.t, address);
  const { sessionId } = await startCheckout(bench.t, { planType }, cookie);
  bench.stripe.tax.fillBilling(sessionId, { country, ...(taxId ? { taxId } : {}) });
  const session = bench.stripe.complete(sessionId, address);
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
  return { cookie, sessionId, address };
}

async function invoicesOf(cookie: string) {
  const response = await bench.t.request('/api/invoices', { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as InvoicesResponse).invoices;
}

describe('checkout with STRIPE_TAX', () => {
  it('asks for automatic tax, a required billing address and tax IDs; an anonymous buyer gets no customer_update', async () => {
    await startCheckout(bench.t, { customerEmail: email('anonymous') });
    const form = checkoutForm();
    expect(Object.fromEntries([...form].filter(([key]) => /^(automatic_tax|billing_address_collection|tax_id_collection|customer_update)/.test(key)))).toEqual({
      'automatic_tax[enabled]': 'true',
      billing_address_collection: 'required',
      'tax_id_collection[enabled]': 'true',
    });
    // subscriptions make their own invoices
    expect(form.has('invoice_creation[enabled]')).toBe(false);
  });

  it("a returning customer's address and name are saved back (customer_update), which Stripe requires with automatic tax", async () => {
    const member = await stripeMember('monthly', 'US');
    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'lifetime', customerEmail: null, fbc: null, fbp: null, userAgent: 'test', originPage: '/' }, cookie: member.cookie });
    expect(response.status, await response.clone().text()).toBe(200);
    const form = checkoutForm();
    expect(form.get('customer')).toMatch(/^cus_/);
    expect(form.get('customer_update[address]')).toBe('auto');
    expect(form.get('customer_update[name]')).toBe('auto');
    expect(form.get('invoice_creation[enabled]')).toBe('true');
  });
});

describe('checkout without STRIPE_TAX', () => {
  it('carries no tax parameters, but a one-time payment still asks for its invoice', async () => {
    const untaxed = createStripePayments(
      { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, connection: { host: '127.0.0.1', port: bench.stripe.port, protocol: 'http' } },
      createLogger('silent'),
    );
    const common = { customerEmail: 'plain@example.com', customerId: null, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/no', metadata: {} };
    for (const [planType, mode] of [['monthly', 'subscription'], ['lifetime', 'payment']] as const) {
      await untaxed.createCheckoutSession({ planType, mode, ...common });
      const keys = [...checkoutForm().keys()];
      expect(keys.filter((key) => /^(automatic_tax|billing_address_collection|tax_id_collection|customer_update)/.test(key))).toEqual([]);
      expect(keys.includes('invoice_creation[enabled]')).toBe(mode === 'payment');
    }
  });
});

describe('the tax Stripe charged', () => {
  it('a German buyer where the shop is registered pays 19 % on top: kept on the checkout, the order and the payment details', async () => {
    bench.stripe.tax.registrations = ['DE', 'FR'];
    const { cookie, sessionId } = await stripeMember('monthly', 'DE', 'DE123456789');
    expect(await checkoutRow(bench.t, sessionId)).toMatchObject({ amountTotal: 4284, amountTax: 684 });
    expect(await ordersOfSession(bench.t, sessionId)).toMatchObject([{ amount: 4284, amountTax: 684 }]);
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId }, cookie });
    expect(await details.json()).toMatchObject({ amountTotal: 4284, amountTax: 684, currency: 'usd' });

    const invoices = await invoicesOf(cookie);
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({ status: 'paid', total: 4284, amountTax: 684, currency: 'usd' });
    expect(invoice?.number).toMatch(/^FAKE-/);
    expect(invoice?.url).toBe(`https://invoice.stripe.com/i/acct_fake/${invoice?.id}`);
    expect(invoice?.pdfUrl).toBe(`https://pay.stripe.com/invoice/acct_fake/${invoice?.id}/pdf`);
    expect(lastRequest('GET', /^\/v1\/invoices$/)?.query.get('customer')).toMatch(/^cus_/);
  });

  it('a buyer in the United States (no registration there) pays no tax', async () => {
    bench.stripe.tax.registrations = ['DE'];
    const { cookie, sessionId } = await stripeMember('monthly', 'US');
    expect(await ordersOfSession(bench.t, sessionId)).toMatchObject([{ amount: 3600, amountTax: 0 }]);
    expect(await invoicesOf(cookie)).toMatchObject([{ total: 3600, amountTax: 0 }]);
  });

  it('a lifetime purchase gets its invoice too (invoice_creation), with its tax', async () => {
    bench.stripe.tax.registrations = ['FR'];
    const { cookie, sessionId } = await stripeMember('lifetime', 'FR');
    expect(await ordersOfSession(bench.t, sessionId)).toMatchObject([{ amount: 65999, amountTax: 11000 }]);
    expect(await invoicesOf(cookie)).toMatchObject([{ status: 'paid', total: 65999, amountTax: 11000 }]);
  });

  it('lists every invoice of a member who bought twice, newest first', async () => {
    bench.stripe.tax.registrations = [];
    const member = await stripeMember('monthly', 'US');
    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'lifetime', customerEmail: null, fbc: null, fbp: null, userAgent: 'test', originPage: '/' }, cookie: member.cookie });
    const { sessionId } = (await response.json()) as { sessionId: string };
    bench.stripe.tax.fillBilling(sessionId, { country: 'US' });
    await webhook('checkout.session.completed', bench.stripe.complete(sessionId, member.address));
    expect((await invoicesOf(member.cookie)).map((invoice) => invoice.total)).toEqual([54999, 3600]);
  });
});

describe('when Stripe cannot be read', () => {
  it('the invoice list answers 503 provider_unavailable (the page offers a retry), never a blank list', async () => {
    const { cookie } = await stripeMember('monthly', 'US');
    const key = bench.stripe.apiKey;
    bench.stripe.apiKey = 'sk_test_rotated';
    try {
      const response = await bench.t.request('/api/invoices', { cookie });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: 'provider_unavailable' } });
    } finally {
      bench.stripe.apiKey = key;
    }
    expect(await invoicesOf(cookie)).toHaveLength(1);
  });
});
