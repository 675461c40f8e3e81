// The cancellation flow with Stripe, through the real SDK against the Stripe-shaped server:
// declining sets cancel_at_period_end with cancellation_details (feedback and the member's note);
// a pause is pause_collection (void) with resumes_at and the paid period's end in the metadata, and
// Stripe's later events keep access to that end, then stop it.
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addMonthsUtc } from '@shared/catalogue';
import { userSubscriptions } from '../../db/schema';
import { signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite({});
const { email, webhook, lastRequest } = bench;
const db = () => bench.t.deps.database.db;
type Json = Record<string, unknown>;

async function stripeMember() {
  const address = email('stripe-retention');
  const cookie = await signUp(bench.t, address);
  const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' }, cookie);
  const session = bench.stripe.complete(sessionId, address);
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
  return { cookie, userId: await userIdOf(bench.t, cookie), subscriptionId: session.subscription as string };
}

const rowOf = async (userId: string) => (await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId)).orderBy(desc(userSubscriptions.createdAt)))[0]!;
const subscription = (id: string) => bench.stripe.subscriptions.get(id)!;
const periodEnd = (id: string) => ((subscription(id).items as { data: Json[] }).data[0]!.current_period_end as number) * 1000;
const choose = (cookie: string, body: unknown) => bench.t.request('/api/cancellation', { cookie, body });

describe('the cancellation flow with Stripe', () => {
  it('declining cancels at period end with cancellation_details', async () => {
    const member = await stripeMember();
    const response = await choose(member.cookie, { reason: 'not_trading', text: 'Summer break', choice: 'declined' });
    expect(response.status, await response.clone().text()).toBe(200);
    const update = lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))!;
    expect(update.form.get('cancel_at_period_end')).toBe('true');
    expect(update.form.get('cancellation_details[feedback]')).toBe('unused');
    expect(update.form.get('cancellation_details[comment]')).toBe('Summer break');
    expect(update.form.get('metadata[retention_outcome]')).toBe('declined');
    expect(await rowOf(member.userId)).toMatchObject({ cancelAtPeriodEnd: true, isActive: true });
  });

  it('a pause is pause_collection with resumes_at; Stripe’s events keep access to the paid end', async () => {
    const member = await stripeMember();
    const end = periodEnd(member.subscriptionId);
    const response = await choose(member.cookie, { reason: 'not_trading', choice: 'pause', pauseMonths: 2 });
    expect(response.status, await response.clone().text()).toBe(200);
    const update = lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))!;
    expect(update.form.get('pause_collection[behavior]')).toBe('void');
    expect(Number(update.form.get('pause_collection[resumes_at]')) * 1000).toBe(addMonthsUtc(new Date(end), 2).getTime());
    expect(update.form.get('metadata[pause_access]')).toBe('stop');
    expect(update.form.get('metadata[pause_access_until]')).toBe(new Date(end).toISOString());
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true, expiresAt: new Date(end) });
    // Stripe re-sends the subscription: still access to the paid end, not beyond
    expect((await webhook('customer.subscription.updated', subscription(member.subscriptionId))).status).toBe(200);
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true, expiresAt: new Date(end) });
  });
});
