import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, sandboxAdapters } from './config';

describe('loadConfig', () => {
  it('runs offline with no variables: PGlite, sandboxes and outbox mail', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.payments.kind).toBe('sandbox');
    expect(config.mail.kind).toBe('outbox');
    expect(config.site).toMatchObject({ companyState: 'New Mexico', saleEndsAt: '2025-11-26T23:59:59', chatUrl: null, metaPixelId: null });
    expect(sandboxAdapters(config)).toEqual(['payments', 'tradingview', 'mail']);
  });

  it('switches to Postgres, Stripe, TradingView and SMTP when configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app@db:5432/shop',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_QUARTERLY: 'price_q',
      STRIPE_PRICE_YEARLY: 'price_y',
      STRIPE_PRICE_LIFETIME: 'price_l',
      STRIPE_PRICE_EU_MONTHLY: 'price_em',
      STRIPE_PRICE_EU_QUARTERLY: 'price_eq',
      TRADINGVIEW_SESSION_ID: 'abc',
      TRADINGVIEW_SESSION_SIGN: 'def',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://app@db:5432/shop' });
    expect(config.payments.kind).toBe('stripe');
    expect(config.tradingView.credentials).toEqual({ sessionId: 'abc', sessionSign: 'def' });
    expect(config.mail.kind).toBe('smtp');
    expect(sandboxAdapters(config)).toEqual([]);
  });

  it('refuses invalid values with one readable line per problem', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', SUPPORT_EMAIL: 'not-an-email', STRIPE_SECRET_KEY: 'sk_test_1', SALE_ENDS_AT: 'soon' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.some((line) => line.startsWith('PORT:'))).toBe(true);
    expect(problems.some((line) => line.startsWith('SUPPORT_EMAIL:'))).toBe(true);
    expect(problems.some((line) => line.startsWith('SALE_ENDS_AT:'))).toBe(true);
  });

  it('names every missing Stripe setting once a secret key is given', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET[\s\S]*STRIPE_PRICE_EU_QUARTERLY/);
  });

  it('requires AUTH_SECRET in production on a shared Postgres', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/shop' })).toThrow(/AUTH_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/shop', AUTH_SECRET: 'x'.repeat(32) })).not.toThrow();
  });
});
