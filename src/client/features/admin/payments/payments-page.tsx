import { Link, useSearchParams } from 'react-router';
import { withChanges } from '@client/lib/search-params';
import { ORDER_STATUSES, orderFilterSchema, type OrderFilter, type OrderItem } from '@shared/admin-ops-contract';
import { PLAN_TYPES } from '@shared/plans';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { CsvDownload } from '../components/csv-download';
import { Spinner } from '@client/components/ui/spinner';
import { EmailAddress } from '@client/components/email-address';
import { formatMoney } from '@shared/plans';
import { dateTimeText, orderStatusLabel, planLabel } from '@client/lib/console-format';
import { RefundOrderButton } from './refund-order';
import { useOrders, usePaymentEvents, useReplayEvent } from './payments-api';
import { CONSOLE_FIELD } from '@client/components/console/admin-page';

/** The filter the URL names (?status=&plan=&from=&to=); a malformed value is left out. */
function filterOf(params: URLSearchParams): OrderFilter {
  const filter: Record<string, string> = {};
  for (const key of ['plan', 'status', 'from', 'to'] as const) {
    const value = params.get(key);
    if (value && orderFilterSchema.shape[key].safeParse(value).success) filter[key] = value;
  }
  return filter as OrderFilter;
}

const ORDER_COLUMNS: Column<OrderItem>[] = [
  { header: 'Date', cell: (order) => dateTimeText(order.createdAt) },
  {
    header: 'Buyer',
    cell: (order) =>
      order.userId ? (
        <Link to={`/admin/members/${order.userId}`} className="font-medium text-white hover:text-primary">
          {order.email ? <EmailAddress email={order.email} /> : order.userId}
        </Link>
      ) : order.email ? (
        <EmailAddress email={order.email} />
      ) : (
        '—'
      ),
  },
  { header: 'Plan', cell: (order) => planLabel(order.planType) },
  { header: 'Amount', cell: (order) => formatMoney(order.amount, order.currency) },
  {
    header: 'Status',
    cell: (order) => <Badge tone={order.status === 'paid' ? 'green' : order.status === 'refunded' ? 'yellow' : 'red'}>{orderStatusLabel(order.status)}</Badge>,
  },
  { header: '', className: 'text-right', cell: (order) => <RefundOrderButton order={order} /> },
];

function OrderRows({ orders, label }: { orders: OrderItem[]; label: string }) {
  return <DataTable columns={ORDER_COLUMNS} rows={orders} rowKey={(order) => order.id} caption={label} look="compact" />;
}

function Orders() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const orders = useOrders(filter);
  const set = (key: keyof OrderFilter, value: string) => {
    setParams(withChanges(params, { [key]: value }), { replace: true });
  };
  return (
    <Card aria-labelledby="orders" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="orders">Orders</CardTitle>
        <CsvDownload kind="orders" />
      </div>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => event.preventDefault()}>
        <label className="grid gap-1 text-sm">
          Plan
          <select className={CONSOLE_FIELD} value={filter.plan ?? ''} onChange={(event) => set('plan', event.target.value)}>
            <option value="">All plans</option>
            {PLAN_TYPES.map((plan) => (
              <option key={plan} value={plan}>
                {planLabel(plan)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          Status
          <select className={CONSOLE_FIELD} value={filter.status ?? ''} onChange={(event) => set('status', event.target.value)}>
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {orderStatusLabel(status)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          From
          <input type="date" className={CONSOLE_FIELD} value={filter.from ?? ''} onChange={(event) => set('from', event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm">
          To
          <input type="date" className={CONSOLE_FIELD} value={filter.to ?? ''} onChange={(event) => set('to', event.target.value)} />
        </label>
      </form>
      {orders.isPending ? (
        <Spinner label="Loading orders..." />
      ) : orders.isError ? (
        <p role="alert" className="text-sm text-danger">
          {orders.error.message}
        </p>
      ) : orders.data.orders.length === 0 ? (
        <p className="text-sm text-muted">No orders match.</p>
      ) : (
        <>
          <OrderRows orders={orders.data.orders} label="Orders" />
          {orders.data.limited ? <p className="text-sm text-muted">Showing the newest 200; narrow the filter to see older ones.</p> : null}
        </>
      )}
    </Card>
  );
}

function RefundsAndDisputes() {
  const refunded = useOrders({ status: 'refunded' });
  const disputed = useOrders({ status: 'disputed' });
  const rows = [...(refunded.data?.orders ?? []), ...(disputed.data?.orders ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <Card aria-labelledby="refunds" className="space-y-4">
      <CardTitle id="refunds">Refunds and disputes</CardTitle>
      {refunded.isPending || disputed.isPending ? <Spinner label="Loading..." /> : rows.length === 0 ? <p className="text-sm text-muted">None.</p> : <OrderRows orders={rows} label="Refunds and disputes" />}
    </Card>
  );
}

function Events() {
  const events = usePaymentEvents();
  const replay = useReplayEvent();
  return (
    <Card aria-labelledby="events" className="space-y-4">
      <div>
        <CardTitle id="events">Provider events</CardTitle>
        <CardDescription>Failures first: an event fulfilment could not apply can be replayed through the same path.</CardDescription>
      </div>
      {replay.isSuccess ? <p role="status" className="text-sm text-muted">Replayed: {replay.data}.</p> : null}
      {replay.isError ? (
        <p role="alert" className="text-sm text-danger">
          {replay.error.message}
        </p>
      ) : null}
      {events.isPending ? (
        <Spinner label="Loading events..." />
      ) : events.isError ? (
        <p role="alert" className="text-sm text-danger">
          {events.error.message}
        </p>
      ) : (
        <>
          <h3 className="text-sm font-semibold">Failures ({events.data.failures.filter((failure) => !failure.resolvedAt).length} open)</h3>
          {events.data.failures.length === 0 ? <p className="text-sm text-muted">None.</p> : null}
          <ul className="space-y-2 text-sm">
            {events.data.failures.map((failure) => (
              <li key={failure.id} className="flex items-start justify-between gap-3 border-t border-border pt-2">
                <span>
                  <span className="font-mono">{failure.kind === 'signature' ? 'bad signature' : `${failure.type} ${failure.eventId}`}</span>
                  <span className="block text-muted">
                    {dateTimeText(failure.lastFailedAt)} · {failure.attempts} attempt{failure.attempts === 1 ? '' : 's'} · {failure.error}
                  </span>
                </span>
                {failure.resolvedAt ? (
                  <Badge tone="green">resolved</Badge>
                ) : failure.kind === 'handler' ? (
                  <Button size="sm" variant="outline" disabled={replay.isPending} onClick={() => replay.mutate(failure.id)}>
                    Replay
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          <h3 className="text-sm font-semibold">Processed</h3>
          <ul className="space-y-1 text-sm">
            {events.data.processed.map((event) => (
              <li key={event.id} className="flex justify-between gap-3">
                <span className="font-mono">{event.type}</span>
                <span className="text-muted">{dateTimeText(event.processedAt)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/** /admin/payments: orders (filters in the query string), refunds and disputes, provider events. */
export function PaymentsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Payments and events</h1>
      <Orders />
      <RefundsAndDisputes />
      <Events />
    </div>
  );
}
