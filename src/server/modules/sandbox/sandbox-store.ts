// What every part of the sandbox payment provider shares: its dependencies, its id scheme and its
// event outbox (sandbox_events), which the sandbox jobs deliver to fulfilment like Stripe's webhooks.
import { randomBytes } from 'node:crypto';
import { asc, eq, isNull, sql } from 'drizzle-orm';
import type { PlanPrices } from '@shared/plans';
import type { Db } from '../../db/client';
import { sandboxEvents } from '../../db/schema';
import type { PaymentEvent } from '../payments/payments.port';
import type { SandboxTaxSettings } from './sandbox-tax';

export type SandboxDeps = {
  db: Db;
  clock: () => Date;
  /** The price of each plan now (campaign.ts: sale prices while the sale runs, regular after). */
  prices: () => PlanPrices;
  /** Where the portal's "Return" link goes. */
  portalReturnUrl: string;
  /** STRIPE_TAX in the sandbox: VAT by billing country (off when absent). */
  tax?: SandboxTaxSettings;
};

export const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

// Time-sortable ids keep events of one transaction in the order they were emitted.
let eventSequence = 0;
function newEventId(at: Date): string {
  eventSequence = (eventSequence + 1) % 1_000_000;
  return `evt_sbx_${at.getTime().toString(36).padStart(9, '0')}${eventSequence.toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
}

type EventRefs = Omit<PaymentEvent, 'id' | 'type' | 'created'>;

export async function emit(tx: Db, at: Date, type: string, refs: EventRefs): Promise<void> {
  await tx.insert(sandboxEvents).values({ id: newEventId(at), type, payload: refs, createdAt: at });
}

export async function pendingEvents(db: Db, limit: number): Promise<PaymentEvent[]> {
  const rows = await db.select().from(sandboxEvents).where(isNull(sandboxEvents.deliveredAt)).orderBy(asc(sandboxEvents.createdAt), asc(sandboxEvents.id)).limit(limit);
  return rows.map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as EventRefs) }));
}

export async function markDelivered(db: Db, eventId: string): Promise<void> {
  await db.update(sandboxEvents).set({ deliveredAt: sql`now()` }).where(eq(sandboxEvents.id, eventId));
}
