import { describe, expect, it } from 'vitest';
import { auditSentence } from './audit-sentences';

const entry = (action: string, details: Record<string, unknown> = {}, targetEmail: string | null = 'alice@example.com') => ({ operatorEmail: 'ops@example.com', action, targetEmail, details });

describe('the audit log in words (#46)', () => {
  it.each([
    [entry('add_free_days', { days: 7, until: '2026-03-08T12:00:00.000Z' }), 'ops@example.com gave alice@example.com 7 free days (paid until 2026-03-08)'],
    [entry('add_free_days', { days: 1 }), 'ops@example.com gave alice@example.com 1 free day'],
    [entry('grant_comp', { until: '2026-04-01' }), 'ops@example.com gave alice@example.com complimentary access until 2026-04-01'],
    [entry('revoke_access', { rows: 1 }), 'ops@example.com ended alice@example.com’s access'],
    [entry('ban_member', { refunded: 'pi_1', reason: 'shared the login' }), 'ops@example.com banned alice@example.com and refunded the last payment: “shared the login”'],
    [entry('refund_order', { order: 'o1', amount: 3600, currency: 'usd' }), 'ops@example.com refunded $36.00 to alice@example.com'],
    [entry('correct_username', { username: 'Alice_TV', previous: 'alice_old' }), 'ops@example.com set alice@example.com’s TradingView username to Alice_TV (was alice_old)'],
    [entry('invite_operator', { email: 'bob@example.com' }, null), 'ops@example.com invited bob@example.com to be an operator'],
    [entry('tradingview.retry_all_failed', { retried: 3 }, null), 'ops@example.com retried every failed TradingView grant (3)'],
    [entry('export_csv', { export: 'churn-reasons' }, null), 'ops@example.com downloaded the churn reasons as CSV'],
    [entry('export_csv', { export: 'audit-log' }, null), 'ops@example.com downloaded the audit log as CSV'],
    [entry('catalogue_publish', { mode: 'stripe', prices: 9, created: 2, adopted: 6 }, null), 'ops@example.com published 9 prices to Stripe (2 new)'],
    [entry('catalogue_publish', { mode: 'stripe', error: 'Stripe refused to publish the prices: Invalid API Key provided' }, null), 'ops@example.com tried to publish the prices to Stripe: Stripe refused to publish the prices: Invalid API Key provided'],
    [entry('catalogue_publish', { mode: 'sandbox', prices: 9 }, null), 'ops@example.com published the prices in the sandbox (nothing is sent to Stripe)'],
    [entry('something_new', {}, null), 'ops@example.com: something new'],
  ])('%o', (input, sentence) => {
    expect(auditSentence(input)).toBe(sentence);
  });
});
