// The composition root: every service and job is built here, once, from the adapters in
// Dependencies. createApp mounts routes on these services and main.ts starts these jobs; tests
// build through the same function (src/server/test-support/test-app.ts), so they run the wiring they ship.
import type { Db } from './db/client';
import type { Dependencies } from './dependencies';
import type { Logger } from './logger';
import type { BackgroundLoop } from './jobs/background-loop';
import { createAdminOpsServices } from './modules/admin/admin-ops';
import { communitiesOf } from './linked-accounts';
import type { AdminOpsServices } from './modules/admin/admin-ops.routes';
import { createOperatorAlertsJob } from './modules/admin/alerts-job';
import { createOperatorAlerts } from './modules/admin/alerts.service';
import { createMembersService, type MembersService } from './modules/admin/members.service';
import { createSupportActions, type SupportActions } from './modules/admin/support-actions.service';
import { operatorEmails } from './modules/admin/operator-emails';
import { createReportsService, type ReportsService } from './modules/admin/reports.service';
import type { OperatorDirectory } from './modules/auth/operator';
import { createOperatorInvitations, type OperatorInvitations } from './modules/auth/operator-invitations';
import { createBillingService, type BillingService } from './modules/billing/billing.service';
import { createInvoicesService, type InvoicesService } from './modules/invoices/invoices.service';
import { createFulfilment, type PaymentEventHandler } from './modules/fulfilment/fulfilment';
import type { AccessSubscriber } from '@shared/access-changes';
import { createAccessChangeDelivery, createAccessChangesLoop } from './modules/entitlements/access-change-delivery';
import { createEntitlements, type Entitlements } from './modules/entitlements/entitlements';
import { createSignatureRefusals, type SignatureRefusals } from './modules/fulfilment/signature-refusals';
import { createSandboxJobs, type SandboxJobs } from './modules/sandbox/sandbox-jobs';
import { createActivationService, type ActivationService } from './modules/activation/activation.service';
import { applySubscription } from './modules/fulfilment/fulfilment';
import { createTrialsService, type TrialsService } from './modules/trials/trials.service';
import { createPromotionsService, type PromotionsService } from './modules/promotions/promotions.service';
import { recordOperatorAction } from './modules/admin/audit.repository';
import { tradingViewOf } from './modules/tradingview/tradingview.integration';
import { createImportAccounts } from './modules/imports/import-accounts';
import { createImports, type Imports } from './modules/imports/imports.service';
import type { Integration } from './integration';
import { createContentStudio, type ContentStudio } from './modules/content/content-studio.service';
import { createAnnouncements, type Announcements } from './modules/content/announcements.service';
import { PREVIEW_IMAGE_PREFIX, siteCatalogueOptions } from './modules/content/content.service';
import { createAffiliatesService, type AffiliatesService } from './modules/affiliates/affiliates.service';
import { affiliateMails, createAffiliateDigestJob } from './modules/affiliates/affiliate-mails';
import { createVisitCounter, utmCookieName, type VisitCounter } from './modules/funnel/visit-counter';
import { createFunnelService, type FunnelService } from './modules/funnel/funnel.service';
import { saveVisits } from './modules/funnel/funnel.repository';
import { createCheckoutRecovery, type CheckoutRecovery } from './modules/recovery/checkout-recovery.service';
import { createMemberMails, type MemberMails } from './modules/member-mails/member-mails.service';
import { createCatalogueService, type CatalogueService } from './modules/catalogue/catalogue.service';
import { createPriceMover } from './modules/catalogue/price-moves';
import { createRetentionService, type RetentionService } from './modules/retention/retention.service';
import { createRetentionReportService, type RetentionReportService } from './modules/retention-report/retention-report.service';
import { createExportsService, type ExportsService } from './modules/exports/exports.service';

