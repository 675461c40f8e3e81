// Operator alerts: one mail per operator when a condition starts, one when it ends, none while it
// lasts, and the same with two app instances checking at once on one database.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorAlert } from '@shared/admin-ops-contract';
import { LOCAL_ALERT_HOLD_MS } from '@shared/operator-alerts';
import { createApp } from '../../app';
import { compose, type Services } from '../../composition';
import { buildDependencies, type Dependencies } from '../../dependencies';
import { userSubscriptions } from '../../db/schema';
import { createLogger } from '../../logger';
import { createTestApp, operatorSession, type TestApp } from '../../test-support/test-app';
import { movableClock } from '../../test-support/billing-test-kit';
import { createSignatureRefusals } from '../fulfilment/signature-refusals';
import { listOutboxMails } from '../mail/outbox.repository';
import { seedMember } from '../../test-support/admin-test-kit';
import { createOperatorAlerts, type AlertChange, type OperatorAlerts } from './alerts.service';
import { operatorEmails } from './operator-emails';
import { tradingViewOf } from '../tradingview/tradingview.integration';

const OPERATORS = ['ops-one@example.com', 'ops-two@example.com'];
const MINUTE = 60_000;
const time = movableClock();
let first: TestApp;
let second: { app: Awaited<ReturnType<typeof createApp>>; deps: Dependencies; services: Services };
let operator: string;

/** The alert checks of both instances, as their background loops would build them. */
const checkers = (): OperatorAlerts[] =>
  [first, second].map(({ deps, services }) =>
    createOperatorAlerts({
      db: deps.database.db,
      tradingView: tradingViewOf(deps.integrations).port,
      recipients: () => operatorEmails({ config: deps.config, db: deps.database.db }),
      clock: deps.clock,
      logger: createLogger('silent'),
      refusals: services.signatureRefusals,
    }),
  );

/** Both instances check at the same moment; the transitions they made, together. */
async function checkOnBoth(): Promise<AlertChange[]> {
  const results = await Promise.all(checkers().map((alerts) => alerts.check()));
  return results.flat();
}

async function alertMails(template: 'operator_alert' | 'operator_alert_resolved', title: string) {
  const mails = await listOutboxMails(first.deps.database.db, { limit: 500 });
  return mails
    .filter((mail) => mail.template === template && mail.dedupeKey?.includes(`:${title}:`))
    .map((mail) => mail.to)
    .sort();
}

