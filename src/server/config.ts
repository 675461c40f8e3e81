import { isIP } from 'node:net';
import { z } from 'zod';
import { CAMPAIGN_PLANS, DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from '@shared/campaign';
import { ADVERTISED_PRICES, isPlanType, isRecurring, perPlan, PLAN_TYPES, type PlanType } from '@shared/plans';
import { perPlanEnv, planEnvKey } from '@shared/plan-env';
import { DEFAULT_TRIAL_PLANS, MAX_TRIAL_DAYS } from '@shared/trials';
import { discordEnvShape, discordSettings, discordSettingsProblems } from '@shared/discord/settings';
import { telegramEnvShape, telegramSettings, telegramSettingsProblems } from '@shared/telegram/settings';
import { tradingViewEnvShape, tradingViewSettings, tradingViewSettingsProblems } from '@shared/tradingview/settings';
import { mailEnvShape, mailSettings } from '@shared/mail/settings';

/**
 * The only reader of process.env: the environment is parsed once, here, and a bad value stops
 * the start with a readable list. Every variable is documented in
 * .env.example and docs/configuration.md; defaults give the embedded, offline setup.
 */
const csv = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean));

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/**
 * TRUST_PROXY: off (default) takes the client address from the socket; a number trusts that many
 * proxy hops in front of the server; a list trusts proxies at those addresses or CIDR ranges.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = (value ?? '').trim().toLowerCase();
    if (text === '' || text === 'false' || text === '0') return { kind: 'off' };
    if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
    const entries = text.split(',').map((item) => item.trim()).filter(Boolean);
    const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
    if (invalid.length) ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${invalid.join(', ')} (or give a hop count)` });
    return { kind: 'addresses', entries };
  });

export type TrustProxy = { kind: 'off' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; entries: string[] };

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const minorUnits = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The built-in brand mark in public/, served as the favicon too. */
const BUILT_IN_BRAND_LOGO = '/favicon.svg';

const optionalUrl = z.preprocess((value) => (value === '' ? undefined : value), z.url().optional());
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());
// A Stripe price id; empty when unset (loadConfig names the missing ones once Stripe is on).
const priceId = z.string().default('');

