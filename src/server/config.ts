import { z } from 'zod';
import { ADVERTISED_PRICES } from '@shared/plans';

/**
 * The only reader of process.env (STYLE.md rule 2). Every variable is documented in
 * .env.example and the README; defaults give the embedded, offline setup.
 */
const csv = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean));

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const minorUnits = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const optionalUrl = z.preprocess((value) => (value === '' ? undefined : value), z.url().optional());
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  TRUSTED_ORIGINS: csv,
  PREVIEW_HOSTS: csv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  CLIENT_DIR: z.string().default('./dist/client'),

  AUTH_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  AUTH_REGISTRATION_DISABLED: bool,
  AUTH_REQUIRE_EMAIL_VERIFICATION: bool,

  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PRICE_MONTHLY: optionalText,
  STRIPE_PRICE_QUARTERLY: optionalText,
  STRIPE_PRICE_YEARLY: optionalText,
  STRIPE_PRICE_LIFETIME: optionalText,
  STRIPE_PRICE_EU_MONTHLY: optionalText,
  STRIPE_PRICE_EU_QUARTERLY: optionalText,

  TRADINGVIEW_SESSION_ID: optionalText,
  TRADINGVIEW_SESSION_SIGN: optionalText,
  TRADINGVIEW_BASE_URL: z.url().default('https://www.tradingview.com'),
  TRADINGVIEW_SCRIPT_IDS: csv,
  SANDBOX_TRADINGVIEW_MISSING_USERNAMES: csv,
  RECONCILER_INTERVAL_MS: z.coerce.number().int().min(1000).default(15_000),

  SMTP_URL: optionalUrl,
  MAIL_FROM: optionalText,

  BRAND_NAME: z.string().min(1).default('Candlewise'),
  BRAND_SLUG: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes only')
    .default('candlewise'),
  SUPPORT_EMAIL: z.email().default('support@candlewise.app'),
  COMPANY_NAME: z.string().min(1).default('Candlewise LLC'),
  COMPANY_STATE: z.string().min(1).default('New Mexico'),
  DISCORD_INVITE_URL: z.url().default('https://discord.gg/candlewise'),
  DOCS_URL: z.url().default('https://docs.candlewise.app'),
  CHAT_URL: optionalUrl,
  SALE_ENDS_AT: z
    .string()
    .default('2025-11-26T23:59:59')
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'must be a date such as 2025-11-26T23:59:59' }),
  META_PIXEL_ID: optionalText.refine((value) => value === undefined || /^\d{5,20}$/.test(value), {
    message: 'must be the numeric pixel id',
  }),

  PRICE_MONTHLY: minorUnits(ADVERTISED_PRICES.monthly),
  PRICE_QUARTERLY: minorUnits(ADVERTISED_PRICES.quarterly),
  PRICE_YEARLY: minorUnits(ADVERTISED_PRICES.yearly),
  PRICE_LIFETIME: minorUnits(ADVERTISED_PRICES.lifetime),
  PRICE_EU_MONTHLY: minorUnits(ADVERTISED_PRICES.euMonthly),
  PRICE_EU_QUARTERLY: minorUnits(ADVERTISED_PRICES.euQuarterly),
});

