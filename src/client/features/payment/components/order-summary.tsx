import { Clock, ListChecks, Receipt } from 'lucide-react';
import type { GetPaymentDetailsResponse } from '@shared/api-contract';
import { formatMoney, isRecurring, planDisplayName } from '@shared/plans';
import { useSiteSettings } from '@client/lib/site-settings';

export const ORDER_TEXTS = {
  summary: 'Order Summary',
  plan: 'Plan',
  amount: 'Amount paid',
  email: 'Email',
  nextTitle: 'What happens next',
  accessTime: 'TradingView access is usually granted within minutes, but it can take up to 1–2 hours.',
  findScripts: 'In TradingView, open a chart, click Indicators, choose Invite-only scripts and select the indicators.',
} as const;

/** What the buyer paid for: plan, amount and the e-mail the receipt went to. */
export function OrderSummary({ details }: { details: Pick<GetPaymentDetailsResponse, 'planType' | 'amountTotal' | 'currency' | 'email'> }) {
  const plan = `${planDisplayName(details.planType)} ${isRecurring(details.planType) ? 'subscription' : 'access'}`;
  return (
    <section aria-labelledby="order-summary" className="rounded-2xl border border-border bg-card/90 p-6">
      <h2 id="order-summary" className="mb-4 flex items-center gap-2 text-base font-semibold">
        <Receipt aria-hidden="true" className="h-4 w-4 text-primary" />
        {ORDER_TEXTS.summary}
      </h2>
      <dl className="space-y-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{ORDER_TEXTS.plan}</dt>
          <dd className="font-medium">{plan}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{ORDER_TEXTS.amount}</dt>
          <dd className="font-medium">{formatMoney(details.amountTotal, details.currency)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{ORDER_TEXTS.email}</dt>
          <dd className="min-w-0 break-all text-right font-medium">{details.email}</dd>
        </div>
      </dl>
    </section>
  );
}

/** Sets expectations: access takes minutes (up to 1–2 hours) and where the scripts appear. */
export function NextSteps() {
  const { supportEmail } = useSiteSettings();
  return (
    <section aria-labelledby="next-steps" className="rounded-2xl border border-border bg-card/90 p-6 text-sm">
      <h2 id="next-steps" className="mb-4 flex items-center gap-2 text-base font-semibold">
        <ListChecks aria-hidden="true" className="h-4 w-4 text-primary" />
        {ORDER_TEXTS.nextTitle}
      </h2>
      <ul className="space-y-3 text-muted">
        <li className="flex gap-2">
          <Clock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
          <span>{ORDER_TEXTS.accessTime}</span>
        </li>
        <li className="flex gap-2">
          <ListChecks aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
          <span>{ORDER_TEXTS.findScripts}</span>
        </li>
      </ul>
      <p className="mt-4 text-muted">
        Questions? Write to{' '}
        <a href={`mailto:${supportEmail}`} className="text-primary underline-offset-4 hover:underline">
          {supportEmail}
        </a>
        .
      </p>
    </section>
  );
}
