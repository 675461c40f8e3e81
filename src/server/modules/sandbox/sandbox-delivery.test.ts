import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import type { PaymentEvent } from '../payments/payments.port';
import { deliverSandboxEvents, type SandboxEventQueue } from './sandbox-delivery';

const logger = createLogger('silent');

/**
 * A provider's queue that hands out `perClaim` events at a time, in the order given, and records
 * what is marked delivered (per call) and released.
 */
function queueOf(events: { id: string; lane: string }[], perClaim: number) {
  const pending = events.map(({ id, lane }) => ({ event: { id, type: 'invoice.paid', created: new Date(0), subscriptionId: lane } satisfies PaymentEvent, lane }));
  const marked: string[][] = [];
  const released: string[] = [];
  let claims = 0;
  const queue: SandboxEventQueue = {
    sandbox: {
      claimPendingEvents: async () => {
        claims += 1;
        return pending.splice(0, perClaim);
      },
      readEventObjects: async () => ({ asOf: new Date(0), subscriptions: new Map(), invoices: new Map() }),
      markDelivered: async (...ids) => {
        marked.push(ids);
      },
      releaseEvent: async (id) => {
        released.push(id);
      },
    },
  };
  return { queue, marked, released, claims: () => claims, pending };
}

/** A handler whose deliveries finish when the test says so; `started` lists the events handed over, in order. */
function heldHandler(failing: string[] = []) {
  const started: string[] = [];
  const holds = new Map<string, () => void>();
  const handler = {
    handle: (event: PaymentEvent) => {
      started.push(event.id);
      return new Promise<'processed'>((resolve, reject) => {
        holds.set(event.id, () => (failing.includes(event.id) ? reject(new Error('provider timed out')) : resolve('processed')));
      });
    },
  };
  const finish = (id: string) => holds.get(id)!();
  return { handler, started, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('delivering the sandbox events', () => {
  it('one batch unless told to go on: what is left waits for the next pass', async () => {
    const { queue, marked, claims, pending } = queueOf([{ id: 'e1', lane: 's1' }, { id: 'e2', lane: 's2' }, { id: 'e3', lane: 's3' }], 2);
    const delivered = await deliverSandboxEvents(queue, { handle: async () => 'processed' }, logger, 4);
    expect(delivered).toBe(2);
    expect(marked).toEqual([['e1', 'e2']]);
    expect(claims()).toBe(1);
    expect(pending.map(({ event }) => event.id)).toEqual(['e3']);
  });

  it('going on, a free lane takes the next batch while the slowest lane of the one before is still at work', async () => {
    const { queue, marked } = queueOf([{ id: 'slow', lane: 's1' }, { id: 'quick', lane: 's2' }, { id: 'next-1', lane: 's3' }, { id: 'next-2', lane: 's4' }], 2);
    const { handler, started, finish } = heldHandler();
    const delivery = deliverSandboxEvents(queue, handler, logger, 2, () => true);
    await settle();
    expect(started).toEqual(['slow', 'quick']);
    finish('quick');
    await settle();
    // the first batch is not done (slow is held), yet its free lane already works on the second
    expect(started).toEqual(['slow', 'quick', 'next-1']);
    expect(marked).toEqual([]);
    finish('next-1');
    await settle();
    expect(started).toEqual(['slow', 'quick', 'next-1', 'next-2']);
    finish('next-2');
    await settle();
    // each batch leaves the queue once all of its lanes are done
    expect(marked).toEqual([['next-1', 'next-2']]);
    finish('slow');
    expect(await delivery).toBe(4);
    expect(marked).toEqual([['next-1', 'next-2'], ['quick', 'slow']]);
  });

  it("a subscription whose events two batches share gets them in order: the later waits for the earlier", async () => {
    const { queue } = queueOf([{ id: 'a-1', lane: 'a' }, { id: 'b-1', lane: 'b' }, { id: 'a-2', lane: 'a' }, { id: 'c-1', lane: 'c' }], 2);
    const { handler, started, finish } = heldHandler();
    const delivery = deliverSandboxEvents(queue, handler, logger, 2, () => true);
    await settle();
    expect(started).toEqual(['a-1', 'b-1']);
    finish('b-1');
    await settle();
    // the free lane took a-2's lane from the second batch: it waits for a-1, so nothing new starts
    expect(started).toEqual(['a-1', 'b-1']);
    finish('a-1');
    await settle();
    expect(started).toEqual(['a-1', 'b-1', 'a-2', 'c-1']);
    finish('a-2');
    finish('c-1');
    expect(await delivery).toBe(4);
  });

  it('a failed event goes back only once the delivery ends, so it is not claimed and failed again at once', async () => {
    const { queue, marked, released } = queueOf([{ id: 'bad', lane: 's1' }, { id: 'good', lane: 's2' }, { id: 'later', lane: 's3' }], 2);
    const { handler, finish } = heldHandler(['bad']);
    const delivery = deliverSandboxEvents(queue, handler, logger, 2, () => true);
    await settle();
    finish('bad');
    finish('good');
    await settle();
    expect(released).toEqual([]);
    finish('later');
    expect(await delivery).toBe(2);
    expect(marked).toEqual([['good'], ['later']]);
    expect(released).toEqual(['bad']);
  });

  it('told to stop, claims no more: the lanes finish what they hold', async () => {
    const { queue, pending } = queueOf([{ id: 'e1', lane: 's1' }, { id: 'e2', lane: 's2' }, { id: 'e3', lane: 's3' }], 1);
    let goOn = true;
    const { handler, started, finish } = heldHandler();
    const delivery = deliverSandboxEvents(queue, handler, logger, 2, () => goOn);
    await settle();
    expect(started).toEqual(['e1', 'e2']);
    goOn = false;
    finish('e1');
    finish('e2');
    expect(await delivery).toBe(2);
    expect(pending.map(({ event }) => event.id)).toEqual(['e3']);
  });

  it('a batch that cannot be marked delivered: the other lanes finish, no batch is claimed after, and the failure is thrown', async () => {
    const { queue, pending } = queueOf([{ id: 'e1', lane: 's1' }, { id: 'e2', lane: 's2' }, { id: 'e3', lane: 's3' }, { id: 'e4', lane: 's4' }], 1);
    const { handler, started, finish } = heldHandler();
    const dying = { sandbox: { ...queue.sandbox, markDelivered: async (...ids: string[]) => (ids.includes('e1') ? Promise.reject(new Error('the instance died')) : undefined) } };
    const delivery = deliverSandboxEvents(dying, handler, logger, 2, () => true);
    await settle();
    expect(started).toEqual(['e1', 'e2']);
    finish('e1');
    await settle();
    finish('e2');
    await expect(delivery).rejects.toThrow('the instance died');
    // e2's lane finished; nothing was claimed after the failure
    expect(started).toEqual(['e1', 'e2']);
    expect(pending.map(({ event }) => event.id)).toEqual(['e3', 'e4']);
  });
});
