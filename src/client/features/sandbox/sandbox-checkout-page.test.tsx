import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxCheckout as Checkout } from '@shared/sandbox-contract';
import { SandboxCheckout } from './sandbox-checkout-page';
import { mockFetch, renderAt, SETTINGS, type Answer } from './sandbox-test-kit';

const SESSION = 'cs_sbx_abc123';
const OPEN: Checkout = {
  id: SESSION,
  status: 'open',
  mode: 'subscription',
  planType: 'monthly',
  amount: 3600,
  currency: 'usd',
  intervalMonths: 1,
  customerEmail: null,
  cancelUrl: 'http://localhost:3000/payment-canceled',
  successUrl: null,
};
const SUCCESS_URL = `http://localhost:3000/payment-success?session_id=${SESSION}`;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(checkout: Checkout | Answer = OPEN, pay: (body: Record<string, unknown>) => Answer = () => ({ body: { redirectUrl: SUCCESS_URL } }), settings = SETTINGS) {
  const calls = mockFetch(({ method, url, body }) => {
    if (method === 'GET' && url === `/api/sandbox/checkout/${SESSION}`) return 'body' in checkout ? (checkout as Answer) : { body: checkout };
    if (method === 'POST' && url === `/api/sandbox/checkout/${SESSION}/pay`) return pay(body as Record<string, unknown>);
    return undefined;
  });
  const onPaid = vi.fn();
  renderAt(`/sandbox/checkout/${SESSION}`, '/sandbox/checkout/:sessionId', <SandboxCheckout sessionId={SESSION} onPaid={onPaid} />, settings);
  return { calls, onPaid, user: userEvent.setup() };
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, card = '4242424242424242') {
  await user.type(screen.getByLabelText('Email'), 'buyer@example.com');
  await user.type(screen.getByLabelText('Card number'), card);
  await user.type(screen.getByLabelText('Expiry'), '1239');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.type(screen.getByLabelText('Name on card'), 'Ada Buyer');
}

describe('the sandbox hosted checkout', () => {
  it('shows the plan, the formatted price, the sandbox note and the labelled card fields', async () => {
    setup();
    expect(await screen.findByText('Subscribe to Candlewise Monthly plan')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('$36.00');
    expect(screen.getAllByText('per month').length).toBeGreaterThan(0);
    expect(screen.getByText('Sandbox — no real money')).toBeInTheDocument();
    for (const label of ['Email', 'Card number', 'Expiry', 'CVC', 'Name on card']) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $36.00' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Cancel and return to Candlewise' })).toHaveAttribute('href', 'http://localhost:3000/payment-canceled');
  });

  it('a free trial: $0.00 due today, and when and what will be charged', async () => {
    setup({ ...OPEN, trialDays: 7 });
    expect(await screen.findByTestId('due-today')).toHaveTextContent('$0.00');
    expect(screen.getByText('7-day free trial')).toBeInTheDocument();
    expect(screen.getAllByText(/^Nothing is charged today\. \$36\.00 per month from .+ until you cancel; cancel before then and you pay nothing\.$/)).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: /Start free trial/ })).toBeInTheDocument();
  });

  it('shows a lifetime purchase as a one-time payment', async () => {
    setup({ ...OPEN, mode: 'payment', planType: 'lifetime', amount: 54999, intervalMonths: null });
    expect(await screen.findByText('Pay Candlewise')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-price')).toHaveTextContent('$549.99');
    expect(screen.getByText('One payment, no renewals.')).toBeInTheDocument();
  });

  it('formats the card number and expiry while typing', async () => {
    const { user } = setup();
    await screen.findByLabelText('Card number');
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry'), '1234');
    await user.type(screen.getByLabelText('CVC'), '12a34');
    expect(screen.getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242');
    expect(screen.getByLabelText('Expiry')).toHaveValue('12 / 34');
    expect(screen.getByLabelText('CVC')).toHaveValue('1234');
  });

  it('shows inline errors and sends nothing when fields are missing or wrong', async () => {
    const { user, calls } = setup();
    await screen.findByLabelText('Card number');
    await user.type(screen.getByLabelText('Card number'), '4242424242424241');
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    expect(screen.getByText('Your card number is invalid.')).toBeInTheDocument();
    expect(screen.getByText("Your card's expiration date is incomplete.")).toBeInTheDocument();
    expect(screen.getByText("Your card's security code is incomplete.")).toBeInTheDocument();
    expect(screen.getByText('Name on card is required.')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByLabelText('Card number'), '2');
    expect(screen.queryByText('Your card number is invalid.')).not.toBeInTheDocument();
  });

  it('pays: shows Processing… while waiting, then moves on to the success URL', async () => {
    let finish!: () => void;
    const delay = new Promise<void>((resolve) => (finish = resolve));
    const { user, calls, onPaid } = setup(OPEN, () => ({ body: { redirectUrl: SUCCESS_URL }, delay }));
    await screen.findByLabelText('Card number');
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    expect(await screen.findByRole('button', { name: /Processing…/ })).toBeDisabled();
    expect(screen.getByLabelText('Card number')).toBeDisabled();
    finish();
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(SUCCESS_URL));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      email: 'buyer@example.com',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12 / 39',
      cvc: '123',
      name: 'Ada Buyer',
    });
  });

  it('shows a decline clearly and stays on the form', async () => {
    const { user, onPaid } = setup(OPEN, () => ({ status: 402, body: { error: { code: 'payment_failed', message: 'Your card was declined.' } } }));
    await screen.findByLabelText('Card number');
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(onPaid).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pay $36.00' })).toBeEnabled();
    expect(screen.getByLabelText('Card number')).toHaveValue('4000 0000 0000 0002');
  });

  it('shows the e-mail the shop fixed and does not send a typed one', async () => {
    const { user, calls } = setup({ ...OPEN, customerEmail: 'member@example.com' });
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('member@example.com');
    expect(email).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry'), '1239');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.type(screen.getByLabelText('Name on card'), 'Member');
    await user.click(screen.getByRole('button', { name: 'Pay $36.00' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ email: null }));
  });

  it('shows a masked e-mail as the server answers it to a browser that did not start the checkout', async () => {
    setup({ ...OPEN, customerEmail: 'm***@example.com' });
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('m***@example.com');
    expect(email).toHaveAttribute('readonly');
  });

  it('explains a paid, an expired and an unknown checkout', async () => {
    setup({ ...OPEN, status: 'complete', successUrl: SUCCESS_URL });
    expect(await screen.findByRole('heading', { name: 'This checkout is already paid' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', SUCCESS_URL);
    cleanup();
    setup({ ...OPEN, status: 'expired' });
    expect(await screen.findByRole('heading', { name: 'This checkout has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Candlewise' })).toHaveAttribute('href', OPEN.cancelUrl);
    cleanup();
    setup({ status: 404, body: { error: { code: 'session_not_found', message: 'This checkout session does not exist.' } } });
    expect(await screen.findByRole('heading', { name: 'Checkout not found' })).toBeInTheDocument();
  });

  it('does not exist in a live shop', async () => {
    const { calls } = setup(OPEN, undefined, { ...SETTINGS, sandbox: [] });
    expect(await screen.findByRole('heading', { name: 'Checkout not found' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