export type Services = {
  /** The one writer of subscription rows and orders; tells the subscribers below what changed. */
  entitlements: Entitlements;
  billing: BillingService;
  /** The member's invoices at the payment provider (Settings → Subscription). */
  invoices: InvoicesService;
  /** The one handler that turns provider events (webhooks, sandbox deliveries, replays) into rows. */
  paymentEvents: PaymentEventHandler;
  /** Webhook deliveries this instance refused for a bad signature (the route counts, the alert reads). */
  signatureRefusals: SignatureRefusals;
  activation: ActivationService;
  /** Free trials, one per person (checkout eligibility, repeats, the member's trial, the console's report). */
  trials: TrialsService;
  /** Promotion codes: the console's and the command line's, mirrored at the provider; checked at checkout. */
  promotions: PromotionsService;
  /** Plans, price lists and sales: the console's and the command line's edits (decision record 045). */
  catalogue: CatalogueService;
  directory: OperatorDirectory;
  invitations: OperatorInvitations;
  members: MembersService;
  /** The member page's support actions: free days, pause and resume of collection, ban. */
  support: SupportActions;
  reports: ReportsService;
  adminOps: AdminOpsServices;
  /** The import of an existing business (`npm run import`), and its log for the console. */
  imports: Imports;
  /** The console's content studio: drafts, publication, revisions, images. */
  contentStudio: ContentStudio;
  /** What's new: announcements shown, mailed and posted by each integration that announces (integrations.ts). */
  announcements: Announcements;
  /** The affiliate program: links, attribution, commissions that follow the payment events, payouts. */
  affiliates: AffiliatesService;
  /** Landing visits counted in memory, added to the database in batches (the landing page's middleware). */
  visits: VisitCounter;
  /** The console's funnel and the UTM kept with each checkout. */
  funnel: FunnelService;
  /** One mail that reopens an abandoned checkout, and what its link does. */
  checkoutRecovery: CheckoutRecovery;
  /** The cancellation flow: reasons, retention offers (discount, pause), the console's offers and list (decision 052). */
  retention: RetentionService;
  /** The mail switches, the win-back mail and the set-up reminders, and each member's choices (decision 056). */
  memberMails: MemberMails;
  /** The Retention page's numbers from an hourly snapshot (decision 057). */
  retentionReport: RetentionReportService;
  /** The console's audited CSV downloads (decision 057). */
  exports: ExportsService;
};

/** The background work main.ts starts and stops; tests drive single passes instead. */
export type Jobs = {
  /** Sandbox renewals and event delivery; null when payments run on Stripe. */
  sandbox: SandboxJobs | null;
  operatorAlerts: BackgroundLoop;
  /** Retries access-change deliveries and records what time alone changes: access that ended, a canceled plan's last days (decision 063). */
  accessChanges: ReturnType<typeof createAccessChangesLoop>;
  /** The affiliates' daily "you earned a commission" digest. */
  affiliateDigest: ReturnType<typeof createAffiliateDigestJob>;
  /** Adds the landing visits counted in memory to the database every few seconds. */
  funnelVisits: VisitCounter;
  /** Writes the win-back mails and set-up reminders that are due. */
  memberMails: BackgroundLoop;
};

/** `integrations`: each one of integrations.ts, as the dependencies built it (its routes, loops, card; decision 046). */
export type Composition = { deps: Dependencies; services: Services; jobs: Jobs; integrations?: Integration[] };