async function banner(): Promise<OperatorAlert['key'][]> {
  // asked of the second instance: the state lives in the database, not in the instance that fired
  const response = await second.app.request('/api/admin/alerts', { headers: { cookie: operator } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { alerts: OperatorAlert[] }).alerts.map((alert) => alert.key);
}

beforeAll(async () => {
  first = await createTestApp({ ADMIN_EMAILS: OPERATORS.join(',') }, { clock: time.clock });
  // A second instance on the same database, talking to the same TradingView (the sandbox's lists
  // and its outage switch live in that database).
  const deps = await buildDependencies(first.deps.config, first.deps.database, createLogger('silent'), {
    secret: 'test-secret-test-secret-test-secret-1234',
    clock: time.clock,
  });
  const composition = compose(deps);
  second = { app: await createApp(composition), deps, services: composition.services };
  operator = (await operatorSession(first, OPERATORS[0]!)).cookie;
});

afterAll(async () => {
  await first?.close();
});

describe('operator alerts', () => {
  it('mail every operator once when the TradingView session stops working and once when it works again, across two instances', async () => {
    await tradingViewOf(first.integrations).port.sandbox!.setOutage(true);
    expect(await checkOnBoth()).toEqual([{ key: 'tradingview_session', transition: 'fire' }]);
    expect(await alertMails('operator_alert', 'tradingview_session')).toEqual(OPERATORS);
    expect(await banner()).toEqual(['tradingview_session']);

    // while it lasts: nothing more
    time.advance(MINUTE);
    expect(await checkOnBoth()).toEqual([]);
    expect(await alertMails('operator_alert', 'tradingview_session')).toEqual(OPERATORS);

    await tradingViewOf(first.integrations).port.sandbox!.setOutage(false);
    time.advance(MINUTE);
    expect(await checkOnBoth()).toEqual([{ key: 'tradingview_session', transition: 'resolve' }]);
    expect(await checkOnBoth()).toEqual([]);
    expect(await alertMails('operator_alert_resolved', 'tradingview_session')).toEqual(OPERATORS);
    expect(await banner()).toEqual([]);
  });

  it('warns about a grant only once it has been failing for more than 15 minutes', async () => {
    const buyer = await seedMember(first.deps.database.db, { username: 'alert_trader' });
    await tradingViewOf(first.integrations).reconciler.syncUser(buyer.userId);
    await tradingViewOf(first.integrations).port.sandbox!.setOutage(true);
    await tradingViewOf(first.integrations).reconciler.runOnce();
    await tradingViewOf(first.integrations).port.sandbox!.setOutage(false);
    expect(await checkOnBoth()).toEqual([]);

    time.advance(14 * MINUTE);
    expect(await checkOnBoth()).toEqual([]);
    time.advance(2 * MINUTE);
    expect(await checkOnBoth()).toEqual([{ key: 'grant_failing', transition: 'fire' }]);
    expect(await alertMails('operator_alert', 'grant_failing')).toEqual(OPERATORS);

    time.advance(2 * 60 * MINUTE);
    await tradingViewOf(first.integrations).reconciler.runOnce();
    expect(await checkOnBoth()).toEqual([{ key: 'grant_failing', transition: 'resolve' }]);
    expect(await alertMails('operator_alert_resolved', 'grant_failing')).toEqual(OPERATORS);
  });

  it('warns when webhook signatures fail repeatedly, and clears when they stop', async () => {
    // the refusals the webhook route counted on the first instance (billing's tests post them)
    const refusals = first.services.signatureRefusals;
    refusals.record(time.now());
    refusals.record(time.now());
    expect(await checkOnBoth()).toEqual([]);
    refusals.record(time.now());
    expect(await checkOnBoth()).toEqual([{ key: 'webhook_signature', transition: 'fire' }]);
    expect(await banner()).toEqual(['webhook_signature']);
    time.advance(16 * MINUTE);
    expect(await checkOnBoth()).toEqual([{ key: 'webhook_signature', transition: 'resolve' }]);
    expect(await alertMails('operator_alert', 'webhook_signature')).toEqual(OPERATORS);
    expect(await alertMails('operator_alert_resolved', 'webhook_signature')).toEqual(OPERATORS);
  });

  it('keeps that warning on while an instance that counted the refusals confirms it, though another counted none', async () => {
    // counted in one instance's memory: an instance that saw none must not end the alert
    const refusals = createSignatureRefusals();
    for (let n = 0; n < 3; n += 1) refusals.record(time.now());
    const counting = createOperatorAlerts({ db: first.deps.database.db, tradingView: tradingViewOf(first.integrations).port, recipients: async () => OPERATORS, clock: time.clock, logger: createLogger('silent'), refusals });
    const blind = createOperatorAlerts({ db: first.deps.database.db, tradingView: tradingViewOf(first.integrations).port, recipients: async () => OPERATORS, clock: time.clock, logger: createLogger('silent'), refusals: createSignatureRefusals() });
    expect(await counting.check()).toEqual([{ key: 'webhook_signature', transition: 'fire' }]);
    for (let minute = 0; minute < 5; minute += 1) {
      time.advance(MINUTE);
      expect(await blind.check()).toEqual([]);
      expect(await counting.check()).toEqual([]);
    }
    expect(await banner()).toEqual(['webhook_signature']);
    // the counting instance stops (a restart forgets its count): the others end the alert after the hold
    time.advance(LOCAL_ALERT_HOLD_MS);
    expect(await blind.check()).toEqual([{ key: 'webhook_signature', transition: 'resolve' }]);
    expect(await banner()).toEqual([]);
  });

  it('warns when a renewal fails and clears when the subscription is paid again', async () => {
    const db = first.deps.database.db;
    const renewing = await seedMember(db, { username: 'renewing_trader', status: 'past_due' });
    expect(await checkOnBoth()).toEqual([{ key: 'renewal_failed', transition: 'fire' }]);
    expect(await checkOnBoth()).toEqual([]);
    await db.update(userSubscriptions).set({ status: 'active' }).where(eq(userSubscriptions.id, renewing.subscriptionId));
    expect(await checkOnBoth()).toEqual([{ key: 'renewal_failed', transition: 'resolve' }]);
    expect(await alertMails('operator_alert', 'renewal_failed')).toEqual(OPERATORS);
    expect(await alertMails('operator_alert_resolved', 'renewal_failed')).toEqual(OPERATORS);
  });

  it('renders the alert mails for the operators', async () => {
    await first.deps.mailer.runOnce();
    const sent = first.mails.filter((mail) => mail.subject.includes('alert]') || mail.subject.includes('resolved]'));
    expect(sent.map((mail) => mail.subject)).toContain('[Candlewise alert] The TradingView session stopped working');
    expect(sent.map((mail) => mail.subject)).toContain('[Candlewise resolved] A renewal payment failed');
    expect(sent.find((mail) => mail.subject.includes('alert] The TradingView'))?.text).toContain("network: TradingView's access endpoints are down (simulated outage)");
  });
});
