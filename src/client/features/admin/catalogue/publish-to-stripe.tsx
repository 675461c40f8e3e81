// The console's "Publish to Stripe" (what `npm run admin -- plans publish` does, decision record
// 058): makes at Stripe the Product of each plan and a Price for every price the catalogue sells,
// and says what it did, what failed and why, or, in the sandbox, that nothing was sent.
import { useId } from 'react';
import { billingPeriodWords, pageOfList } from '@shared/catalogue';
import type { PublishResponse } from '@shared/catalogue-contract';
import { formatMoney } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { ApiRequestError } from '@client/lib/api/api-client';
import { usePublishToStripe } from './catalogue-api';

const HOW: Record<PublishResponse['prices'][number]['how'], string> = { created: 'new', kept: 'already there', adopted: 'your existing price, named', sandbox: 'sandbox' };

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The outcome in one sentence: how many prices, and what became of them. */
function summary({ mode, prices }: PublishResponse): string {
  const these = prices.length === 1 ? 'this price' : `these ${prices.length} prices`;
  if (mode === 'sandbox') return `Sandbox: nothing was sent to Stripe. The sandbox charges ${these} straight from your catalogue.`;
  const of = (how: string) => prices.filter((price) => price.how === how).length;
  const parts = [`${of('created')} new`, `${of('kept')} already there`, ...(of('adopted') > 0 ? [`${count(of('adopted'), 'existing price')} named`] : [])];
  return `Published ${count(prices.length, 'price')} to Stripe: ${parts.join(', ')}.`;
}

export function PublishToStripe() {
  const publish = usePublishToStripe();
  const id = useId();
  const failure = publish.error instanceof ApiRequestError ? publish.error.message : 'Stripe could not be reached.';
  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-3">
      <CardTitle id={`${id}-title`}>Stripe prices</CardTitle>
      <CardDescription>
        Makes at Stripe each plan&apos;s product and a price for every price you sell: on each price list, and each sale&apos;s. A Stripe price is never changed: a new price is a new Stripe price for new buyers, and
        members keep the one they bought at. A checkout also makes a missing price the first time it is bought.
      </CardDescription>
      <div className="flex items-center gap-3">
        <Button type="button" size="sm" disabled={publish.isPending} onClick={() => publish.mutate()}>
          {publish.isPending ? 'Publishing…' : 'Publish to Stripe'}
        </Button>
        {publish.isPending ? (
          <p role="status" className="text-sm text-muted">
            Publishing your prices to Stripe, one at a time…
          </p>
        ) : null}
      </div>
      {publish.isError ? (
        <p role="alert" className="text-sm text-red-300">
          Publishing failed: {failure} The prices made before it stay; publish again to finish.
        </p>
      ) : null}
      {publish.data ? (
        <div className="space-y-2">
          <p role="status" className="text-sm text-green-400">
            {summary(publish.data)}
          </p>
          <ul aria-label="Published prices" className="space-y-1 text-xs text-muted">
            {publish.data.prices.map((price) => (
              <li key={price.lookupKey}>
                <span className="font-mono">{price.plan}</span> on {pageOfList(price.list)}: {formatMoney(price.amount, price.currency)} {billingPeriodWords(price.period)}
                {price.id ? <span className="font-mono"> → {price.id}</span> : null} ({HOW[price.how]})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