export function compose(deps: Dependencies): Composition {
  const { config, database, logger, clock, payments, auth, mailer } = deps;
  const db = database.db;
  const { integrations } = deps;
  // the integrations members link accounts in: the member page, the funnel and the reminders read them
  const communities = communitiesOf(integrations);
  // Who hears of access changes: each integration in the registry's order (TradingView first, mail last).
  const subscribers: AccessSubscriber[] = integrations.map((integration) => integration.subscriber);
  // TradingView access is what the shop sells: activation, the member page, imports, the alerts and
  // the sandbox tools act on it through the integration's port and reconciler (decisions 064, 065).
  const tradingView = tradingViewOf(integrations);
  const { reconciler } = tradingView;
  const { entitlements, accessChanges } = composeEntitlements({ db, clock, logger, subscribers });
  const trials = createTrialsService({
    db,
    payments,
    settings: config.site.trial,
    logger: logger.child({ module: 'trials' }),
    clock,
    applySubscription: async (sub, asOf) => {
      await entitlements.write((writer) => applySubscription(writer, payments.kind, sub, asOf, logger));
    },
    kickMailer: () => mailer.kick(),
  });
  const promotions = createPromotionsService({ db, payments, clock, logger: logger.child({ module: 'promotions' }), audit: (entry) => recordOperatorAction(db, entry) });
  const affiliateNotices = affiliateMails({ db, clock, kickMailer: () => mailer.kick() });
  const affiliates = createAffiliatesService({
    db,
    payments,
    clock,
    logger: logger.child({ module: 'affiliates' }),
    publicUrl: config.publicUrl,
    audit: (entry) => recordOperatorAction(db, entry),
    notify: affiliateNotices,
    promotions,
  });
  const memberMails = createMemberMails({
    db,
    clock,
    logger: logger.child({ module: 'member-mails' }),
    links: deps.unsubscribeLinks,
    // each community of the registry with a reminder; it is sent where the built integration answers its links
    communities: Object.entries(deps.setupReminders).map(([name, reminder]) => ({ name, reminder, links: communities.find((community) => community.name === name)?.links ?? null })),
  });
  const checkoutRecovery = createCheckoutRecovery({ db, payments, clock, logger: logger.child({ module: 'checkout-recovery' }), kickMailer: () => mailer.kick(), switchedOn: () => memberMails.isOn('checkout_recovery') });
  const fulfilment = createFulfilment({
    db,
    payments,
    logger,
    clock,
    entitlements,
    afterEvent: async (event) => {
      await trials.afterPaymentEvent(event);
      await affiliates.afterPaymentEvent(event);
      await checkoutRecovery.afterPaymentEvent(event);
    },
  });
  const billing = createBillingService({ db, payments, config, logger, clock, fulfilment, trials, promotions, catalogue: deps.catalogue });
  const paymentEvents = fulfilment;
  // each username a member links is judged against earlier free trials
  tradingView.onUsernameLinked(trials.usernameAttached);
  const activation = createActivationService({
    auth,
    logger,
    billing,
    setTradingViewUsername: (userId, username) => tradingView.service.setUsername(userId, username),
    syncAccess: (userId) => reconciler.syncUser(userId),
    requireEmailVerification: config.auth.requireEmailVerification,
  });
  // bad webhook signatures, counted in memory by this instance: its webhook route and its alert share the tally
  const signatureRefusals = createSignatureRefusals();
  const alerts = createOperatorAlerts({
    db,
    refusals: signatureRefusals,
    tradingView: tradingView.port,
    recipients: () => operatorEmails({ config, db }),
    clock,
    logger: logger.child({ module: 'operator-alerts' }),
  });
  // the console's TradingView page shows when the alerts last checked the session
  tradingView.readSessionChecks(() => alerts.lastChecked('tradingview_session'));
  // The scripts whose access lists an import reads: one place to point at the script catalog.
  const catalogScriptIds = async () => (await tradingView.scripts.list()).map((script) => script.id);
  const visits = createVisitCounter({
    clock,
    logger: logger.child({ module: 'funnel' }),
    save: (tallies) => saveVisits(db, tallies),
    cookie: { name: utmCookieName(config.site.brandSlug), secure: config.publicUrl.startsWith('https://') },
    trustProxy: config.trustProxy,
    catalogue: () => deps.catalogue.current(),
  });
  const services: Services = {
    entitlements,
    billing,
    promotions,
    affiliates,
    visits,
    funnel: createFunnelService({ db, clock, visits, communities }),
    checkoutRecovery,
    memberMails,
    catalogue: createCatalogueService(deps.catalogue, {
      payments,
      mover: createPriceMover({ db, payments, taxBehavior: config.tax.behavior, audit: recordOperatorAction }),
      audit: (entry) => recordOperatorAction(db, entry),
      taxBehavior: config.tax.behavior,
    }),
    invoices: createInvoicesService({ db, payments, logger: logger.child({ module: 'invoices' }) }),
    paymentEvents,
    signatureRefusals,
    activation,
    trials,
    directory: { config, db, clock },
    invitations: createOperatorInvitations({ db, auth, config, clock, logger: logger.child({ module: 'operator-invitations' }), mailer }),
    reports: createReportsService({ db, clock, prices: config.site.prices }),
    members: createMembersService({ db, clock, reconciler, entitlements, tradingView: tradingView.service, syncFromProvider: billing.syncUser, scriptIds: tradingView.scriptIds, adminEmails: config.adminEmails, communities }),
    support: createSupportActions({ db, clock, payments, entitlements, logger: logger.child({ module: 'support' }) }),
    imports: createImports({
      db,
      clock,
      logger: logger.child({ module: 'imports' }),
      payments,
      entitlements,
      accounts: createImportAccounts({ auth, publicUrl: config.publicUrl, clock }),
      kickMailer: () => mailer.kick(),
      tradingView: tradingView.port,
      reconciler,
      scriptIds: catalogScriptIds,
    }),
    contentStudio: createContentStudio({
      db,
      storage: deps.contentStorage,
      library: deps.content,
      options: siteCatalogueOptions(config),
      clock,
      previewImageUrl: (name) => `${PREVIEW_IMAGE_PREFIX}${name}`,
    }),
    announcements: createAnnouncements({
      db,
      broadcasters: integrations.flatMap((integration) => (integration.announce ? [{ name: integration.name, announce: integration.announce }] : [])),
      kickMailer: () => mailer.kick(),
      publicUrl: config.publicUrl,
      clock,
      logger: logger.child({ module: 'announcements' }),
    }),
    adminOps: createAdminOpsServices({
      db,
      tradingView: tradingView.port,
      clock,
      handler: paymentEvents,
      alerts,
      payments,
      // run ahead only where no mail leaves and nobody paid: a demo's members
      memberMails: deps.mail.kind === 'outbox' && payments.kind === 'sandbox' ? { runOnce: memberMails.runOnce, kickMailer: () => mailer.kick() } : null,
    }),
    retention: createRetentionService({ db, clock, payments, applySubscription: fulfilment.applySubscription, audit: (entry) => recordOperatorAction(db, entry), logger: logger.child({ module: 'retention' }) }),
    retentionReport: createRetentionReportService({ db, clock, logger: logger.child({ module: 'retention-report' }) }),
    exports: createExportsService({ db, clock, audit: (entry) => recordOperatorAction(db, entry) }),
  };
  const jobs: Jobs = {
    sandbox: payments.kind === 'sandbox' ? createSandboxJobs({ payments, handler: paymentEvents, logger, clock, lanes: database.lanes }) : null,
    operatorAlerts: createOperatorAlertsJob(alerts, logger),
    accessChanges,
    affiliateDigest: createAffiliateDigestJob(affiliateNotices, logger.child({ module: 'affiliates' })),
    funnelVisits: visits,
    memberMails: memberMails.job(mailer),
  };
  return { deps, services, jobs, integrations };
}

/**
 * The entitlements core and the delivery of its changes to `subscribers`. Tests that need a
 * second instance on another connection build one here, like the composition does.
 */
export function composeEntitlements(deps: { db: Db; clock: () => Date; logger: Logger; subscribers: readonly AccessSubscriber[] }) {
  const logger = deps.logger.child({ module: 'entitlements' });
  const delivery = createAccessChangeDelivery({ ...deps, logger });
  const entitlements = createEntitlements({ ...deps, logger, deliver: delivery.deliverNow });
  return { entitlements, accessChanges: createAccessChangesLoop({ entitlements, delivery, logger }) };
}
