import { ExternalLink, FileText } from 'lucide-react';
import type { InvoiceDto } from '@shared/api-contract';
import { formatMoney } from '@shared/plans';
import { formatDisplayDate } from '@shared/subscription-view';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { cn } from '@client/lib/cn';
import { useInvoices } from '../api/get-invoices';

export const INVOICES_TEXTS = {
  title: 'Invoices',
  description: 'Every payment, with the tax it included.',
  loading: 'Loading invoices...',
  empty: 'No invoices yet. Your invoices appear here after your first payment.',
  failed: 'Your invoices could not be loaded.',
  retry: 'Try Again',
  view: 'View',
  pdf: 'PDF',
} as const;

const STATUS_LABELS: Record<string, string> = { paid: 'Paid', open: 'Due', void: 'Void', uncollectible: 'Uncollectible', draft: 'Draft' };

/** Settings → Subscription: the member's invoices (date, amount, tax, status, the invoice or its PDF). */
export function InvoicesCard() {
  const invoices = useInvoices();
  return (
    <Card role="region" aria-labelledby="invoices-title" aria-busy={invoices.isFetching}>
      <div className="mb-5 flex items-start gap-3">
        <span aria-hidden="true" className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary">
          <FileText className="h-5 w-5" />
        </span>
        <div>
          <h2 id="invoices-title" className="text-lg font-semibold leading-tight">
            {INVOICES_TEXTS.title}
          </h2>
          <p className="mt-1 text-sm text-muted">{INVOICES_TEXTS.description}</p>
        </div>
      </div>
      <InvoicesBody invoices={invoices} />
    </Card>
  );
}

function InvoicesBody({ invoices }: { invoices: ReturnType<typeof useInvoices> }) {
  if (invoices.isPending) {
    return (
      <div className="flex min-h-24 items-center justify-center">
        <Spinner label={INVOICES_TEXTS.loading} />
      </div>
    );
  }
  if (!invoices.data) {
    // A provider outage says so (the server's own words); any other failure the general text.
    const reason = invoices.error instanceof ApiRequestError && invoices.error.code === 'provider_unavailable' ? invoices.error.message : null;
    return (
      <div className="flex min-h-24 flex-col items-center justify-center gap-3 text-center">
        <p role="alert" className="text-sm font-medium text-danger">
          {INVOICES_TEXTS.failed}
          {reason ? ` ${reason}` : ''}
        </p>
        <Button variant="secondary" size="sm" disabled={invoices.isFetching} onClick={() => void invoices.refetch()}>
          {INVOICES_TEXTS.retry}
        </Button>
      </div>
    );
  }
  if (invoices.data.invoices.length === 0) return <p className="py-6 text-center text-sm text-muted">{INVOICES_TEXTS.empty}</p>;
  return (
    <table className="w-full text-sm">
      <thead>
        <tr className="text-left text-xs uppercase tracking-wide text-muted">
          <th scope="col" className="pb-2 font-medium">Date</th>
          <th scope="col" className="pb-2 text-right font-medium">Amount</th>
          <th scope="col" className="pb-2 text-right font-medium">Tax</th>
          <th scope="col" className="pb-2 pl-4 font-medium">Status</th>
          <th scope="col" className="pb-2 text-right font-medium">
            <span className="sr-only">Invoice</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border/70">
        {invoices.data.invoices.map((invoice) => (
          <InvoiceRow key={invoice.id} invoice={invoice} />
        ))}
      </tbody>
    </table>
  );
}

function InvoiceRow({ invoice }: { invoice: InvoiceDto }) {
  const date = formatDisplayDate(new Date(invoice.createdAt));
  const label = invoice.number ?? date;
  return (
    <tr>
      <td className="py-3">{date}</td>
      <td className="py-3 text-right font-medium tabular-nums">{formatMoney(invoice.total, invoice.currency)}</td>
      <td className="py-3 text-right tabular-nums text-muted">{formatMoney(invoice.amountTax, invoice.currency)}</td>
      <td className="py-3 pl-4">
        <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', invoice.status === 'paid' ? 'bg-primary/15 text-primary' : 'bg-white/10 text-muted')}>
          {STATUS_LABELS[invoice.status] ?? invoice.status}
        </span>
      </td>
      <td className="py-3 text-right">
        <span className="inline-flex gap-3">
          {invoice.url ? <InvoiceLink href={invoice.url} text={INVOICES_TEXTS.view} label={`View invoice of ${label}`} /> : null}
          {invoice.pdfUrl ? <InvoiceLink href={invoice.pdfUrl} text={INVOICES_TEXTS.pdf} label={`Download the PDF of the invoice of ${label}`} /> : null}
        </span>
      </td>
    </tr>
  );
}

function InvoiceLink({ href, text, label }: { href: string; text: string; label: string }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" aria-label={label} className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
      {text}
      <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
    </a>
  );
}