export type Env = z.infer<typeof envSchema>;

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(env: Env) {
  const stripe = env.STRIPE_SECRET_KEY
    ? {
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
        priceIds: {
          monthly: env.STRIPE_PRICE_MONTHLY ?? '',
          quarterly: env.STRIPE_PRICE_QUARTERLY ?? '',
          yearly: env.STRIPE_PRICE_YEARLY ?? '',
          lifetime: env.STRIPE_PRICE_LIFETIME ?? '',
          euMonthly: env.STRIPE_PRICE_EU_MONTHLY ?? '',
          euQuarterly: env.STRIPE_PRICE_EU_QUARTERLY ?? '',
        },
      }
    : null;
  const tradingView =
    env.TRADINGVIEW_SESSION_ID && env.TRADINGVIEW_SESSION_SIGN
      ? { sessionId: env.TRADINGVIEW_SESSION_ID, sessionSign: env.TRADINGVIEW_SESSION_SIGN }
      : null;
  const slug = env.BRAND_SLUG;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL.replace(/\/$/, ''),
    trustedOrigins: [new URL(env.PUBLIC_URL).origin, ...env.TRUSTED_ORIGINS],
    previewHosts: env.PREVIEW_HOSTS,
    logLevel: env.LOG_LEVEL,
    database: env.DATABASE_URL ? { kind: 'postgres' as const, url: env.DATABASE_URL } : { kind: 'pglite' as const, dataDir: env.DATA_DIR },
    dataDir: env.DATA_DIR,
    clientDir: env.CLIENT_DIR,
    auth: {
      secret: env.AUTH_SECRET,
      registrationDisabled: env.AUTH_REGISTRATION_DISABLED,
      requireEmailVerification: env.AUTH_REQUIRE_EMAIL_VERIFICATION,
    },
    payments: stripe ? { kind: 'stripe' as const, ...stripe } : { kind: 'sandbox' as const },
    tradingView: {
      baseUrl: env.TRADINGVIEW_BASE_URL.replace(/\/$/, ''),
      scriptIds: env.TRADINGVIEW_SCRIPT_IDS.length
        ? env.TRADINGVIEW_SCRIPT_IDS
        : [`PUB;${slug}-pro-v2`, `PUB;${slug}-smart-money-concepts`, `PUB;${slug}-volatility-index`],
      credentials: tradingView,
      sandboxMissingUsernames: env.SANDBOX_TRADINGVIEW_MISSING_USERNAMES,
      reconcileIntervalMs: env.RECONCILER_INTERVAL_MS,
    },
    mail: env.SMTP_URL
      ? { kind: 'smtp' as const, url: env.SMTP_URL, from: env.MAIL_FROM ?? `${env.BRAND_NAME} <${env.SUPPORT_EMAIL}>` }
      : { kind: 'outbox' as const, from: env.MAIL_FROM ?? `${env.BRAND_NAME} <${env.SUPPORT_EMAIL}>` },
    site: {
      brandName: env.BRAND_NAME,
      brandSlug: slug,
      supportEmail: env.SUPPORT_EMAIL,
      companyName: env.COMPANY_NAME,
      companyState: env.COMPANY_STATE,
      discordInviteUrl: env.DISCORD_INVITE_URL,
      docsUrl: env.DOCS_URL,
      chatUrl: env.CHAT_URL ?? null,
      saleEndsAt: env.SALE_ENDS_AT,
      metaPixelId: env.META_PIXEL_ID ?? null,
      prices: {
        monthly: env.PRICE_MONTHLY,
        quarterly: env.PRICE_QUARTERLY,
        yearly: env.PRICE_YEARLY,
        lifetime: env.PRICE_LIFETIME,
        euMonthly: env.PRICE_EU_MONTHLY,
        euQuarterly: env.PRICE_EU_QUARTERLY,
      },
    },
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Parses an environment (process.env by default) into the typed config, or throws a readable list. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const config = buildConfig(parsed.data);
  const problems: string[] = [];
  if (config.payments.kind === 'stripe') {
    if (!config.payments.webhookSecret) problems.push('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
    for (const [plan, id] of Object.entries(config.payments.priceIds)) {
      if (!id) problems.push(`STRIPE_PRICE_${plan.replace(/([A-Z])/g, '_$1').toUpperCase()}: required when STRIPE_SECRET_KEY is set`);
    }
  }
  if (config.isProduction && config.database.kind === 'postgres' && !config.auth.secret) {
    problems.push('AUTH_SECRET: required in production on a shared Postgres so that every instance signs sessions alike');
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Which adapters run against sandboxes; shown as the 'Sandbox' marker and logged at start. */
export function sandboxAdapters(config: Config): string[] {
  const sandboxes: string[] = [];
  if (config.payments.kind === 'sandbox') sandboxes.push('payments');
  if (!config.tradingView.credentials) sandboxes.push('tradingview');
  if (config.mail.kind === 'outbox') sandboxes.push('mail');
  return sandboxes;
}
