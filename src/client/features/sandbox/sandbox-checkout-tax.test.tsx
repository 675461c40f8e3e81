// The sandbox checkout with STRIPE_TAX: a billing country (the United States by default) and a tax
// ID; VAT for an EU country added on top of the price or included in it; what is sent to pay.
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxCheckout as Checkout } from '@shared/sandbox-contract';
import { SandboxCheckout } from './sandbox-checkout-page';
import { mockFetch, renderAt } from './sandbox-test-kit';

const SESSION = 'cs_sbx_tax1';
const TAXED: Checkout = {
  id: SESSION,
  status: 'open',
  mode: 'subscription',
  planType: 'monthly',
  amount: 3600,
  currency: 'usd',
  intervalMonths: 1,
  customerEmail: 'buyer@example.com',
  cancelUrl: 'http://localhost:3000/payment-canceled',
  successUrl: null,
  tax: { behavior: 'exclusive' },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(checkout: Checkout, pay: () => { status?: number; body: unknown } = () => ({ body: { redirectUrl: '/payment-success' } })) {
  const calls = mockFetch(({ method, url }) => {
    if (method === 'GET' && url === `/api/sandbox/checkout/${SESSION}`) return { body: checkout };
    if (method === 'POST' && url === `/api/sandbox/checkout/${SESSION}/pay`) return pay();
    return undefined;
  });
  renderAt(`/sandbox/checkout/${SESSION}`, '/sandbox/checkout/:sessionId', <SandboxCheckout sessionId={SESSION} onPaid={vi.fn()} />);
  return { calls, user: userEvent.setup() };
}

async function fillCard(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Card number'), '4242424242424242');
  await user.type(screen.getByLabelText('Expiry'), '1239');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.type(screen.getByLabelText('Name on card'), 'Ada Buyer');
}

const summary = () => screen.getByRole('region', { name: 'Order summary' });

describe('the sandbox checkout with tax', () => {
  it('starts on the United States with no tax; choosing Germany adds 19 % VAT on top, and the payment carries the address', async () => {
    const { calls, user } = setup(TAXED);
    const country = await screen.findByLabelText('Billing country');
    expect(country).toHaveDisplayValue('United States');
    expect(within(summary()).getByText('Tax (United States)')).toBeInTheDocument();
    expect(within(summary()).getByTestId('checkout-tax')).toHaveTextContent('$0.00');
    expect(within(summary()).getByTestId('due-today')).toHaveTextContent('$36.00');

    await user.selectOptions(country, 'DE');
    expect(within(summary()).getByText('VAT 19% (Germany)')).toBeInTheDocument();
    expect(within(summary()).getByTestId('checkout-tax')).toHaveTextContent('$6.84');
    expect(within(summary()).getByTestId('due-today')).toHaveTextContent('$42.84');
    // the price itself stays what the card showed
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('$36.00');

    await fillCard(user);
    await user.type(screen.getByLabelText('Tax ID (optional)'), 'DE123456789');
    await user.click(screen.getByRole('button', { name: 'Pay $42.84' }));
    await expect.poll(() => calls.find((call) => call.method === 'POST')?.body).toMatchObject({ billingCountry: 'DE', taxId: 'DE123456789' });
  });

  it('with tax-inclusive prices the total stays the price and the VAT part is shown', async () => {
    const { user } = setup({ ...TAXED, tax: { behavior: 'inclusive' } });
    await user.selectOptions(await screen.findByLabelText('Billing country'), 'FR');
    expect(within(summary()).getByText('Includes VAT 20% (France)')).toBeInTheDocument();
    expect(within(summary()).getByTestId('checkout-tax')).toHaveTextContent('$6.00');
    expect(within(summary()).getByTestId('due-today')).toHaveTextContent('$36.00');
  });

  it('a tax ID the server refuses is shown beside the field', async () => {
    const { user } = setup(TAXED, () => ({ status: 400, body: { error: { code: 'validation_failed', message: 'Tax IDs contain only letters, digits, spaces, dots and dashes.', details: [{ path: 'taxId', message: 'Tax IDs contain only letters, digits, spaces, dots and dashes.' }] } } }));
    await screen.findByLabelText('Billing country');
    await fillCard(user);
    await user.type(screen.getByLabelText('Tax ID (optional)'), 'DE_1');
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    expect(await screen.findByLabelText('Tax ID (optional)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Tax IDs contain only letters, digits, spaces, dots and dashes.').length).toBeGreaterThan(0);
  });

  it('without tax the form asks for no address and sends none', async () => {
    const { calls, user } = setup({ ...TAXED, tax: null });
    await screen.findByLabelText('Card number');
    expect(screen.queryByLabelText('Billing country')).not.toBeInTheDocument();
    expect(screen.queryByTestId('checkout-tax')).not.toBeInTheDocument();
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    await expect.poll(() => calls.find((call) => call.method === 'POST')?.body).toBeDefined();
    expect(calls.find((call) => call.method === 'POST')?.body).not.toHaveProperty('billingCountry');
  });
});
