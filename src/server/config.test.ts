import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_PLANS } from '@shared/campaign';
import { ADVERTISED_PRICES, PLAN_TYPES } from '@shared/plans';
import { planEnvKey } from '@shared/plan-env';
import { ConfigError, loadConfig, outboxIsPublic, sandboxAdapters } from './config';

describe('loadConfig', () => {
  it('runs offline with no variables: PGlite, sandboxes and outbox mail', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.payments.kind).toBe('sandbox');
    expect(config.integrations.mail.kind).toBe('outbox');
    expect(config.site).toMatchObject({ companyState: 'New Mexico', saleEndsAt: null, saleLabel: 'Black Friday', chatUrl: null, metaPixelId: null });
    expect(config.site.regularPrices).toEqual({ monthly: 4700, quarterly: 14100, yearly: 56400 });
    expect(sandboxAdapters(config)).toEqual(['payments', 'tradingview', 'discord', 'mail']);
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
      DISCORD_CLIENT_ID: '123',
      DISCORD_CLIENT_SECRET: 'secret',
      DISCORD_BOT_TOKEN: 'bot',
      DISCORD_GUILD_ID: '456',
      DISCORD_ROLE_IDS: '789',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://app@db:5432/shop', poolSize: 20 });
    expect(config.payments.kind).toBe('stripe');
    expect(config.integrations.tradingview.credentials).toEqual({ sessionId: 'abc', sessionSign: 'def' });
    expect(config.integrations.mail.kind).toBe('smtp');
    expect(sandboxAdapters(config)).toEqual([]);
  });

  it('runs the sandbox guild without Discord keys, and names the missing ones when only some are given', () => {
    expect(loadConfig({}).integrations.discord).toMatchObject({ credentials: null, memberRoleIds: [], onEnd: 'remove_roles', auditIntervalMs: 300_000 });
    const live = loadConfig({ DISCORD_CLIENT_ID: '1', DISCORD_CLIENT_SECRET: 's', DISCORD_BOT_TOKEN: 'b', DISCORD_GUILD_ID: '2', DISCORD_ROLE_IDS: '3,4', DISCORD_ROLE_IDS_LIFETIME: '5', DISCORD_ON_END: 'kick' });
    expect(live.integrations.discord).toMatchObject({ credentials: { clientId: '1', guildId: '2' }, memberRoleIds: ['3', '4'], onEnd: 'kick' });
    expect(live.integrations.discord.planRoleIds.lifetime).toEqual(['5']);
    let error: unknown;
    try {
      loadConfig({ DISCORD_BOT_TOKEN: 'b' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).problems.filter((line) => line.startsWith('DISCORD_'))).toEqual([
      'DISCORD_CLIENT_ID: required together with DISCORD_BOT_TOKEN (all four for the real Discord bot, or none for the sandbox)',
      'DISCORD_CLIENT_SECRET: required together with DISCORD_BOT_TOKEN (all four for the real Discord bot, or none for the sandbox)',
      'DISCORD_GUILD_ID: required together with DISCORD_BOT_TOKEN (all four for the real Discord bot, or none for the sandbox)',
    ]);
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

  it('sizes the Postgres pool from DATABASE_POOL_SIZE (20 unless set), and refuses a pool too small to serve requests beside the jobs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db:5432/shop' }).database).toEqual({ kind: 'postgres', url: 'postgres://app@db:5432/shop', poolSize: 20 });
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db:5432/shop', DATABASE_POOL_SIZE: '12' }).database).toMatchObject({ poolSize: 12 });
    for (const value of ['4', 'many', '1.5']) {
      expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db:5432/shop', DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  it('names every missing Stripe setting once a secret key is given', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET[\s\S]*STRIPE_PRICE_EU_QUARTERLY/);
  });

  it.each([
    [{}, 'http://localhost:3000'],
    [{ PORT: '3300' }, 'http://localhost:3300'],
    [{ PORT: '3300', HOST: '127.0.0.1' }, 'http://127.0.0.1:3300'],
    [{ PORT: '3300', HOST: '::' }, 'http://localhost:3300'],
    [{ PORT: '3300', HOST: '::1' }, 'http://[::1]:3300'],
    [{ PORT: '3300', PUBLIC_URL: '' }, 'http://localhost:3300'],
    [{ PORT: '3300', PUBLIC_URL: 'https://shop.example.com/' }, 'https://shop.example.com'],
  ])('PUBLIC_URL defaults to the address the server listens on: %o → %s', (env, publicUrl) => {
    expect(loadConfig(env).publicUrl).toBe(publicUrl);
  });

  it.each([
    [{ TRADINGVIEW_SESSION_ID: 'abc' }, /TRADINGVIEW_SESSION_SIGN: required together with TRADINGVIEW_SESSION_ID/],
    [{ TRADINGVIEW_SESSION_SIGN: 'def' }, /TRADINGVIEW_SESSION_ID: required together with TRADINGVIEW_SESSION_SIGN/],
  ])('refuses one TradingView cookie without the other (%j) instead of silently running the sandbox', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('in development trusts the shop on localhost and 127.0.0.1 alike, on its port and PUBLIC_URL\'s', () => {
    expect(loadConfig({ PORT: '3300' }).trustedOrigins).toEqual(['http://localhost:3300', 'http://127.0.0.1:3300']);
    expect(loadConfig({ PORT: '3000', PUBLIC_URL: 'http://127.0.0.1:5173', TRUSTED_ORIGINS: 'http://staging.test' }).trustedOrigins).toEqual([
      'http://127.0.0.1:5173',
      'http://localhost:5173',
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://staging.test',
    ]);
  });

  it('in production trusts PUBLIC_URL and TRUSTED_ORIGINS only', () => {
    const config = loadConfig({ NODE_ENV: 'production', PORT: '3300', PUBLIC_URL: 'https://shop.example.com', TRUSTED_ORIGINS: 'https://staging.example.com' });
    expect(config.trustedOrigins).toEqual(['https://shop.example.com', 'https://staging.example.com']);
  });

  it('reads the sale end as one instant for server and browsers alike', () => {
    expect(loadConfig({ SALE_ENDS_AT: '2025-11-26T23:59:59Z' }).site.saleEndsAt).toBe('2025-11-26T23:59:59.000Z');
    expect(loadConfig({ SALE_ENDS_AT: '2025-11-26T23:59:59+01:00' }).site.saleEndsAt).toBe('2025-11-26T22:59:59.000Z');
    expect(loadConfig({ SALE_ENDS_AT: '' }).site.saleEndsAt).toBeNull();
  });

  it('with Stripe and a sale that ends, asks for the regular price ids charged after the end', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      ...Object.fromEntries(['MONTHLY', 'QUARTERLY', 'YEARLY', 'LIFETIME', 'EU_MONTHLY', 'EU_QUARTERLY'].map((plan) => [`STRIPE_PRICE_${plan}`, `price_${plan}`])),
    };
    expect(() => loadConfig(stripe)).not.toThrow();
    expect(() => loadConfig({ ...stripe, SALE_ENDS_AT: '2025-11-26T23:59:59Z' })).toThrow(/STRIPE_REGULAR_PRICE_MONTHLY[\s\S]*STRIPE_REGULAR_PRICE_YEARLY/);
    const config = loadConfig({ ...stripe, SALE_ENDS_AT: '2025-11-26T23:59:59Z', STRIPE_REGULAR_PRICE_MONTHLY: 'price_m', STRIPE_REGULAR_PRICE_QUARTERLY: 'price_q', STRIPE_REGULAR_PRICE_YEARLY: 'price_y' });
    expect(config.payments).toMatchObject({ regularPriceIds: { monthly: 'price_m', quarterly: 'price_q', yearly: 'price_y' } });
  });

  it('requires AUTH_SECRET in production on a shared Postgres', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/shop' })).toThrow(/AUTH_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/shop', AUTH_SECRET: 'x'.repeat(32) })).not.toThrow();
  });

  const LIVE_STRIPE = {
    STRIPE_SECRET_KEY: 'sk_live_1',
    STRIPE_WEBHOOK_SECRET: 'whsec_1',
    STRIPE_PRICE_MONTHLY: 'price_m',
    STRIPE_PRICE_QUARTERLY: 'price_q',
    STRIPE_PRICE_YEARLY: 'price_y',
    STRIPE_PRICE_LIFETIME: 'price_l',
    STRIPE_PRICE_EU_MONTHLY: 'price_em',
    STRIPE_PRICE_EU_QUARTERLY: 'price_eq',
  };

  // a live shop without SMTP once handed reset links to anyone through the outbox
  it('refuses to start in production with live payments and no SMTP', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...LIVE_STRIPE })).toThrow(/SMTP_URL: required in production with live payments/);
    expect(() => loadConfig({ NODE_ENV: 'production', ...LIVE_STRIPE, SMTP_URL: 'smtp://mail.example.com:587' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'development', ...LIVE_STRIPE })).not.toThrow();
  });

  it('opens the outbox to everyone only in an all-sandbox shop outside production', () => {
    expect(outboxIsPublic(loadConfig({}))).toBe(true);
    expect(outboxIsPublic(loadConfig({ NODE_ENV: 'production' }))).toBe(false);
    expect(outboxIsPublic(loadConfig({ ...LIVE_STRIPE }))).toBe(false);
    expect(outboxIsPublic(loadConfig({ TRADINGVIEW_SESSION_ID: 'a', TRADINGVIEW_SESSION_SIGN: 'b' }))).toBe(false);
  });

  it('reads TRUST_PROXY as off, a hop count or a list of addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'off' });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toEqual({ kind: 'off' });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,::1' }).trustProxy).toEqual({ kind: 'addresses', entries: ['10.0.0.0/8', '192.0.2.1', '::1'] });
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33,proxy.local' })).toThrow(/TRUST_PROXY: not an address or CIDR range: 10.0.0.0\/33, proxy.local/);
  });

  it('reads ADMIN_EMAILS as a lower-case list and refuses what is not an e-mail', () => {
    expect(loadConfig({ ADMIN_EMAILS: 'Ops@Example.com, boss@example.com' }).adminEmails).toEqual(['ops@example.com', 'boss@example.com']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ops' })).toThrow(/ADMIN_EMAILS/);
  });
});

