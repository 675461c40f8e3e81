import { Clock, ListChecks, Receipt, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { GetPaymentDetailsResponse } from '@shared/api-contract';
import { formatMoney, isRecurring, planDisplayName } from '@shared/plans';
import { cn } from '@client/lib/cn';
import { useSiteSettings } from '@client/lib/site-settings';
import { trialNoticeText } from '@client/components/trial-notice';

export const ORDER_TEXTS = {
  summary: 'Order Summary',
  plan: 'Plan',
  amount: 'Amount paid',
  tax: 'Tax included',
  trialAmount: 'Due today',
  discount: (code: string) => `Promotion code ${code}`,
  email: 'Email',
  nextTitle: 'What happens next',
  accessTime: 'TradingView access is usually granted within minutes, but it can take up to 1–2 hours.',
  findScripts: 'In TradingView, open a chart, click Indicators, choose Invite-only scripts and select the indicators.',
} as const;

/** A titled card of the order page's sidebar. */
function Panel({ id, icon: Icon, title, className, children }: { id: string; icon: LucideIcon; title: string; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={cn('rounded-2xl border border-border bg-card/90 p-6', className)}>
      <h2 id={id} className="mb-4 flex items-center gap-2 text-base font-semibold">
        <Icon aria-hidden="true" className="h-4 w-4 text-primary" />
        {title}
      </h2>
      {children}
    </section>
  );
}

function Row({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className={cn('font-medium', className)}>{children}</dd>
    </div>
  );
}

/** What the buyer paid for: plan, amount and the e-mail the receipt went to. */
export function OrderSummary({ details }: { details: Pick<GetPaymentDetailsResponse, 'planType' | 'amountTotal' | 'amountTax' | 'amountDiscount' | 'promotionCode' | 'trial' | 'currency' | 'email'> }) {
  const plan = `${planDisplayName(details.planType)} ${isRecurring(details.planType) ? 'subscription' : 'access'}`;
  // a trial charged nothing today: say when and what is charged (or why the trial was refused)
  const trialText = details.trial ? trialNoticeText(details.trial, false) : null;
  const inTrial = details.trial?.outcome === 'running';
  return (
    <Panel id="order-summary" icon={Receipt} title={ORDER_TEXTS.summary}>
      <dl className="space-y-3 text-sm">
        <Row label={ORDER_TEXTS.plan}>{plan}</Row>
        {details.amountDiscount && details.promotionCode ? <Row label={ORDER_TEXTS.discount(details.promotionCode)}>−{formatMoney(details.amountDiscount, details.currency)}</Row> : null}
        <Row label={inTrial ? ORDER_TEXTS.trialAmount : ORDER_TEXTS.amount}>{formatMoney(details.amountTotal, details.currency)}</Row>
        {details.amountTax ? <Row label={ORDER_TEXTS.tax}>{formatMoney(details.amountTax, details.currency)}</Row> : null}
        <Row label={ORDER_TEXTS.email} className="min-w-0 break-all text-right">
          {details.email}
        </Row>
      </dl>
      {trialText ? (
        <p role="status" data-testid="order-trial" className="mt-4 text-sm text-muted">
          {trialText}
        </p>
      ) : null}
    </Panel>
  );
}

/** Sets expectations: access takes minutes (up to 1–2 hours) and where the scripts appear. */
export function NextSteps() {
  const { supportEmail } = useSiteSettings();
  return (
    <Panel id="next-steps" icon={ListChecks} title={ORDER_TEXTS.nextTitle} className="text-sm">
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
    </Panel>
  );
}
