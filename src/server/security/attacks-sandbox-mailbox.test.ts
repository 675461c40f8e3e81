// The sandbox mailbox holds reset links: tried as a stranger and as a member would, it must open
// only to an operator wherever the shop is live (production, live payments or a live TradingView).
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, operatorSession, signUp, type TestApp } from '../test-support/test-app';

describe('the sandbox mailbox and the reset links in it', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const app = async (env: Record<string, string>) => {
    const t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com', ...env });
    apps.push(t);
    return t;
  };
  const LIVE_STRIPE = {
    STRIPE_SECRET_KEY: 'sk_test_attack',
    STRIPE_WEBHOOK_SECRET: 'whsec_attack',
    STRIPE_PRICE_MONTHLY: 'price_m',
    STRIPE_PRICE_QUARTERLY: 'price_q',
    STRIPE_PRICE_YEARLY: 'price_y',
    STRIPE_PRICE_LIFETIME: 'price_l',
    STRIPE_PRICE_EU_MONTHLY: 'price_em',
    STRIPE_PRICE_EU_QUARTERLY: 'price_eq',
  };

  it.each<[string, Record<string, string>]>([
    ['in production', { NODE_ENV: 'production' }],
    ['with live payments', LIVE_STRIPE],
    ['with a live TradingView', { TRADINGVIEW_SESSION_ID: 'sid', TRADINGVIEW_SESSION_SIGN: 'sign' }],
  ])('%s a stranger cannot read a reset link for a member; only an operator can', async (_name, env) => {
    const t = await app(env);
    const member = await signUp(t, 'owner@example.com');
    // in production an operator also passes two-factor
    const { cookie: operator } = await operatorSession(t, 'ops@example.com', { twoFactor: true });
    expect((await t.request('/api/auth/request-password-reset', { body: { email: 'owner@example.com', redirectTo: '/reset-password' } })).status).toBe(200);

    const anonymous = await t.request('/api/sandbox/mailbox');
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(await anonymous.json())).not.toContain('reset-password');
    expect((await t.request('/api/sandbox/mailbox', { cookie: member })).status).toBe(403);
    expect((await t.request('/api/sandbox/mailbox', { cookie: operator })).status).toBe(200);
  });

  it('stays open to everyone in an all-sandbox demo outside production', async () => {
    const t = await app({});
    expect((await t.request('/api/sandbox/mailbox')).status).toBe(200);
  });
});