describe('per-plan settings', () => {
  const stripeIds = Object.fromEntries(PLAN_TYPES.map((plan) => [planEnvKey('STRIPE_PRICE', plan), `price_${plan}`]));
  const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', ...stripeIds };

  it('keeps the env names of the six plans', () => {
    expect(PLAN_TYPES.map((plan) => planEnvKey('STRIPE_PRICE', plan))).toEqual([
      'STRIPE_PRICE_MONTHLY',
      'STRIPE_PRICE_QUARTERLY',
      'STRIPE_PRICE_YEARLY',
      'STRIPE_PRICE_LIFETIME',
      'STRIPE_PRICE_EU_MONTHLY',
      'STRIPE_PRICE_EU_QUARTERLY',
    ]);
    expect(PLAN_TYPES.map((plan) => planEnvKey('PRICE', plan))).toEqual(['PRICE_MONTHLY', 'PRICE_QUARTERLY', 'PRICE_YEARLY', 'PRICE_LIFETIME', 'PRICE_EU_MONTHLY', 'PRICE_EU_QUARTERLY']);
  });

  it.each(PLAN_TYPES)('%s has its price (PRICE_*) and its Stripe price id (STRIPE_PRICE_*)', (plan) => {
    expect(loadConfig({}).site.prices[plan]).toBe(ADVERTISED_PRICES[plan]);
    expect(loadConfig({ [planEnvKey('PRICE', plan)]: '1234' }).site.prices[plan]).toBe(1234);
    const config = loadConfig(stripe);
    expect(config.payments.kind === 'stripe' && config.payments.priceIds[plan]).toBe(`price_${plan}`);
    const missing = planEnvKey('STRIPE_PRICE', plan);
    expect(() => loadConfig({ ...stripe, [missing]: '' })).toThrow(new RegExp(`^Invalid configuration:\\n  - ${missing}: required when STRIPE_SECRET_KEY is set$`));
  });

  it.each(CAMPAIGN_PLANS)('%s, on sale, has its regular price (REGULAR_PRICE_*) and its Stripe id (STRIPE_REGULAR_PRICE_*)', (plan) => {
    expect(loadConfig({ [planEnvKey('REGULAR_PRICE', plan)]: '9900' }).site.regularPrices[plan]).toBe(9900);
    const regularIds = Object.fromEntries(CAMPAIGN_PLANS.map((each) => [planEnvKey('STRIPE_REGULAR_PRICE', each), `price_regular_${each}`]));
    const config = loadConfig({ ...stripe, ...regularIds, SALE_ENDS_AT: '2025-11-26T23:59:59Z' });
    expect(config.payments.kind === 'stripe' && config.payments.regularPriceIds[plan]).toBe(`price_regular_${plan}`);
    const missing = planEnvKey('STRIPE_REGULAR_PRICE', plan);
    expect(() => loadConfig({ ...stripe, ...regularIds, [missing]: '', SALE_ENDS_AT: '2025-11-26T23:59:59Z' })).toThrow(`${missing}: required with STRIPE_SECRET_KEY when SALE_ENDS_AT is set`);
  });

  it.each(PLAN_TYPES)('%s: its env keys are documented in .env.example and docs/configuration.md', (plan) => {
    const envExample = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const configurationGuide = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const prefix of ['STRIPE_PRICE', 'PRICE']) expect(envExample).toMatch(new RegExp(`^${planEnvKey(prefix, plan)}=`, 'm'));
    const guideRow = configurationGuide.split('\n').find((line) => line.startsWith('| `STRIPE_PRICE_*` |'));
    expect(guideRow?.split(/[\s,:;]+/)).toContain(planEnvKey('STRIPE_PRICE', plan).slice('STRIPE_PRICE_'.length));
  });
});
