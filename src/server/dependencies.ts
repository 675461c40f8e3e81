import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSaleRunning } from '@shared/campaign';
import type Stripe from 'stripe';
import type { WantedPrice } from '@shared/catalogue-publishing';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Logger } from './logger';
import { createAuth, type Auth, type PasswordHashing } from './modules/auth/auth';
import type { PaymentsPort } from './modules/payments/payments.port';
import type { ContentCatalogue } from './modules/content/content-loader';
import { createContentLibrary, staticContentLibrary, type ContentLibrary } from './modules/content/content-library';
import { siteCatalogueOptions } from './modules/content/content.service';
import { createDatabaseContentStorage, createDiskContentStorage, type ContentStorage } from './modules/content/content-storage';
import { createS3ContentStorage } from './modules/content/s3-content-storage';
import type { MailPort } from './modules/mail/mail.port';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { createOutboxMail } from './modules/mail/outbox-mail';
import { createSmtpMail } from './modules/mail/smtp-mail';
import { createCheckoutProofs, type CheckoutProofs } from './modules/billing/checkout-proof';
import { createUnsubscribeLinks, type UnsubscribeLinks } from './modules/member-mails/unsubscribe-links';
import { createSandboxPayments } from './modules/sandbox/sandbox-payments';
import { createSandboxTradingView } from './modules/sandbox/sandbox-tradingview';
import { nameUnnamedScripts } from './modules/tradingview/script-names';
import { createGrantReconciler, type GrantReconciler } from './modules/tradingview/grant-reconciler';
import { createTradingViewClient } from './modules/tradingview/tradingview-client';
import type { TradingViewPort } from './modules/tradingview/tradingview.port';
import { createCatalogueStore, type CatalogueStore } from './modules/catalogue/catalogue-store';
import { configSeed } from './modules/catalogue/catalogue-seed';
import type { CataloguePublisher } from './modules/catalogue/catalogue.service';
import { recordOperatorAction } from './modules/admin/audit.repository';
import type { Integration, OperatorAuditEntry } from './integration';
import { INTEGRATIONS } from './integrations';
import { ownListCharge } from '@shared/price-lists';

/** Everything the HTTP app needs; tests build the same object with other adapters. */
export type Dependencies = {
  config: Config;
  database: Database;
  logger: Logger;
  /** The sender behind the outbox worker: SMTP, or the sandbox outbox itself. */
  mail: MailPort;
  /** The durable outbox's worker; main.ts starts its loop, mails are written with enqueueMail. */
  mailer: Mailer;
  /** Proof that a caller may take a paid purchase: the checkout browser's cookie or the mailed link. */
  checkoutProofs: CheckoutProofs;
  /** Signs and reads the member mails' unsubscribe links (decision 056). */
  unsubscribeLinks: UnsubscribeLinks;
  auth: Auth;
  clock: () => Date;
  /** The published guides and strategies members read, kept in memory (or a fixed catalogue a test passes). */
  content: ContentLibrary;
  /** Where the content studio's image bytes live: the database, a folder or an S3-compatible bucket. */
  contentStorage: ContentStorage;
  tradingView: TradingViewPort;
  /** Grants and revokes TradingView access; main.ts starts its loop, billing calls syncUser. */
  reconciler: GrantReconciler;
  /** Stripe or the sandbox provider, from config.payments; tests may pass another adapter. */
  payments: PaymentsPort;
  /** The integrations of integrations.ts, built once (their subscribers, loops, routes, cards; decision 046). */
  integrations: Integration[];
  /** Plans, price lists and sales, read from memory (decision record 045). */
  catalogue: CatalogueStore;
};

/**
 * The auth secret: AUTH_SECRET when set; otherwise one generated once and kept beside the
 * embedded database, so that a zero-config install keeps its sessions across restarts.
 */
