import { CreditCard, ExternalLink, Loader2, RefreshCw, Settings2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { portalError, PORTAL_TEXTS } from '@shared/error-messages';
import { billedEveryText } from '@shared/catalogue';
import { formatMoney, planDisplayName, planPeriod } from '@shared/plans';
import { formatDisplayDate, subscriptionLabel, subscriptionPeriodRow, subscriptionViewFromDto } from '@shared/subscription-view';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { TrialNotice } from '@client/components/trial-notice';
import { toErrorInput } from '@client/lib/api/error-input';
import { useSubscription } from '@client/lib/api/subscription';
import { notifyError } from '@client/lib/notify';
import { cn } from '@client/lib/cn';
import { useCustomerPortal } from '../api/customer-portal';
import { useRefreshSubscription } from '../api/refresh-subscription';
import { CancelSubscription } from './cancel-subscription-dialog';
import { useExternalNavigation } from '../settings-environment';
import { DetailList, DetailRow, SettingsCardHeader, SubscriptionLoadError } from './detail-list';

export const SUBSCRIPTION_CARD_TEXTS = {
  none: 'No subscription found',
  getSubscription: 'Get Subscription',
  manage: 'Manage Subscription',
} as const;

/** The Subscription card: status, plan, renewal or end date, purchase date, price and the billing portal. */
export function SubscriptionCard() {
  const subscription = useSubscription();
  const refreshSubscription = useRefreshSubscription();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await refreshSubscription();
    } catch {
      // The card shows the failed read; nothing more to say in a toast.
    } finally {
      setRefreshing(false);
    }
  };

  const refreshButton = subscription.data?.planType ? (
    <Button variant="ghost" size="icon" className="h-8 w-8 text-muted" aria-label="Refresh subscription status" title="Refresh subscription status" disabled={refreshing} onClick={() => void refresh()}>
      <RefreshCw aria-hidden="true" className={cn('h-4 w-4', refreshing && 'animate-spin')} />
    </Button>
  ) : undefined;

  return (
    <Card role="region" aria-labelledby="subscription-title" aria-busy={subscription.isPending || refreshing}>
      <SettingsCardHeader
        icon={<CreditCard className="h-5 w-5" />}
        title="Subscription"
        titleId="subscription-title"
        description="Your plan and billing."
        action={refreshButton}
      />
      <SubscriptionCardBody subscription={subscription} />
    </Card>
  );
}

function SubscriptionCardBody({ subscription }: { subscription: ReturnType<typeof useSubscription> }) {
  const dto = subscription.data;
  if (subscription.isPending) {
    return (
      <div className="flex min-h-40 items-center justify-center">
        <Spinner label="Loading subscription..." />
      </div>
    );
  }
  // A failed background refresh keeps showing the data already read.
  if (!dto) {
    return <SubscriptionLoadError onRetry={() => void subscription.refetch()} />;
  }
  if (dto.planType === null) {
    return (
      <div className="flex min-h-40 flex-col items-center justify-center gap-4 text-center">
        <p className="text-sm text-muted">{SUBSCRIPTION_CARD_TEXTS.none}</p>
        <Button asChild>
          <Link to="/#pricing">{SUBSCRIPTION_CARD_TEXTS.getSubscription}</Link>
        </Button>
      </div>
    );
  }

  const view = subscriptionViewFromDto(dto);
  const label = subscriptionLabel(view);
  const period = subscriptionPeriodRow(view);
  return (
    <>
      <DetailList>
        <DetailRow label="Status">
          <span className="inline-flex flex-col items-end gap-0.5">
            <span className="inline-flex items-center gap-2">
              <span
                aria-hidden="true"
                data-testid="subscription-status-dot"
                data-dot={label.dot}
                className={cn('h-2.5 w-2.5 rounded-full', label.dot === 'green' ? 'bg-primary shadow-[0_0_8px] shadow-primary/60' : 'bg-muted/60')}
              />
              {label.label}
            </span>
            {label.accessUntil ? <span className="text-xs font-normal text-muted">{label.accessUntil}</span> : null}
          </span>
        </DetailRow>
        <DetailRow label="Plan Type">{planDisplayName(dto.planType)}</DetailRow>
        {period ? <DetailRow label={period.label}>{period.value}</DetailRow> : null}
        <DetailRow label="Purchase Date">{view.purchaseDate ? formatDisplayDate(view.purchaseDate) : '—'}</DetailRow>
        {dto.amount !== null && dto.currency !== null ? (
          <DetailRow label="Price">{formatMoney(dto.amount, dto.currency)}</DetailRow>
        ) : null}
        {/* the plan's own period, whatever it is (a week, 2 weeks, 3 months…): catalogue.ts */}
        <DetailRow label="Billing">{billedEveryText(planPeriod(dto.planType))}</DetailRow>
      </DetailList>
      <div className="mt-4">
        <TrialNotice canceled={dto.isCanceled} />
      </div>
      <ManageSubscription />
      {/* a plan that renews and is not already ending: the cancellation flow with its offers */}
      {dto.canCancel ? <CancelSubscription /> : null}
    </>
  );
}

function ManageSubscription() {
  const portal = useCustomerPortal();
  const navigation = useExternalNavigation();
  const [setupUrl, setSetupUrl] = useState<string | null>(null);

  const open = async () => {
    setSetupUrl(null);
    try {
      const result = await portal.mutateAsync();
      if ('url' in result) {
        navigation.assign(result.url);
        return;
      }
      notifyError(portalError({ configurationRequired: true }));
      setSetupUrl(result.setupUrl);
    } catch (error) {
      notifyError(portalError(toErrorInput(error)));
    }
  };

  return (
    <div className="mt-5 space-y-3">
      <Button variant="secondary" className="w-full" disabled={portal.isPending} onClick={() => void open()}>
        {portal.isPending ? (
          <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
        ) : (
          <Settings2 aria-hidden="true" className="h-4 w-4" />
        )}
        {SUBSCRIPTION_CARD_TEXTS.manage}
      </Button>
      {setupUrl !== null ? (
        <div role="alert" className="rounded-xl border border-warning/30 bg-warning/10 p-4 text-sm">
          <p className="font-semibold text-warning">{PORTAL_TEXTS.setupRequired.title}</p>
          <p className="mt-1 text-foreground/85">{PORTAL_TEXTS.setupRequired.description}</p>
          {setupUrl ? (
            <a href={setupUrl} target="_blank" rel="noreferrer" className="mt-2 inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
              Open the portal settings
              <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
            </a>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
