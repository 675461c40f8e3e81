import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxPortal } from '@shared/sandbox-contract';
import { SandboxPortalPage } from './sandbox-portal-page';
import { mockFetch, renderAt, SETTINGS, type Answer } from './sandbox-test-kit';

const CUSTOMER = 'cus_sbx_1';
const SUB = {
  id: 'sub_sbx_1',
  planType: 'quarterly' as const,
  status: 'active',
  amount: 7200,
  currency: 'usd',
  intervalMonths: 3,
  currentPeriodEnd: '2030-04-15T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  canceledAt: null,
};
const PORTAL: SandboxPortal = {
  customerId: CUSTOMER,
  email: 'member@example.com',
  card: { brand: 'Visa', last4: '4242' },
  returnUrl: 'http://localhost:3000/dashboard/settings?section=subscription',
  subscriptions: [SUB],
  invoices: [{ id: 'in_1', createdAt: '2030-01-15T12:00:00.000Z', description: '1 × Quarterly plan (2030-01-15 – 2030-04-15)', amountDue: 7200, currency: 'usd', status: 'paid' }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(actions: Record<string, () => Answer> = {}, portal: SandboxPortal | Answer = PORTAL, settings = SETTINGS) {
  const calls = mockFetch(({ method, url }) => {
    if (method === 'GET' && url === `/api/sandbox/portal/${CUSTOMER}`) return 'body' in portal ? (portal as Answer) : { body: portal };
    const action = url.match(/\/subscriptions\/sub_sbx_1\/([a-z-]+)$/)?.[1];
    if (method === 'POST' && action && actions[action]) return actions[action]();
    return undefined;
  });
  renderAt(`/sandbox/portal/${CUSTOMER}`, '/sandbox/portal/:customerId', <SandboxPortalPage />, settings);
  return { calls, user: userEvent.setup() };
}

describe('the sandbox customer portal', () => {
  it('shows the plan, its price and renewal, the card, the invoices and the way back', async () => {
    setup();
    const plan = await screen.findByRole('region', { name: 'Quarterly plan' });
    expect(within(plan).getByText('$72.00 every 3 months')).toBeInTheDocument();
    expect(within(plan).getByText('Active')).toBeInTheDocument();
    expect(within(plan).getByText(/^Renews on April 1[45], 2030$/)).toBeInTheDocument();
    expect(screen.getByText('Visa •••• 4242')).toBeInTheDocument();
    expect(screen.getByText('member@example.com')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /Quarterly plan/ });
    expect(within(row).getByText('$72.00')).toBeInTheDocument();
    expect(within(row).getByText('Paid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Candlewise' })).toHaveAttribute('href', PORTAL.returnUrl);
    expect(screen.getByText('Sandbox — no real money')).toBeInTheDocument();
  });

  it('cancels at period end after confirming, then offers to resume', async () => {
    const { user, calls } = setup({ cancel: () => ({ body: { ...PORTAL, subscriptions: [{ ...SUB, cancelAtPeriodEnd: true }] } }) });
    await user.click(await screen.findByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your Quarterly plan?' });
    expect(within(dialog).getByText(/You keep access until April 1[45], 2030/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    expect(await screen.findByRole('button', { name: 'Resume plan' })).toBeInTheDocument();
    expect(screen.getByText('Cancels soon')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([`/api/sandbox/portal/${CUSTOMER}/subscriptions/sub_sbx_1/cancel`]);
  });

  it('keeps the plan when the member changes their mind', async () => {
    const { user, calls } = setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel plan' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep plan' }));
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    expect(screen.getByText('Active')).toBeInTheDocument();
  });

  it('resumes a plan set to cancel', async () => {
    const { user } = setup({ resume: () => ({ body: PORTAL }) }, { ...PORTAL, subscriptions: [{ ...SUB, cancelAtPeriodEnd: true }] });
    await user.click(await screen.findByRole('button', { name: 'Resume plan' }));
    expect(await screen.findByRole('button', { name: 'Cancel plan' })).toBeInTheDocument();
  });

  it('shows a failed action inline', async () => {
    const { user } = setup({ 'renew-now': () => ({ status: 409, body: { error: { code: 'validation_failed', message: 'This subscription has already ended.' } } }) });
    await user.click(await screen.findByRole('button', { name: 'Simulate period end' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This subscription has already ended.');
  });

  it('shows an ended plan without actions', async () => {
    setup({}, { ...PORTAL, subscriptions: [{ ...SUB, status: 'canceled', canceledAt: '2030-04-15T12:00:00.000Z' }] });
    const plan = await screen.findByRole('region', { name: 'Quarterly plan' });
    expect(within(plan).getByText('Canceled')).toBeInTheDocument();
    expect(within(plan).queryByRole('button')).not.toBeInTheDocument();
  });

  it('explains an unknown portal link', async () => {
    setup({}, { status: 404, body: { error: { code: 'no_customer', message: 'This customer does not exist.' } } });
    expect(await screen.findByRole('heading', { name: 'Billing account not found' })).toBeInTheDocument();
  });
});