export async function resolveAuthSecret(config: Config): Promise<string> {
  if (config.auth.secret) return config.auth.secret;
  const file = join(config.dataDir, 'auth-secret');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing.trim().length >= 32) return existing.trim();
  const secret = randomBytes(32).toString('hex');
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

// Each port's adapter is chosen here, from the configuration, and nowhere else: the domain modules
// know their port, never which adapter stands behind it.

/**
 * Stripe with STRIPE_SECRET_KEY, else the sandbox. The Stripe SDK (about 20 MB resident) is
 * imported only here, so a sandboxed shop never loads it.
 */
export async function buildPayments(deps: { config: Config; db: Db; logger: Logger; clock: () => Date; catalogue?: CatalogueStore }): Promise<PaymentsPort> {
  const { config } = deps;
  const catalogue = deps.catalogue ?? buildCatalogue(config, deps.db, deps.clock);
  if (config.payments.kind === 'stripe') {
    const { createStripePayments } = await import('./modules/payments/stripe-payments');
    const { createCheckoutPrices, ensurePrice } = await import('./modules/catalogue/catalogue-stripe');
    const { secretKey, webhookSecret, priceIds, regularPriceIds } = config.payments;
    const regular = { priceIds: regularPriceIds, saleRunning: () => isSaleRunning(config.site, deps.clock()) };
    // once the catalogue is edited, a checkout charges its published Price (decision record 058)
    const checkoutPrice = createCheckoutPrices({ catalogue: () => catalogue.current(), edited: () => catalogue.version() > 0, clock: deps.clock, settings: { taxBehavior: config.tax.behavior, configured: priceIds } });
    const publishSettings = { taxBehavior: config.tax.behavior, configured: priceIds };
    const publishedPrice = async (stripe: Stripe, price: WantedPrice) => (await ensurePrice(stripe, catalogue.current(), price, publishSettings)).id;
    return createStripePayments({ secretKey, webhookSecret, priceIds, regular, tax: config.tax, checkoutPrice, publishedPrice }, deps.logger);
  }
  return createSandboxPayments({
    db: deps.db,
    clock: deps.clock,
    prices: () => catalogue.prices(deps.clock()),
    listCharge: (planType, originPage) => ownListCharge(catalogue.current(), planType, originPage, deps.clock()),
    // The sandbox portal is a page of this shop: a relative link keeps whichever address the buyer used.
    portalReturnUrl: '/dashboard/settings?section=subscription',
    tax: config.tax,
  });
}

/** Publishing the catalogue at Stripe (`plans publish`, decision record 058); undefined in the sandbox. */
export async function buildCataloguePublisher(config: Config): Promise<CataloguePublisher | undefined> {
  const payments = config.payments;
  if (payments.kind !== 'stripe') return undefined;
  const { createStripeClient } = await import('./modules/payments/stripe-payments');
  const { publishCatalogue } = await import('./modules/catalogue/catalogue-stripe');
  const stripe = createStripeClient({ secretKey: payments.secretKey });
  return (catalogue) => publishCatalogue(stripe, catalogue, { taxBehavior: config.tax.behavior, configured: payments.priceIds });
}

/** The catalogue in memory, its seed from the configuration; edits are audited as operator actions. */
export function buildCatalogue(config: Config, db: Db, clock: () => Date): CatalogueStore {
  return createCatalogueStore({ db, seed: configSeed(config), ttlMs: config.memberCacheMs, now: () => clock().getTime(), audit: recordOperatorAction });
}

/**
 * The real TradingView client when session cookies are configured, else the sandbox, and the
 * reconciler that drives it; `port` lets tests pass another adapter.
 */
