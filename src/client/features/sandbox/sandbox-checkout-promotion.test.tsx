import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxCheckout as Checkout } from '@shared/sandbox-contract';
import { SandboxCheckout } from './sandbox-checkout-page';
import { mockFetch, renderAt } from './sandbox-test-kit';

const SESSION = 'cs_sbx_promo1';
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
  discount: null,
  allowPromotionCodes: true,
};
const WITH_BF20: Checkout = { ...OPEN, discount: { code: 'BF20', amount: 720, duration: 'once', durationInMonths: null }, allowPromotionCodes: false };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(checkout: Checkout, applied: (code: string) => { status?: number; body: unknown }) {
  const calls = mockFetch(({ method, url, body }) => {
    if (method === 'GET' && url === `/api/sandbox/checkout/${SESSION}`) return { body: checkout };
    if (method === 'POST' && url === `/api/sandbox/checkout/${SESSION}/promotion-code`) return applied((body as { code: string }).code);
    return undefined;
  });
  renderAt(`/sandbox/checkout/${SESSION}`, '/sandbox/checkout/:sessionId', <SandboxCheckout sessionId={SESSION} onPaid={vi.fn()} />);
  return { calls, user: userEvent.setup() };
}

describe('the sandbox checkout with a promotion code', () => {
  it('shows a preset code’s line, and charges the price after it', async () => {
    setup(WITH_BF20, () => ({ body: WITH_BF20 }));
    expect(await screen.findByTestId('checkout-discount')).toHaveTextContent('−$7.20');
    expect(screen.getByText('(on the first payment)')).toBeInTheDocument();
    expect(screen.getByTestId('due-today')).toHaveTextContent('$28.80');
    expect(screen.getByRole('button', { name: 'Pay $28.80' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Add promotion code' })).not.toBeInTheDocument();
  });

  it('lets the buyer add a code: a refused one says why, an accepted one lowers the total', async () => {
    const { user } = setup(OPEN, (code) => (code === 'BF20' ? { body: WITH_BF20 } : { status: 400, body: { error: { code: 'promotion_code_invalid', message: `The code ${code} is not valid.` } } }));
    await user.click(await screen.findByRole('button', { name: 'Add promotion code' }));
    const form = screen.getByRole('form', { name: 'Promotion code' });
    await user.type(within(form).getByLabelText('Promotion code'), 'NOPE');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The code NOPE is not valid.');
    await user.clear(within(form).getByLabelText('Promotion code'));
    await user.type(within(form).getByLabelText('Promotion code'), 'BF20');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByTestId('checkout-discount')).toHaveTextContent('−$7.20');
    expect(screen.getByTestId('due-today')).toHaveTextContent('$28.80');
  });
});
