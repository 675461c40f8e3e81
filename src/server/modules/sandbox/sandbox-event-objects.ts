// The objects a pass's sandbox events name, read together when the events are claimed: the
// handler then needs no re-read per event (docs/decisions/038). They are read after the events
// were emitted, so they are at least as new as any of them, and stamped with the moment before
// the reading, as a re-read would be (an older snapshot never overwrites a newer one).
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxInvoices } from '../../db/schema';
import type { PaymentEvent, ProviderObjects } from '../payments/payments.port';
import { toInvoiceSnapshot } from './sandbox-invoices';
import { subscriptionSnapshots } from './sandbox-subscriptions';

export async function readEventObjects(db: Db, clock: () => Date, events: readonly PaymentEvent[]): Promise<ProviderObjects> {
  const asOf = clock();
  const invoiceIds = [...new Set(events.flatMap((event) => (event.invoiceId ? [event.invoiceId] : [])))];
  const invoiceRows = invoiceIds.length > 0 ? await db.select().from(sandboxInvoices).where(inArray(sandboxInvoices.id, invoiceIds)) : [];
  const invoices = new Map(invoiceRows.map((row) => [row.id, toInvoiceSnapshot(row)]));
  // an invoice event's subscription is its invoice's (the event may name none)
  const subscriptionIds = new Set([
    ...events.flatMap((event) => (event.subscriptionId ? [event.subscriptionId] : [])),
    ...invoiceRows.flatMap((row) => (row.subscriptionId ? [row.subscriptionId] : [])),
  ]);
  return { asOf, invoices, subscriptions: await subscriptionSnapshots(db, [...subscriptionIds]) };
}
