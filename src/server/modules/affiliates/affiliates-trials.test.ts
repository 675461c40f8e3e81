// A referred free trial: the attribution is kept on the buyer, so the trial's start ($0) earns
// nothing and counts as a trial, and its conversion (the first charge) earns the commission. And
// the operator adds an affiliate from the command line.
import { describe, expect, it } from 'vitest';
import type { AffiliateSummary } from '@shared/affiliates-contract';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { checkoutRow, jobsOf, payOnPage, signUp, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import { cookieFrom } from '../../test-support/test-app';
import { runAdminCommand } from '../../admin-cli/admin-command';

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value), { TRIAL_DAYS: '7' });

const flush = async () => {
  for (let pass = 0; pass < 5 && (await undeliveredEvents(suite.t)).length > 0; pass += 1) await jobsOf(suite.t).runOnce();
};

async function summaryOf(cookie: string): Promise<AffiliateSummary> {
  const response = await suite.t.request('/api/affiliate', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as AffiliateSummary;
}

describe('a referred trial', () => {
  it('earns nothing at its start and the commission when it converts', async () => {
    const cookie = await signUp(suite.t, 'trial-seller@example.com');
    // the operator adds the affiliate from the command line
    const added = await runAdminCommand(
      { db: suite.t.deps.database.db, config: suite.t.deps.config, clock: suite.time.clock, affiliates: async () => suite.t.services.affiliates },
      ['affiliates', 'add', 'Trial-Seller@example.com'],
    );
    expect(added.exitCode, added.output).toBe(0);
    expect(added.output).toMatch(/^trial-seller@example\.com is an affiliate\.\nTRIALSEL[A-Z0-9]{4} {2}trial-seller@example\.com {2}\[active\] {2}http:\/\/localhost:3000\/\?ref=TRIALSEL/);
    const { code } = await summaryOf(cookie);
    expect((await runAdminCommand({ db: suite.t.deps.database.db, config: suite.t.deps.config, clock: suite.time.clock, affiliates: async () => suite.t.services.affiliates }, ['affiliates', 'add', 'nobody@example.com'])).output).toBe(
      'No account uses nobody@example.com: they sign up first (or buy), then you add them.',
    );

    const ref = cookieFrom(await suite.t.request(`/?ref=${code}`));
    const { sessionId } = await startCheckout(suite.t, { planType: 'monthly' }, ref);
    expect((await payOnPage(suite.t, sessionId, 'trial-buyer@example.com')).status).toBe(200);
    await flush();
    const started = await summaryOf(cookie);
    expect(started).toMatchObject({ signups: 1, trials: 1, sales: 0, commissions: { pending: 0 } });

    const row = await checkoutRow(suite.t, sessionId);
    const ended = await suite.t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/renew-now`, { body: {} });
    expect(ended.status).toBe(200);
    await flush();
    const converted = await summaryOf(cookie);
    expect(converted).toMatchObject({ sales: 1, commissions: { pending: 1080 } });
  });
});