export function buildTradingView(input: { config: Config; db: Db; logger: Logger; clock: () => Date; port?: TradingViewPort | undefined }): {
  tradingView: TradingViewPort;
  reconciler: GrantReconciler;
} {
  const { config, db, logger, clock } = input;
  const settings = config.tradingView;
  const tradingView =
    input.port ??
    (settings.credentials
      ? createTradingViewClient({ baseUrl: settings.baseUrl, credentials: settings.credentials, scriptIds: settings.scriptIds })
      : createSandboxTradingView({ db, missingUsernames: settings.sandboxMissingUsernames, scripts: settings.sandboxScripts, clock }));
  const reconciler = createGrantReconciler({
    db,
    port: tradingView,
    scriptIds: settings.scriptIds,
    logger: logger.child({ module: 'tradingview' }),
    clock,
    intervalMs: settings.reconcileIntervalMs,
  });
  return { tradingView, reconciler };
}

/** The content studio's image storage from CONTENT_STORAGE (the database by default). */
export function buildContentStorage(config: Config, db: Db): ContentStorage {
  const storage = config.contentStorage;
  if (storage.kind === 'disk') return createDiskContentStorage(storage.dir);
  if (storage.kind === 's3') return createS3ContentStorage(storage);
  return createDatabaseContentStorage(db);
}

export async function buildDependencies(
  config: Config,
  database: Database,
  logger: Logger,
  options: { secret: string; mail?: MailPort; clock?: () => Date; content?: ContentCatalogue; tradingView?: TradingViewPort; payments?: PaymentsPort; passwordHashing?: PasswordHashing },
): Promise<Dependencies> {
  const mail =
    options.mail ?? (config.mail.kind === 'smtp' ? createSmtpMail(config.mail.url, config.mail.from) : createOutboxMail(logger, { logLinks: config.env === 'development' }));
  const clock = options.clock ?? (() => new Date());
  const checkoutProofs = createCheckoutProofs({
    secret: options.secret,
    cookieName: `${config.site.brandSlug}.checkout`,
    secureCookie: config.publicUrl.startsWith('https://'),
    publicUrl: config.publicUrl,
  });
  const mailer = createMailer({
    db: database.db,
    sender: mail,
    logger,
    clock,
    context: { brand: config.site.brandName, publicUrl: config.publicUrl, supportEmail: config.site.supportEmail, scripts: config.tradingView.scriptIds, finishSetupUrl: checkoutProofs.finishSetupUrl },
  });
  const catalogue = buildCatalogue(config, database.db, clock);
  await catalogue.load();
  const audit = (entry: OperatorAuditEntry) => recordOperatorAction(database.db, entry);
  const integrations = INTEGRATIONS.map((integration) => integration.build({ config, db: database.db, logger, clock, catalogue, audit }));
  // an account linked through better-auth belongs to its integration: auth gets the integration's callbacks
  const linking = integrations.find((integration) => integration.linking)?.linking;
  const auth = createAuth({ db: database.db, config, mailer, logger, secret: options.secret, clock, linking, passwordHashing: options.passwordHashing });
  const tradingView = buildTradingView({ config, db: database.db, logger, clock, port: options.tradingView });
  // Scripts are named, never shown as PUB; ids: the sandbox's catalogue is named on the first start
  // (a live shop's by the reconciler's first pass, from TradingView's own list).
  if (tradingView.tradingView.kind === 'sandbox' && !options.tradingView) {
    await nameUnnamedScripts(database.db, tradingView.tradingView, config.tradingView.scriptIds).catch((error: unknown) =>
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not name the sandbox scripts'),
    );
  }
  const payments = options.payments ?? (await buildPayments({ config, db: database.db, logger, clock, catalogue }));
  const contentStorage = buildContentStorage(config, database.db);
  const content = options.content
    ? staticContentLibrary(options.content)
    : createContentLibrary({ db: database.db, storage: contentStorage, options: siteCatalogueOptions(config), cacheMs: config.memberCacheMs, logger: logger.child({ module: 'content' }), now: () => clock().getTime() });
  return { config, database, logger, mail, mailer, checkoutProofs, unsubscribeLinks: createUnsubscribeLinks(options.secret), auth, clock, content, contentStorage, ...tradingView, payments, integrations, catalogue };
}
