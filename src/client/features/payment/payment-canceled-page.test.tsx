import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentCanceledPage } from './payment-canceled-page';
import { mockApi, renderPage, resetPaymentTest } from './payment-test-kit';

const renderCanceled = (entries: string[]) => {
  mockApi({});
  return renderPage([{ path: '/payment-canceled', element: <PaymentCanceledPage /> }], entries);
};

afterEach(resetPaymentTest);

describe('/payment-canceled', () => {
  it("says the payment was canceled and offers 'Back' and 'Try Again'", async () => {
    renderCanceled(['/payment-canceled']);
    expect(await screen.findByRole('heading', { name: 'Payment Canceled' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('Try Again goes to the pricing section of the home page', async () => {
    const user = userEvent.setup();
    const { router } = renderCanceled(['/payment-canceled']);
    await user.click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(router.state.location).toMatchObject({ pathname: '/', hash: '#prices' });
  });

  it('Try Again goes to the pricing section of the EU page when the checkout started there', async () => {
    const user = userEvent.setup();
    const { router } = renderCanceled(['/payment-canceled?from=/eu']);
    await user.click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(router.state.location).toMatchObject({ pathname: '/eu', hash: '#prices' });
  });

  it('Back goes back in history', async () => {
    const user = userEvent.setup();
    const { router } = renderCanceled(['/eu', '/payment-canceled?from=/eu']);
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    expect(router.state.location.pathname).toBe('/eu');
  });

  it('Back from a fresh tab (no history) goes to the home page instead', async () => {
    // a fresh tab's history holds this page only (the test document is shared by earlier files)
    vi.spyOn(History.prototype, 'length', 'get').mockReturnValue(1);
    const user = userEvent.setup();
    const { router } = renderCanceled(['/payment-canceled']);
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    expect(router.state.location.pathname).toBe('/');
  });
});
