// What every part of the sandbox payment provider shares: its dependencies, its id scheme and its
// event outbox (sandbox_events), which the sandbox jobs deliver to fulfilment like Stripe's webhooks.
import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Catalogue } from '@shared/catalogue';
import type { PlanPrices } from '@shared/plans';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { sandboxEvents } from '../../db/schema';
import type { PaymentEvent } from '../payments/payments.port';
import type { SandboxTaxSettings } from './sandbox-tax';

export type SandboxDeps = {
  db: Db;
  clock: () => Date;
  /** The price of each plan now (campaign.ts: sale prices while the sale runs, regular after). */
  prices: () => PlanPrices;
  /** A vendor's own price list charges its price in its currency (price-lists.ts); null: `prices`. */
  listCharge?: (planType: string, originPage: string | undefined) => { amount: number; currency: string } | null;
  /** The catalogue in effect: which list a checkout sells from, and what a plan change charges on it. */
  catalogue: () => Catalogue;
  /** Where the portal's "Return" link goes. */
  portalReturnUrl: string;
  /** STRIPE_TAX in the sandbox: VAT by billing country (off when absent). */
  tax?: SandboxTaxSettings;
};

/**
 * The metadata key of the price list a checkout sells from and its subscription was bought on (a
 * published Stripe Price's metadata names it the same way, decision record 058).
 */
export const PRICE_LIST_KEY = 'price_list';

export const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

// Time-sortable ids keep events of one transaction in the order they were emitted.
let eventSequence = 0;
function newEventId(at: Date): string {
  eventSequence = (eventSequence + 1) % 1_000_000;
  return `evt_sbx_${at.getTime().toString(36).padStart(9, '0')}${eventSequence.toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
}

type EventRefs = Omit<PaymentEvent, 'id' | 'type' | 'created'>;


export async function emit(tx: Db, at: Date, type: string, refs: EventRefs): Promise<void> {
  await emitAll(tx, at, [[type, refs]]);
}

/** Several events of one moment, in this order, in one statement (a renewal's invoice and subscription events). */
export async function emitAll(tx: Db, at: Date, events: readonly (readonly [type: string, refs: EventRefs])[]): Promise<void> {
  await tx.insert(sandboxEvents).values(events.map(([type, refs]) => ({ id: newEventId(at), type, payload: refs, createdAt: at })));
}

/** How long a claimed event stays off limits to other deliverers (a crashed one's events come back). */
const EVENT_LEASE = sql`interval '30 seconds'`;

/**
 * Claims up to `limit` undelivered events, oldest first, that no other deliverer holds: each
 * payment's route, the sandbox job and every instance deliver at once during a sale, and two of
 * them must not work through the same events (SKIP LOCKED, then the lease). Each comes with its
 * lane: the subscription it concerns, a checkout's own when it started one (so a purchase's
 * events stay together), else its checkout or charge.
 */
export async function claimPendingEvents(db: Db, limit: number): Promise<{ event: PaymentEvent; lane: string }[]> {
  const rows = await queryRows<{ id: string; type: string; payload: EventRefs; created_at: Date | string; checkout_subscription_id: string | null }>(
    db,
    sql`UPDATE sandbox_events SET leased_until = now() + ${EVENT_LEASE}
        WHERE id IN (SELECT id FROM sandbox_events WHERE delivered_at IS NULL AND (leased_until IS NULL OR leased_until < now())
                     ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, type, payload, created_at,
          (SELECT subscription_id FROM sandbox_checkout_sessions WHERE id = sandbox_events.payload->>'checkoutSessionId') AS checkout_subscription_id`,
  );
  return rows
    .map((row) => {
      const event: PaymentEvent = { id: row.id, type: row.type, created: new Date(row.created_at), ...row.payload };
      return { event, lane: event.subscriptionId ?? row.checkout_subscription_id ?? event.checkoutSessionId ?? event.chargeId ?? event.id };
    })
    .sort((a, b) => a.event.created.getTime() - b.event.created.getTime() || (a.event.id < b.event.id ? -1 : 1));
}

export async function markDelivered(db: Db, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.update(sandboxEvents).set({ deliveredAt: sql`now()`, leasedUntil: null }).where(inArray(sandboxEvents.id, [...eventIds]));
}

/** Gives a claimed event back (its delivery failed): the next pass retries it. */
export async function releaseEvent(db: Db, eventId: string): Promise<void> {
  await db.update(sandboxEvents).set({ leasedUntil: null }).where(eq(sandboxEvents.id, eventId));
}
