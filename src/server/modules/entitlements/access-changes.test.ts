// The entitlements core as its subscribers see it: every change of a member's access is recorded
// with the write that made it, named for the lifecycle, and delivered at least once, also when
// the delivery right after the commit never happens (a crash) or a subscriber is down.
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccessChange, AccessSubscriber } from '@shared/access-changes';
import type { MailTemplate } from '@shared/mail-intents';
import { composeEntitlements } from '../../composition';
import { accessChangeDeliveries, outbox } from '../../db/schema';
import { billingSuite, buy, DAY_MS, jobsOf, rowsOfSession, sandboxOf, signUp, userIdOf } from '../../test-support/billing-test-kit';
import type { TestApp } from '../../test-support/test-app';
import { changesOfMember } from './access-changes.repository';
import { createEntitlements } from './entitlements';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));
afterAll(() => time.set(new Date()));

const kindsOf = async (userId: string) => (await changesOfMember(t.deps.database.db, userId, 50)).map((change) => change.kind).reverse();
const mailsTo = (to: string, template: MailTemplate) => t.deps.database.db.select().from(outbox).where(and(eq(outbox.to, to), eq(outbox.template, template)));
const deliveriesOf = (subscriber: string) => t.deps.database.db.select().from(accessChangeDeliveries).where(eq(accessChangeDeliveries.subscriber, subscriber));

async function member(name: string) {
  const address = email(name);
  const cookie = await signUp(t, address);
  return { address, cookie, userId: await userIdOf(t, cookie) };
}

describe('the lifecycle of a paid plan, as recorded changes', () => {
  it('bought, plan changed (with its mail), canceled at period end, ended with time', async () => {
    const buyer = await member('lifecycle');
    const sessionId = await buy(t, buyer.address, { planType: 'monthly' }, buyer.cookie);
    expect(await kindsOf(buyer.userId)).toEqual(['bought']);

    expect((await t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie: buyer.cookie })).status).toBe(200);
    const [planChange] = await changesOfMember(t.deps.database.db, buyer.userId, 1);
    expect(planChange).toMatchObject({ kind: 'plan_changed', previousPlanType: 'monthly', planType: 'quarterly', hasAccess: true });
    expect(await mailsTo(buyer.address, 'plan_changed')).toHaveLength(1);

    const [row] = await rowsOfSession(t, sessionId);
    await sandboxOf(t).sandbox.setCancelAtPeriodEnd(row!.providerCustomerId!, row!.providerSubscriptionId!, true);
    await jobsOf(t).runOnce();
    expect(await kindsOf(buyer.userId)).toEqual(['bought', 'plan_changed', 'canceled']);

    await t.jobs.accessChanges.runOnce(); // starts the expiry watch at "now"
    time.set(new Date(row!.expiresAt!.getTime() + 120 * DAY_MS));
    await t.jobs.accessChanges.runOnce();
    const [ended] = await changesOfMember(t.deps.database.db, buyer.userId, 1);
    expect(ended).toMatchObject({ kind: 'ended', planType: 'quarterly', hasAccess: false, expiresAt: null });
    // the row whose access ended, as the mails name it
    const [endedRow] = await rowsOfSession(t, sessionId);
    expect(ended).toMatchObject({ rowId: endedRow!.id, canceled: true, complimentary: false, periodEnd: endedRow!.expiresAt });
    time.set(new Date());
  });

  it('comp given and taken by an operator', async () => {
    const guest = await member('comped');
    await t.services.entitlements.write((writer) => writer.giveComp(guest.userId, new Date(time.now().getTime() + 7 * DAY_MS)));
    const revoked = await t.services.members.revokeAccess({ id: 'op', email: 'ops@example.com' } as never, guest.userId);
    expect(revoked.message).toContain('Access revoked');
    expect(await kindsOf(guest.userId)).toEqual(['comp_given', 'comp_taken']);
  });

  it('a repeat of the same write records nothing', async () => {
    const buyer = await member('repeat');
    const sessionId = await buy(t, buyer.address, { planType: 'yearly' }, buyer.cookie);
    const claim = await t.services.billing.claimCheckoutSession(sessionId, buyer.userId);
    expect(claim.alreadyClaimed).toBe(true);
    await t.services.billing.syncUser({ id: buyer.userId, email: buyer.address });
    expect(await kindsOf(buyer.userId)).toEqual(['bought']);
  });
});

