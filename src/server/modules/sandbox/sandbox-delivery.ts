// Delivery of the sandbox provider's events to the payment event handler, as Stripe's webhooks
// reach it: at-least-once (the handler is idempotent), so several instances, or a route
// delivering right after a payment, may overlap safely.
import type { Logger } from '../../logger';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import type { PaymentEvent, ProviderObjects, SandboxOperations } from '../payments/payments.port';

/** The provider's event queue: what a delivery uses of the sandbox. */
export type SandboxEventQueue = { sandbox: Pick<SandboxOperations, 'claimPendingEvents' | 'readEventObjects' | 'markDelivered' | 'releaseEvent'> };

/** Events claimed at once: a renewal's two events for fifty subscriptions. */
export const BATCH = 100;
/**
 * Subscriptions renewed, and whose events are handled, at once unless told (the database's lanes):
 * each waits on a dozen database round trips, so one at a time left the database and the process
 * mostly idle (13 events/s at a renewal wave; docs/decisions/035 and 043).
 */
export const DEFAULT_LANES = 4;

/** One claimed batch: the objects its events name, and its lanes still at work. */
type Batch = { objects: ProviderObjects; open: number; delivered: string[] };
type Lane = { key: string; events: PaymentEvent[]; batch: Batch };

/**
 * Delivers the pending sandbox events no other deliverer has claimed, each subscription's in
 * order, `lanes` subscriptions at once. The objects the events name are read once a batch and
 * handed over with them; a batch's delivered events leave the queue together once its last lane
 * is done (a crash before then delivers them again, which the handler answers as duplicates).
 * An event that fails goes back for the next pass. Returns how many were delivered.
 *
 * One batch, unless `keepClaiming` says go on: then the next batch is claimed as soon as no
 * subscription is left waiting, so a free lane takes new work instead of idling until the
 * batch's slowest lane is done (a renewal wave 61–63 → 74 events/s, decision 071).
 * A subscription whose events two batches share keeps their order: its later lane waits for the earlier.
 */
export async function deliverSandboxEvents(
  payments: SandboxEventQueue,
  handler: Pick<PaymentEventHandler, 'handle'>,
  logger: Logger,
  lanes = DEFAULT_LANES,
  keepClaiming: () => boolean = () => false,
): Promise<number> {
  const waiting: Lane[] = [];
  const lastOfKey = new Map<string, Promise<void>>();
  const failed: string[] = [];
  let delivered = 0;
  let claims = 0;
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  // a claim or a mark that fails stops the claims; the lanes at work finish, then it is thrown
  let failure = null as { error: unknown } | null;
  const stopOn = (error: unknown) => {
    failure ??= { error };
    exhausted = true;
  };

  async function claimBatch() {
    const claimed = await payments.sandbox.claimPendingEvents(BATCH);
    claims += 1;
    if (claimed.length === 0) {
      exhausted = true;
      return;
    }
    // the subscriptions and invoices they name, read once for all of them instead of once an event
    const objects = await payments.sandbox.readEventObjects(claimed.map(({ event }) => event));
    const batch: Batch = { objects, open: 0, delivered: [] };
    const byKey = new Map<string, Lane>();
    for (const { event, lane: key } of claimed) {
      const lane = byKey.get(key) ?? { key, events: [], batch };
      lane.events.push(event);
      byKey.set(key, lane);
    }
    batch.open = byKey.size;
    waiting.push(...byKey.values());
  }

  async function deliverLane({ events, batch }: Lane) {
    for (const event of events) {
      try {
        await handler.handle(event, 'sandbox', batch.objects);
        batch.delivered.push(event.id);
      } catch (error) {
        logger.error({ err: error, eventId: event.id, type: event.type }, 'sandbox event delivery failed; will retry');
        failed.push(event.id);
      }
    }
    batch.open -= 1;
    if (batch.open > 0) return;
    await payments.sandbox.markDelivered(...batch.delivered);
    delivered += batch.delivered.length;
  }

  async function worker() {
    for (;;) {
      const lane = waiting.shift();
      if (!lane) {
        if (exhausted || (claims > 0 && !keepClaiming())) return;
        claiming ??= claimBatch()
          .catch(stopOn)
          .finally(() => (claiming = null));
        await claiming;
        continue;
      }
      const run = (lastOfKey.get(lane.key) ?? Promise.resolve()).then(() => deliverLane(lane));
      lastOfKey.set(lane.key, run);
      await run.catch(stopOn);
      if (lastOfKey.get(lane.key) === run) lastOfKey.delete(lane.key);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, lanes) }, worker));
  // released only now: within this delivery a failed event, claimed again at once, would fail again at once
  for (const eventId of failed) await payments.sandbox.releaseEvent(eventId);
  if (failure) throw failure.error;
  return delivered;
}
