import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { InvoiceDto } from '@shared/api-contract';
import { deferredReply, errorReply, resetAfterTest } from '@client/test/render';
import { mockApi, renderSettings, subscriptionDto } from './settings-test-kit';

afterEach(resetAfterTest);

const invoicesCard = () => screen.findByRole('region', { name: 'Invoices' });

function invoice(overrides: Partial<InvoiceDto> = {}): InvoiceDto {
  return {
    id: 'in_1',
    number: 'CW-0001',
    createdAt: '2025-03-04T12:00:00.000Z',
    status: 'paid',
    total: 4284,
    amountTax: 684,
    currency: 'usd',
    url: 'https://invoice.stripe.com/i/acct_1/in_1',
    pdfUrl: 'https://pay.stripe.com/invoice/acct_1/in_1/pdf',
    ...overrides,
  };
}

describe('Settings → Subscription: Invoices', () => {
  it('lists each invoice with its date, amount, tax, status and links to the invoice and its PDF', async () => {
    mockApi({
      'GET /api/invoices': {
        body: {
          invoices: [
            invoice(),
            invoice({ id: 'in_sbx_2', number: null, createdAt: '2025-02-01T12:00:00.000Z', status: 'open', total: 54999, amountTax: 0, url: '/sandbox/receipts/in_sbx_2', pdfUrl: null }),
          ],
        },
      },
    });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await invoicesCard();
    const rows = await within(card).findAllByRole('row');
    // the header row, then one row per invoice, newest first as the server sent them
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'Amount', 'Tax', 'Status', 'Invoice']);
    expect(within(rows[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['March 4, 2025', '$42.84', '$6.84', 'Paid', 'ViewPDF']);
    expect(within(rows[1]!).getByRole('link', { name: 'View invoice of CW-0001' })).toHaveAttribute('href', 'https://invoice.stripe.com/i/acct_1/in_1');
    expect(within(rows[1]!).getByRole('link', { name: 'Download the PDF of the invoice of CW-0001' })).toHaveAttribute('href', 'https://pay.stripe.com/invoice/acct_1/in_1/pdf');
    expect(within(rows[2]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['February 1, 2025', '$549.99', '$0.00', 'Due', 'View']);
    expect(within(rows[2]!).getByRole('link', { name: 'View invoice of February 1, 2025' })).toHaveAttribute('href', '/sandbox/receipts/in_sbx_2');
  });

  it('shows the invoices of a lifetime plan too', async () => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ planType: 'lifetime', expiresAt: null }) }, 'GET /api/invoices': { body: { invoices: [invoice({ total: 54999, amountTax: 0 })] } } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await invoicesCard();
    expect(await within(card).findByText('$549.99')).toBeInTheDocument();
  });

  it('says so when there is no invoice yet', async () => {
    mockApi({ 'GET /api/invoices': { body: { invoices: [] } } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await invoicesCard();
    expect(await within(card).findByText('No invoices yet. Your invoices appear here after your first payment.')).toBeInTheDocument();
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a loading state while the invoices are read', async () => {
    const reply = deferredReply();
    mockApi({ 'GET /api/invoices': reply.route });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await invoicesCard();
    expect(within(card).getByText('Loading invoices...')).toBeInTheDocument();
    reply.resolve({ body: { invoices: [invoice()] } });
    expect(await within(card).findByText('$42.84')).toBeInTheDocument();
  });

  it('a provider outage is a visible, retryable state, not a blank list', async () => {
    const api = mockApi({ 'GET /api/invoices': errorReply(503, 'provider_unavailable', 'The payment provider is temporarily unavailable. Please try again.') });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=subscription');
    const card = await invoicesCard();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Your invoices could not be loaded. The payment provider is temporarily unavailable. Please try again.');

    api.set('GET /api/invoices', { body: { invoices: [invoice()] } });
    await user.click(within(card).getByRole('button', { name: 'Try Again' }));
    expect(await within(card).findByText('$42.84')).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('appears with the subscription, not on the account or plan-change sections', async () => {
    mockApi();
    renderSettings('/dashboard/settings?section=account');
    await screen.findByRole('region', { name: 'My Account' });
    expect(screen.queryByRole('region', { name: 'Invoices' })).not.toBeInTheDocument();
  });
});