describe('access that ends with time', () => {
  async function canceledBuyer(name: string) {
    const buyer = await member(name);
    const [row] = await rowsOfSession(t, await buy(t, buyer.address, { planType: 'monthly' }, buyer.cookie));
    await sandboxOf(t).sandbox.setCancelAtPeriodEnd(row!.providerCustomerId!, row!.providerSubscriptionId!, true);
    await jobsOf(t).runOnce();
    return { ...buyer, row: row!, endsAt: row!.expiresAt! };
  }
  const passAt = async (at: Date) => {
    time.set(at);
    await t.jobs.accessChanges.runOnce();
  };
  const noticesOf = async (userId: string) => (await changesOfMember(t.deps.database.db, userId, 50)).filter((change) => change.kind === 'ending_soon');

  it("\"ending soon\" is recorded once per row and period end when a canceled plan's last three days begin, whatever the passes and instances", async () => {
    const buyer = await canceledBuyer('ending-soon');
    await passAt(new Date(buyer.endsAt.getTime() - 4 * DAY_MS));
    expect(await noticesOf(buyer.userId)).toEqual([]);

    await passAt(new Date(buyer.endsAt.getTime() - 3 * DAY_MS + 60_000));
    await passAt(new Date(buyer.endsAt.getTime() - 2 * DAY_MS));
    // a clock put back, and two instances passing at once
    await passAt(new Date(buyer.endsAt.getTime() - 3 * DAY_MS + 120_000));
    const other = composeEntitlements({ db: t.deps.database.db, clock: time.clock, logger: t.deps.logger, subscribers: [] });
    await Promise.all([t.jobs.accessChanges.runOnce(), other.accessChanges.runOnce()]);

    expect(await noticesOf(buyer.userId)).toEqual([
      expect.objectContaining({ kind: 'ending_soon', planType: 'monthly', hasAccess: true, expiresAt: buyer.endsAt, rowId: buyer.row.id, canceled: true, complimentary: false, periodEnd: buyer.endsAt }),
    ]);
    time.set(new Date());
  });

  it("the period's end is recorded as \"ended\" also when the provider switched the row off first, and once when the stretch is swept again", async () => {
    const buyer = await canceledBuyer('switched-off-first');
    await passAt(time.now());
    // the provider's deletion arrives just after the period end, before the watch's next pass
    time.set(new Date(buyer.endsAt.getTime() + 60_000));
    await jobsOf(t).runOnce();
    expect((await rowsOfSession(t, buyer.row.checkoutSessionId!))[0]).toMatchObject({ isActive: false });
    await passAt(new Date(buyer.endsAt.getTime() + 120_000));
    // a clock put back before the end sweeps the stretch again
    await passAt(new Date(buyer.endsAt.getTime() - DAY_MS));
    await passAt(new Date(buyer.endsAt.getTime() + DAY_MS));

    expect((await kindsOf(buyer.userId)).filter((kind) => kind === 'ended')).toEqual(['ended']);
    expect((await changesOfMember(t.deps.database.db, buyer.userId, 1))[0]).toMatchObject({ kind: 'ended', rowId: buyer.row.id, canceled: true, periodEnd: buyer.endsAt });
    time.set(new Date());
  });
});

describe('delivery', () => {
  /** A core with one subscriber of its own, as a second instance or a new integration would have. */
  function coreWith(subscriber: AccessSubscriber) {
    const { entitlements, accessChanges } = composeEntitlements({ db: t.deps.database.db, clock: time.clock, logger: t.deps.logger, subscribers: [subscriber] });
    return { entitlements, loop: accessChanges };
  }

  /** A core whose instance dies right after each commit: the deliveries it should run never happen. */
  function crashingCore(subscriber: AccessSubscriber) {
    return createEntitlements({
      db: t.deps.database.db,
      clock: time.clock,
      logger: t.deps.logger,
      subscribers: [subscriber],
      deliver: async () => {
        throw new Error('the instance died');
      },
    });
  }

  it('a crash between the commit and the delivery loses nothing: the loop delivers it', async () => {
    const heard: AccessChange[] = [];
    const subscriber: AccessSubscriber = { name: 'crash-test', onCompGiven: async (change) => void heard.push(change) };
    const crashed = crashingCore(subscriber);
    const guest = await member('crash');
    await crashed.write((writer) => writer.giveComp(guest.userId, new Date(time.now().getTime() + DAY_MS)));
    expect(heard).toEqual([]);
    expect(await deliveriesOf('crash-test')).toHaveLength(1);

    // another instance (same subscriber) picks it up on its next pass
    const survivor = coreWith(subscriber);
    await survivor.loop.runOnce();
    expect(heard).toMatchObject([{ userId: guest.userId, kind: 'comp_given' }]);
    expect(await deliveriesOf('crash-test')).toEqual([]);
  });

  it('a subscriber that fails keeps its delivery, retried with back-off until it succeeds', async () => {
    let down = true;
    const heard: string[] = [];
    const subscriber: AccessSubscriber = {
      name: 'flaky',
      onCompGiven: async (change) => {
        if (down) throw new Error('the service is down');
        heard.push(change.userId);
      },
    };
    const core = coreWith(subscriber);
    const guest = await member('flaky');
    await core.entitlements.write((writer) => writer.giveComp(guest.userId, new Date(time.now().getTime() + DAY_MS)));
    expect(await deliveriesOf('flaky')).toEqual([expect.objectContaining({ attempts: 1, lastError: 'the service is down', leasedUntil: null })]);

    down = false;
    await core.loop.runOnce(); // not due yet
    expect(heard).toEqual([]);
    time.advance(60_000);
    await core.loop.runOnce();
    expect(heard).toEqual([guest.userId]);
    expect(await deliveriesOf('flaky')).toEqual([]);
    time.set(new Date());
  });

  it('two instances passing at once deliver each change once', async () => {
    const heard: string[] = [];
    const subscriber: AccessSubscriber = { name: 'counted', onCompGiven: async (change) => void heard.push(change.userId) };
    const writer = crashingCore(subscriber);
    const guests = [await member('twice-a'), await member('twice-b'), await member('twice-c')];
    for (const guest of guests) await writer.write((w) => w.giveComp(guest.userId, new Date(time.now().getTime() + DAY_MS)));
    const [a, b] = [coreWith(subscriber), coreWith(subscriber)];
    await Promise.all([a.loop.runOnce(), b.loop.runOnce(), a.loop.runOnce()]);
    expect(heard.sort()).toEqual(guests.map((guest) => guest.userId).sort());
  });
});
