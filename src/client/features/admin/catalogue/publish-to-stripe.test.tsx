import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOGUE_PATHS, type PublishResponse } from '@shared/catalogue-contract';
import { deferredReply, errorReply, renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { PublishToStripe } from './publish-to-stripe';

afterEach(resetAfterTest);

const PUBLISH = `POST ${CATALOGUE_PATHS.publish}`;
const monthly = { plan: 'monthly', list: '/', amount: 4700, currency: 'usd', period: { unit: 'month', count: 1 }, lookupKey: 'cw_default_monthly_4700_usd_1month_exclusive' } as const;
const weekly = { plan: 'weekly', list: 'partners', amount: 1500, currency: 'eur', period: { unit: 'week', count: 1 }, lookupKey: 'cw_partners_weekly_1500_eur_1week_exclusive' } as const;
const lifetime = { plan: 'lifetime', list: 'eu', amount: 54999, currency: 'usd', period: null, lookupKey: 'cw_eu_lifetime_54999_usd_once_exclusive' } as const;

const show = () => renderRoutes([{ path: '/', element: <PublishToStripe /> }]);

describe('the console\'s "Publish to Stripe"', () => {
  it('says it is publishing while it does, then what it published, price by price', async () => {
    const reply = deferredReply();
    const api = stubApi({ [PUBLISH]: reply.route });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Publish to Stripe' }));
    expect(await screen.findByRole('button', { name: 'Publishing…' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Publishing your prices to Stripe, one at a time…');
    expect(api.callsTo('POST', CATALOGUE_PATHS.publish)).toHaveLength(1);

    const answer: PublishResponse = {
      mode: 'stripe',
      prices: [
        { ...monthly, id: 'price_monthly', how: 'adopted' },
        { ...weekly, id: 'price_1', how: 'created' },
        { ...lifetime, id: 'price_2', how: 'kept' },
      ],
    };
    reply.resolve({ body: answer });
    expect(await screen.findByText('Published 3 prices to Stripe: 1 new, 1 already there, 1 existing price named.')).toHaveRole('status');
    expect(screen.getAllByRole('status')).toHaveLength(1);
    const lines = within(screen.getByRole('list', { name: 'Published prices' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(lines).toEqual([
      'monthly on /: $47.00 per month → price_monthly (your existing price, named)',
      'weekly on /partners: €15.00 per week → price_1 (new)',
      'lifetime on /eu: $549.99 one-time payment → price_2 (already there)',
    ]);
    expect(screen.getByRole('button', { name: 'Publish to Stripe' })).toBeEnabled();
  });

  it('in the sandbox, says that nothing was sent to Stripe and which prices the sandbox charges', async () => {
    stubApi({ [PUBLISH]: { body: { mode: 'sandbox', prices: [{ ...monthly, id: null, how: 'sandbox' }] } satisfies PublishResponse } });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Publish to Stripe' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Sandbox: nothing was sent to Stripe. The sandbox charges this price straight from your catalogue.');
    expect(screen.getByRole('listitem')).toHaveTextContent('monthly on /: $47.00 per month (sandbox)');
  });

  it("says why it failed, with Stripe's reason, and that publishing again finishes it", async () => {
    stubApi({ [PUBLISH]: errorReply(502, 'provider_unavailable', 'The payment provider refused the request: Invalid API Key provided: sk_live_****') });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Publish to Stripe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Publishing failed: The payment provider refused the request: Invalid API Key provided: sk_live_**** The prices made before it stay; publish again to finish.',
    );
    expect(screen.queryByRole('list', { name: 'Published prices' })).toBeNull();
  });
});
