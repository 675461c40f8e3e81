// The sandbox provider's customer portal (/sandbox/portal/:customerId): what Stripe's billing
// portal is for a live shop. Cancel at period end, resume, invoices; plus a demo clock.
import { AlertCircle, ArrowLeft, CreditCard, FastForward, FlaskConical, Receipt } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { formatMoney, planDisplayName } from '@shared/plans';
import type { SandboxPortal, SandboxSubscriptionAction } from '@shared/sandbox-contract';
import { formatDisplayDate } from '@shared/subscription-view';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@client/components/ui/dialog';
import { PageSpinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { notifySuccess } from '@client/lib/notify';
import { useSiteSettings } from '@client/lib/site-settings';
import { useSandboxPortal } from './api/get-sandbox-portal';
import { useUpdateSandboxSubscription } from './api/update-sandbox-subscription';
import { billingOf } from './billing-period';

type Subscription = SandboxPortal['subscriptions'][number];

const formatDate = (iso: string) => formatDisplayDate(new Date(iso));

function statusOf(sub: Subscription): { label: string; tone: BadgeTone; detail: string } {
  const end = formatDate(sub.currentPeriodEnd);
  if (sub.status === 'canceled') return { label: 'Canceled', tone: 'neutral', detail: sub.canceledAt ? `Ended ${formatDate(sub.canceledAt)}` : 'Ended' };
  if (sub.cancelAtPeriodEnd) return { label: 'Cancels soon', tone: 'yellow', detail: `Access until ${end}, then it ends` };
  if (sub.status === 'past_due') return { label: 'Past due', tone: 'red', detail: `The last renewal payment failed. Next attempt ends the plan on ${end}.` };
  return { label: 'Active', tone: 'green', detail: `Renews on ${end}` };
}

const SUCCESS: Record<SandboxSubscriptionAction, string> = {
  cancel: 'Your plan will end at the end of the billing period.',
  resume: 'Your plan will renew as usual.',
  'renew-now': 'The billing period was ended now (sandbox clock).',
};

function SubscriptionCard({ sub, customerId }: { sub: Subscription; customerId: string }) {
  const update = useUpdateSandboxSubscription(customerId);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const status = statusOf(sub);
  const name = `${planDisplayName(sub.planType)} plan`;
  const ended = sub.status === 'canceled';

  async function run(action: SandboxSubscriptionAction) {
    setError(null);
    try {
      await update.mutateAsync({ subscriptionId: sub.id, action });
      setConfirming(false);
      notifySuccess({ title: 'Subscription updated', description: SUCCESS[action] });
    } catch (failure) {
      setConfirming(false);
      setError(failure instanceof ApiRequestError ? failure.message : 'Something went wrong. Please try again.');
    }
  }

  return (
    <Card className="space-y-4" aria-label={name} role="region">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>{name}</CardTitle>
          <CardDescription>
            {formatMoney(sub.amount, sub.currency)} {billingOf({ mode: 'subscription', ...sub })}
          </CardDescription>
        </div>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <p className="text-sm text-muted">{status.detail}</p>
      {error ? (
        <p role="alert" className="flex items-center gap-2 text-sm text-red-300">
          <AlertCircle className="h-4 w-4" aria-hidden="true" />
          {error}
        </p>
      ) : null}
      {ended ? null : (
        <div className="flex flex-wrap gap-3">
          {sub.cancelAtPeriodEnd ? (
            <Button onClick={() => void run('resume')} disabled={update.isPending}>
              {update.isPending ? 'Working…' : 'Resume plan'}
            </Button>
          ) : (
            <Dialog open={confirming} onOpenChange={setConfirming}>
              <Button variant="outline" onClick={() => setConfirming(true)} disabled={update.isPending}>
                Cancel plan
              </Button>
              <DialogContent title={`Cancel your ${name}?`} description={`You keep access until ${formatDate(sub.currentPeriodEnd)}. After that you will not be charged again.`}>
                <div className="flex justify-end gap-3">
                  <DialogClose asChild>
                    <Button variant="ghost">Keep plan</Button>
                  </DialogClose>
                  <Button variant="danger" onClick={() => void run('cancel')} disabled={update.isPending}>
                    {update.isPending ? 'Canceling…' : 'Cancel plan'}
                  </Button>
                </div>
              </DialogContent>
            </Dialog>
          )}
          <Button variant="ghost" onClick={() => void run('renew-now')} disabled={update.isPending} title="Sandbox clock: process the end of the current billing period now">
            <FastForward className="h-4 w-4" aria-hidden="true" />
            Simulate period end
          </Button>
        </div>
      )}
    </Card>
  );
}

const INVOICE_COLUMNS: Column<SandboxPortal['invoices'][number]>[] = [
  { header: 'Date', className: 'pr-3 whitespace-nowrap', cell: (invoice) => formatDate(invoice.createdAt) },
  { header: 'Description', className: 'pr-3', cell: (invoice) => invoice.description },
  { header: 'Amount', headerClassName: 'text-right', className: 'text-right whitespace-nowrap', cell: (invoice) => formatMoney(invoice.amountDue, invoice.currency) },
  {
    header: 'Status',
    headerClassName: 'pl-4 text-right',
    className: 'pl-4 text-right',
    cell: (invoice) => <Badge tone={invoice.status === 'paid' ? 'green' : 'red'}>{invoice.status === 'paid' ? 'Paid' : 'Unpaid'}</Badge>,
  },
];

function Invoices({ invoices }: { invoices: SandboxPortal['invoices'] }) {
  return (
    <Card className="space-y-4">
      <CardTitle className="flex items-center gap-2">
        <Receipt className="h-5 w-5" aria-hidden="true" />
        Invoice history
      </CardTitle>
      {invoices.length === 0 ? (
        <p className="text-sm text-muted">No invoices yet.</p>
      ) : (
        <DataTable columns={INVOICE_COLUMNS} rows={invoices} rowKey={(invoice) => invoice.id} look="plain" />
      )}
    </Card>
  );
}

export function SandboxPortalPage() {
  const { customerId = '' } = useParams();
  const { brandName, sandbox } = useSiteSettings();
  const available = sandbox.includes('payments');
  const portal = useSandboxPortal(customerId, available);
  if (available && portal.isPending) return <PageSpinner label="Loading your billing details…" />;
  if (!available || portal.isError) {
    const missing = !available || (portal.error instanceof ApiRequestError && portal.error.status === 404);
    return (
      <main className="flex min-h-screen items-center justify-center p-6">
        <Card className="max-w-md space-y-4 text-center">
          <h1 className="text-xl font-semibold">{missing ? 'Billing account not found' : 'Billing details unavailable'}</h1>
          <p className="text-sm text-muted">{missing ? 'This portal link is not valid. Open it again from your account settings.' : 'We could not load your billing details. Please try again.'}</p>
          <Button asChild variant="outline">
            <a href="/dashboard/settings?section=subscription">Back to {brandName}</a>
          </Button>
        </Card>
      </main>
    );
  }
  const data = portal.data;
  if (!data) return null;
  return (
    <main className="min-h-screen bg-background">
      <div className="mx-auto max-w-3xl space-y-8 px-6 py-10">
        <header className="space-y-4">
          <a href={data.returnUrl} className="inline-flex items-center gap-2 text-sm text-muted hover:text-foreground">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Return to {brandName}
          </a>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h1 className="text-2xl font-bold">Billing</h1>
            <p className="inline-flex items-center gap-2 rounded-full border border-yellow-500/40 bg-yellow-500/10 px-3 py-1 text-xs font-semibold text-yellow-300">
              <FlaskConical className="h-3.5 w-3.5" aria-hidden="true" />
              Sandbox — no real money
            </p>
          </div>
          <dl className="grid gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-muted">Billed to</dt>
              <dd>{data.email}</dd>
            </div>
            <div>
              <dt className="text-muted">Payment method</dt>
              <dd className="flex items-center gap-2">
                <CreditCard className="h-4 w-4" aria-hidden="true" />
                {data.card ? `${data.card.brand} •••• ${data.card.last4}` : 'None on file'}
              </dd>
            </div>
          </dl>
        </header>
        <section aria-label="Subscriptions" className="space-y-4">
          <h2 className="text-lg font-semibold">Current plans</h2>
          {data.subscriptions.length === 0 ? (
            <p className="text-sm text-muted">No subscriptions. One-time purchases appear in the invoice history.</p>
          ) : (
            data.subscriptions.map((sub) => <SubscriptionCard key={sub.id} sub={sub} customerId={data.customerId} />)
          )}
        </section>
        <Invoices invoices={data.invoices} />
      </div>
    </main>
  );
}
