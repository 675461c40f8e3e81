import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSaleRunning } from '@shared/campaign';
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
import type { Mailer } from './modules/mail/mailer';
import { createCheckoutProofs, type CheckoutProofs } from './modules/billing/checkout-proof';
import { createUnsubscribeLinks, type UnsubscribeLinks } from './modules/member-mails/unsubscribe-links';
import { createSandboxPayments } from './modules/sandbox/sandbox-payments';
import { createCatalogueStore, type CatalogueStore } from './modules/catalogue/catalogue-store';
import { configSeed } from './modules/catalogue/catalogue-seed';
import { recordOperatorAction } from './modules/admin/audit.repository';
import { reminderTexts, type Integration, type OperatorAuditEntry, type SetupReminders } from './integration';
import { INTEGRATIONS } from './integrations';
import { ownListCharge } from '@shared/price-lists';

/** Everything the HTTP app needs; tests build the same object with other adapters. */
export type Dependencies = {
  config: Config;
  database: Database;
  logger: Logger;
  /** The sender behind the outbox worker: SMTP, or the sandbox outbox itself (the mail integration's). */
  mail: MailPort;
  /** The durable outbox's worker, the mail integration's (its loop with the integration's); mails are written with enqueueMail. */
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
  /** Stripe or the sandbox provider, from config.payments; tests may pass another adapter. */
  payments: PaymentsPort;
  /** The integrations of integrations.ts, built once (their subscribers, loops, routes, cards; decisions 046, 064). */
  integrations: Integration[];
  /** The community integrations' set-up reminders, by name: the member mails' kinds and switches follow them. */
  setupReminders: SetupReminders;
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
    const { createCataloguePrices } = await import('./modules/catalogue/catalogue-stripe');
    const { secretKey, webhookSecret, priceIds, regularPriceIds } = config.payments;
    const regular = { priceIds: regularPriceIds, saleRunning: () => isSaleRunning(config.site, deps.clock()) };
    // once the catalogue is edited, checkouts and plan changes charge its published Prices (decision record 058)
    const published = createCataloguePrices({ catalogue: () => catalogue.current(), edited: () => catalogue.version() > 0, clock: deps.clock, settings: { taxBehavior: config.tax.behavior, configured: priceIds } });
    return createStripePayments({ secretKey, webhookSecret, priceIds, regular, tax: config.tax, published }, deps.logger);
  }
  return createSandboxPayments({
    db: deps.db,
    clock: deps.clock,
    prices: () => catalogue.prices(deps.clock()),
    listCharge: (planType, originPage) => ownListCharge(catalogue.current(), planType, originPage, deps.clock()),
    catalogue: () => catalogue.current(),
    // The sandbox portal is a page of this shop: a relative link keeps whichever address the buyer used.
    portalReturnUrl: '/dashboard/settings?section=subscription',
    tax: config.tax,
  });
}

/** The catalogue in memory, its seed from the configuration; edits are audited as operator actions. */
export function buildCatalogue(config: Config, db: Db, clock: () => Date): CatalogueStore {
  return createCatalogueStore({ db, seed: configSeed(config), ttlMs: config.memberCacheMs, now: () => clock().getTime(), audit: recordOperatorAction });
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
  options: { secret: string; mail?: MailPort; clock?: () => Date; content?: ContentCatalogue; payments?: PaymentsPort; passwordHashing?: PasswordHashing },
): Promise<Dependencies> {
  const clock = options.clock ?? (() => new Date());
  const checkoutProofs = createCheckoutProofs({
    secret: options.secret,
    cookieName: `${config.site.brandSlug}.checkout`,
    secureCookie: config.publicUrl.startsWith('https://'),
    publicUrl: config.publicUrl,
  });
  const catalogue = buildCatalogue(config, database.db, clock);
  await catalogue.load();
  const audit = (entry: OperatorAuditEntry) => recordOperatorAction(database.db, entry);
  const setupReminders = reminderTexts(INTEGRATIONS);
  // which communities members can link is known once every integration is built (a mail asks as it is rendered)
  let built: readonly Integration[] = [];
  const offeredSteps = () => built.filter((integration) => integration.links).map((integration) => integration.name);
  const integrations = INTEGRATIONS.map((integration) =>
    integration.build({ config, db: database.db, logger, clock, catalogue, audit, finishSetupUrl: checkoutProofs.finishSetupUrl, setupReminders, offeredSteps, ...(options.mail ? { mailSender: options.mail } : {}) }),
  );
  built = integrations;
  await Promise.all(integrations.map((integration) => integration.prepare?.()));
  // auth, the console and the modules that write mails send them through the mail integration
  const shopMail = integrations.find((integration) => integration.mail)?.mail;
  if (!shopMail) throw new Error('no integration sends mail (integrations.ts registers mail)');
  const { sender: mail, mailer } = shopMail;
  // an account linked through better-auth belongs to its integration: auth gets the integration's callbacks
  const linking = integrations.find((integration) => integration.linking)?.linking;
  const auth = createAuth({ db: database.db, config, mailer, logger, secret: options.secret, clock, linking, passwordHashing: options.passwordHashing });
  const payments = options.payments ?? (await buildPayments({ config, db: database.db, logger, clock, catalogue }));
  const contentStorage = buildContentStorage(config, database.db);
  const content = options.content
    ? staticContentLibrary(options.content)
    : createContentLibrary({ db: database.db, storage: contentStorage, options: siteCatalogueOptions(config), cacheMs: config.memberCacheMs, logger: logger.child({ module: 'content' }), now: () => clock().getTime() });
  return { config, database, logger, mail, mailer, checkoutProofs, unsubscribeLinks: createUnsubscribeLinks(options.secret), auth, clock, content, contentStorage, payments, integrations, setupReminders, catalogue };
}
