// The composition root: every service and job is built here, once, from the adapters in
// Dependencies. createApp mounts routes on these services and main.ts starts these jobs; tests
// build through the same function (src/server/test-support/test-app.ts), so they run the wiring they ship.
import type { Dependencies } from './dependencies';
import type { BackgroundLoop } from './jobs/background-loop';
import { createAdminOpsServices } from './modules/admin/admin-ops';
import type { AdminOpsServices } from './modules/admin/admin-ops.routes';
import { createOperatorAlertsJob } from './modules/admin/alerts-job';
import { createOperatorAlerts } from './modules/admin/alerts.service';
import { createMembersService, type MembersService } from './modules/admin/members.service';
import { operatorEmails } from './modules/admin/operator-emails';
import { createReportsService, type ReportsService } from './modules/admin/reports.service';
import type { OperatorDirectory } from './modules/auth/operator';
import { createOperatorInvitations, type OperatorInvitations } from './modules/auth/operator-invitations';
import { createBillingService, type BillingService } from './modules/billing/billing.service';
import { createPaymentEventHandler, reconcileUsers, type PaymentEventHandler } from './modules/fulfilment/fulfilment';
import { createSignatureRefusals, type SignatureRefusals } from './modules/fulfilment/signature-refusals';
import { createSandboxJobs, type SandboxJobs } from './modules/sandbox/sandbox-jobs';
import { createMailSchedule, type MailSchedule } from './modules/mail/mail-schedule';
import { createActivationService, type ActivationService } from './modules/activation/activation.service';
import { createTradingViewService, type TradingViewService } from './modules/tradingview/tradingview.service';

export type Services = {
  billing: BillingService;
  /** The one handler that turns provider events (webhooks, sandbox deliveries, replays) into rows. */
  paymentEvents: PaymentEventHandler;
  /** Webhook deliveries this instance refused for a bad signature (the route counts, the alert reads). */
  signatureRefusals: SignatureRefusals;
  tradingView: TradingViewService;
  activation: ActivationService;
  directory: OperatorDirectory;
  invitations: OperatorInvitations;
  members: MembersService;
  reports: ReportsService;
  adminOps: AdminOpsServices;
};

/** The background work main.ts starts and stops; tests drive single passes instead. */
export type Jobs = {
  reconciler: Dependencies['reconciler'];
  mailer: Dependencies['mailer'];
  mailSchedule: MailSchedule;
  /** Sandbox renewals and event delivery; null when payments run on Stripe. */
  sandbox: SandboxJobs | null;
  operatorAlerts: BackgroundLoop;
};

export type Composition = { deps: Dependencies; services: Services; jobs: Jobs };

export function compose(deps: Dependencies): Composition {
  const { config, database, logger, clock, payments, reconciler, auth, mailer } = deps;
  const db = database.db;
  const onUsersChanged = reconcileUsers(reconciler);
  const billing = createBillingService({ db, payments, config, logger, clock, onUsersChanged });
  const paymentEvents = createPaymentEventHandler({ db, payments, logger, clock, onUsersChanged });
  const tradingView = createTradingViewService({ db, port: deps.tradingView, reconciler, logger, clock });
  const activation = createActivationService({
    auth,
    logger,
    billing,
    setTradingViewUsername: (userId, username) => tradingView.setUsername(userId, username),
    syncAccess: (userId) => reconciler.syncUser(userId),
    requireEmailVerification: config.auth.requireEmailVerification,
  });
  // bad webhook signatures, counted in memory by this instance: its webhook route and its alert share the tally
  const signatureRefusals = createSignatureRefusals();
  const alerts = createOperatorAlerts({
    db,
    refusals: signatureRefusals,
    tradingView: deps.tradingView,
    recipients: () => operatorEmails({ config, db }),
    clock,
    logger: logger.child({ module: 'operator-alerts' }),
  });
  const services: Services = {
    billing,
    paymentEvents,
    signatureRefusals,
    tradingView,
    activation,
    directory: { config, db, clock },
    invitations: createOperatorInvitations({ db, auth, config, clock, logger: logger.child({ module: 'operator-invitations' }), mailer }),
    reports: createReportsService({ db, clock, prices: config.site.prices }),
    members: createMembersService({ db, clock, reconciler, tradingView, syncFromProvider: billing.syncUser, scriptIds: config.tradingView.scriptIds }),
    adminOps: createAdminOpsServices({ db, tradingView: deps.tradingView, reconciler, scriptIds: config.tradingView.scriptIds, clock, handler: paymentEvents, alerts }),
  };
  const jobs: Jobs = {
    reconciler,
    mailer,
    mailSchedule: createMailSchedule({ db, clock, logger, mailer }),
    sandbox: payments.kind === 'sandbox' ? createSandboxJobs({ payments, handler: paymentEvents, logger, clock }) : null,
    operatorAlerts: createOperatorAlertsJob(alerts, logger),
  };
  return { deps, services, jobs };
}