/** TRIAL_PLANS: plan types (monthly, euMonthly…), comma-separated; a one-time plan cannot have a trial. */
const trialPlans = csv.transform((plans, ctx): PlanType[] => {
  if (plans.length === 0) return [...DEFAULT_TRIAL_PLANS];
  const unknown = plans.filter((plan) => !isPlanType(plan));
  if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown plan ${unknown.join(', ')} (one of ${PLAN_TYPES.join(', ')})` });
  const oneTime = plans.filter((plan) => isPlanType(plan) && !isRecurring(plan));
  if (oneTime.length) ctx.addIssue({ code: 'custom', message: `${oneTime.join(', ')} is a one-time purchase and cannot have a free trial (recurring plans only)` });
  return plans.filter((plan): plan is PlanType => isPlanType(plan) && isRecurring(plan));
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Empty: the address the server listens on (listeningUrl).
  PUBLIC_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
  TRUSTED_ORIGINS: csv,
  PREVIEW_HOSTS: csv,
  TRUST_PROXY: trustProxy,
  // /metrics (Prometheus): open with this bearer token, or to the client addresses below; off when neither is set
  METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, { message: 'must be at least 16 characters' }),
  METRICS_ALLOW: csv.superRefine((entries, ctx) => {
    const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
    if (invalid.length) ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${invalid.join(', ')}` });
  }),
  ADMIN_EMAILS: csv.pipe(z.array(z.email({ error: 'must be a comma-separated list of e-mail addresses' }))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: optionalUrl,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(5).max(200).default(20),
  DATA_DIR: z.string().default('./data'),
  CLIENT_DIR: z.string().default('./dist/client'),

  AUTH_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  AUTH_REGISTRATION_DISABLED: bool,
  AUTH_REQUIRE_EMAIL_VERIFICATION: bool,
  // unset: required in production only (a demo or a test shop may turn it on or off)
  OPERATOR_REQUIRE_2FA: z.enum(['true', 'false', '1', '0']).optional(),

  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  ...perPlanEnv('STRIPE_PRICE', PLAN_TYPES, () => priceId),
  // Sales tax: Stripe Tax with Stripe, the EU VAT table of src/shared/vat.ts in the sandbox.
  STRIPE_TAX: bool,
  PRICES_INCLUDE_TAX: bool,

  MEMBER_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  STOP_NOTICE_MS: z.coerce.number().int().min(0).max(60_000).default(0),

  BRAND_NAME: z.string().min(1).default('Candlewise'),
  // An image URL or a path on this site; the default is the built-in mark, also the favicon.
  BRAND_LOGO_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .default(BUILT_IN_BRAND_LOGO)
      .refine((value) => /^\/(?!\/)/.test(value) || (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)), {
        message: 'must be an http(s) URL or a path such as /logo.svg',
      }),
  ),
  BRAND_SLUG: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes only')
    .default('candlewise'),
  SUPPORT_EMAIL: z.email().default('support@candlewise.app'),
  COMPANY_NAME: z.string().min(1).default('Candlewise LLC'),
  COMPANY_STATE: z.string().min(1).default('New Mexico'),
  DISCORD_INVITE_URL: z.url().default('https://discord.gg/candlewise'),
  // Where the content studio keeps image bytes: the database (default), a folder, or an S3-compatible bucket.
  CONTENT_STORAGE: z.enum(['database', 'disk', 's3']).default('database'),
  CONTENT_STORAGE_DIR: optionalText,
  CONTENT_S3_ENDPOINT: optionalUrl,
  CONTENT_S3_BUCKET: optionalText,
  CONTENT_S3_REGION: z.string().min(1).default('auto'),
  CONTENT_S3_ACCESS_KEY_ID: optionalText,
  CONTENT_S3_SECRET_ACCESS_KEY: optionalText,
  CONTENT_S3_PREFIX: z.string().default(''),
  DOCS_URL: z.url().default('https://docs.candlewise.app'),
  CHAT_URL: optionalUrl,
  // Empty: the demo's rolling sale. Without an offset the time is the server's local time.
  SALE_ENDS_AT: optionalText.refine((value) => value === undefined || !Number.isNaN(Date.parse(value)), {
    message: 'must be a date such as 2025-11-26T23:59:59',
  }),
  SALE_LABEL: z.string().min(1).default(DEFAULT_SALE_LABEL),
  META_PIXEL_ID: optionalText.refine((value) => value === undefined || /^\d{5,20}$/.test(value), {
    message: 'must be the numeric pixel id',
  }),

  // Free trials: days (0 = off) and the plans that have one (recurring plans only).
  TRIAL_DAYS: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number({ error: 'must be a whole number of days (0 turns trials off)' }).int({ error: 'must be a whole number of days (0 turns trials off)' }).min(0).max(MAX_TRIAL_DAYS).default(0)),
  TRIAL_PLANS: trialPlans,

  ...perPlanEnv('PRICE', PLAN_TYPES, (plan) => minorUnits(ADVERTISED_PRICES[plan])),
  ...perPlanEnv('REGULAR_PRICE', CAMPAIGN_PLANS, (plan) => minorUnits(DEFAULT_REGULAR_PRICES[plan])),
  ...perPlanEnv('STRIPE_REGULAR_PRICE', CAMPAIGN_PLANS, () => priceId),
  // The integrations' own keys, parsed beside each integration (decisions 046, 064).
  ...tradingViewEnvShape,
  ...mailEnvShape,
  ...discordEnvShape,
  ...telegramEnvShape,
});

export type Env = z.infer<typeof envSchema>;

export type Config = ReturnType<typeof buildConfig>;

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1'];

/** The address a browser on this machine reaches the server at: HOST and PORT, 0.0.0.0/:: as localhost. */
export function listeningUrl(host: string, port: number): string {
  if (['', '0.0.0.0', '::'].includes(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Origins allowed to call the API (auth, CSRF) and to receive return links. In development a
 * browser may open the shop as localhost or 127.0.0.1, on the listening port or PUBLIC_URL's.
 */
function allowedOrigins(publicUrl: URL, port: number, isProduction: boolean, extra: string[]): string[] {
  const development = isProduction
    ? []
    : [LOOPBACK_HOSTS.includes(publicUrl.hostname) ? publicUrl.port : '', String(port)]
        .filter(Boolean)
        .flatMap((loopbackPort) => LOOPBACK_HOSTS.map((name) => `http://${name}:${loopbackPort}`));
  return [...new Set([publicUrl.origin, ...development, ...extra])];
}

function buildConfig(env: Env) {
  const publicUrl = new URL(env.PUBLIC_URL ?? listeningUrl(env.HOST, env.PORT));
  const isProduction = env.NODE_ENV === 'production';
  const stripe = env.STRIPE_SECRET_KEY
    ? {
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
        priceIds: perPlan(PLAN_TYPES, (plan) => env[planEnvKey('STRIPE_PRICE', plan)]),
        // charged for the sale's plans once SALE_ENDS_AT has passed
        regularPriceIds: perPlan(CAMPAIGN_PLANS, (plan) => env[planEnvKey('STRIPE_REGULAR_PRICE', plan)]),
      }
    : null;
  const slug = env.BRAND_SLUG;
  return {
    env: env.NODE_ENV,
    isProduction,
    host: env.HOST,
    port: env.PORT,
    publicUrl: publicUrl.href.replace(/\/$/, ''),
    trustedOrigins: allowedOrigins(publicUrl, env.PORT, isProduction, env.TRUSTED_ORIGINS),
    previewHosts: env.PREVIEW_HOSTS,
    trustProxy: env.TRUST_PROXY,
    /** Who may read /metrics: the bearer token, or these client addresses (CIDR); neither: /metrics is not served. */
    metrics: { token: env.METRICS_TOKEN ?? null, allow: env.METRICS_ALLOW },
    /** On SIGTERM, /readyz says 503 this long before the server stops accepting: a proxy's health check takes the instance out first. */
    stopNoticeMs: env.STOP_NOTICE_MS,
    /** Operators by e-mail (more are stored in the database); read only through isOperator() (modules/auth/operator.ts). */
    adminEmails: env.ADMIN_EMAILS.map((email) => email.toLowerCase()),
    /** Operators must pass TOTP two-factor to open the console. */
    operatorRequireTwoFactor: env.OPERATOR_REQUIRE_2FA === undefined ? isProduction : env.OPERATOR_REQUIRE_2FA === 'true' || env.OPERATOR_REQUIRE_2FA === '1',
    logLevel: env.LOG_LEVEL,
    /** How long an instance may answer a member's session, access and account reads from memory (0: never). */
    memberCacheMs: env.MEMBER_CACHE_MS,
    database: env.DATABASE_URL ? { kind: 'postgres' as const, url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE } : { kind: 'pglite' as const, dataDir: env.DATA_DIR },
    dataDir: env.DATA_DIR,
    clientDir: env.CLIENT_DIR,
    auth: {
      secret: env.AUTH_SECRET,
      registrationDisabled: env.AUTH_REGISTRATION_DISABLED,
      requireEmailVerification: env.AUTH_REQUIRE_EMAIL_VERIFICATION,
    },
    payments: stripe ? { kind: 'stripe' as const, ...stripe } : { kind: 'sandbox' as const },
    /** Sales tax on checkouts and invoices; prices hold it (inclusive) or it is added on top. */
    tax: { enabled: env.STRIPE_TAX, behavior: env.PRICES_INCLUDE_TAX ? ('inclusive' as const) : ('exclusive' as const) },
    /** Each integration's settings, from its own keys (decisions 046, 064, 065). */
    integrations: {
      tradingview: tradingViewSettings(env, { name: env.BRAND_NAME, slug }),
      discord: discordSettings(env),
      telegram: telegramSettings(env),
      mail: mailSettings(env, { name: env.BRAND_NAME, supportEmail: env.SUPPORT_EMAIL }),
    },
    /** The content studio's image bytes (modules/content/content-storage.ts). */
    contentStorage: contentStorage(env),
    site: {
      brandName: env.BRAND_NAME,
      brandSlug: slug,
      brandLogoUrl: env.BRAND_LOGO_URL,
      supportEmail: env.SUPPORT_EMAIL,
      companyName: env.COMPANY_NAME,
      companyState: env.COMPANY_STATE,
      discordInviteUrl: env.DISCORD_INVITE_URL,
      docsUrl: env.DOCS_URL,
      chatUrl: env.CHAT_URL ?? null,
      saleEndsAt: env.SALE_ENDS_AT === undefined ? null : new Date(env.SALE_ENDS_AT).toISOString(),
      saleLabel: env.SALE_LABEL,
      metaPixelId: env.META_PIXEL_ID ?? null,
      prices: perPlan(PLAN_TYPES, (plan) => env[planEnvKey('PRICE', plan)]),
      regularPrices: perPlan(CAMPAIGN_PLANS, (plan) => env[planEnvKey('REGULAR_PRICE', plan)]),
      /** Free trials (TRIAL_DAYS, TRIAL_PLANS); days 0: off. */
      trial: { days: env.TRIAL_DAYS, plans: env.TRIAL_DAYS > 0 ? env.TRIAL_PLANS : [] },
    },
  };
}

function contentStorage(env: Env) {
  if (env.CONTENT_STORAGE === 'disk') return { kind: 'disk' as const, dir: env.CONTENT_STORAGE_DIR ?? `${env.DATA_DIR}/content-images` };
  if (env.CONTENT_STORAGE === 's3') {
    return {
      kind: 's3' as const,
      endpoint: env.CONTENT_S3_ENDPOINT ?? '',
      bucket: env.CONTENT_S3_BUCKET ?? '',
      region: env.CONTENT_S3_REGION,
      accessKeyId: env.CONTENT_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.CONTENT_S3_SECRET_ACCESS_KEY ?? '',
      prefix: env.CONTENT_S3_PREFIX,
    };
  }
  return { kind: 'database' as const };
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
    for (const plan of PLAN_TYPES) {
      if (!config.payments.priceIds[plan]) problems.push(`${planEnvKey('STRIPE_PRICE', plan)}: required when STRIPE_SECRET_KEY is set`);
    }
    // A sale that can end needs the price ids to charge after it; the demo's rolling sale never ends.
    if (config.site.saleEndsAt !== null) {
      for (const plan of CAMPAIGN_PLANS) {
        if (!config.payments.regularPriceIds[plan]) problems.push(`${planEnvKey('STRIPE_REGULAR_PRICE', plan)}: required with STRIPE_SECRET_KEY when SALE_ENDS_AT is set`);
      }
    }
  }
  problems.push(...tradingViewSettingsProblems(parsed.data));
  problems.push(...discordSettingsProblems(parsed.data, config.integrations.discord));
  problems.push(...telegramSettingsProblems(config.integrations.telegram));
  if (config.isProduction && config.database.kind === 'postgres' && !config.auth.secret) {
    problems.push('AUTH_SECRET: required in production on a shared Postgres so that every instance signs sessions alike');
  }
  if (config.isProduction && config.payments.kind === 'stripe' && config.integrations.mail.kind === 'outbox') {
    problems.push('SMTP_URL: required in production with live payments, or buyers cannot receive password-reset and sign-in mails');
  }
  if (config.contentStorage.kind === 's3') {
    for (const key of ['CONTENT_S3_ENDPOINT', 'CONTENT_S3_BUCKET', 'CONTENT_S3_ACCESS_KEY_ID', 'CONTENT_S3_SECRET_ACCESS_KEY'] as const) {
      if (!parsed.data[key]) problems.push(`${key}: required with CONTENT_STORAGE=s3`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * Whether anyone may read the sandbox outbox: only a demo where every adapter is a sandbox and
 * the app does not run in production (operators may always; see mailbox.routes.ts).
 */
export function outboxIsPublic(config: Config): boolean {
  return !config.isProduction && config.payments.kind === 'sandbox' && !config.integrations.tradingview.credentials && config.integrations.mail.kind === 'outbox';
}

/** Which adapters run against sandboxes; shown as the 'Sandbox' marker and logged at start. */
export function sandboxAdapters(config: Config): string[] {
  const sandboxes: string[] = [];
  if (config.payments.kind === 'sandbox') sandboxes.push('payments');
  if (!config.integrations.tradingview.credentials) sandboxes.push('tradingview');
  if (!config.integrations.discord.credentials) sandboxes.push('discord');
  if (config.integrations.mail.kind === 'outbox') sandboxes.push('mail');
  return sandboxes;
}
