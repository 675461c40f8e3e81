import { retentionAdminRoutes, retentionRoutes } from './modules/retention/retention.routes';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { createReadCache, type ReadCache } from '@shared/read-cache';
import type { SiteSettings } from '@shared/site';
import type { Campaign } from '@shared/campaign';
import type { CatalogueStore } from './modules/catalogue/catalogue-store';
import { catalogueAdminRoutes } from './modules/catalogue/catalogue.routes';
import type { Composition } from './composition';
import { outboxIsPublic, sandboxAdapters, type Config } from './config';
import { requestBodyLimit } from './http/body-limit';
import { jsonDepthLimit } from './http/json-depth';
import { compression } from './http/compression';
import { clientAddress } from './http/client-address';
import { errorBody, handleError } from './http/errors';
import { createMetrics, metricsEnabled } from './http/metrics';
import { httpsRedirect } from './http/https-redirect';
import { publicUrlNotice } from './http/public-address';
import { describeOperation, openApiHandler } from './http/openapi';
import { browserTokenCookie } from './http/browser-token';
import { mountSpa } from './http/spa';
import { rememberingRouter } from './http/remembering-router';
import { accessRoutes } from './modules/access/access.routes';
import { adminRoutes, operatorStatusRoutes } from './modules/admin/admin.routes';
import { importAdminRoutes } from './modules/imports/imports.routes';
import { adminOpsRoutes } from './modules/admin/admin-ops.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { operatorInvitationRoutes } from './modules/auth/operator-invitations.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes';
import { sandboxReceiptRoutes } from './modules/sandbox/sandbox-receipt.routes';
import { invoicesRoutes } from './modules/invoices/invoices.routes';
import { webhookRoutes } from './modules/fulfilment/webhooks.routes';
import { contentRoutes } from './modules/content/content.routes';
import { announcementRoutes, contentStudioAdminRoutes } from './modules/content/content-studio.routes';
import { memberStanding } from './modules/content/content.repository';
import { loadSession } from './modules/auth/session.middleware';
import { requireOperator } from './modules/auth/operator';
import { type AuthVariables } from './http/session-user';
import { createSessionRepository } from './modules/auth/session.repository';
import { securityRoutes } from './modules/security/security.routes';
import { activationRoutes } from './modules/activation/activation.routes';
import { trialAdminRoutes, trialRoutes } from './modules/trials/trials.routes';
import { promotionAdminRoutes, promotionRoutes } from './modules/promotions/promotions.routes';
import { integrationCardRoutes, mergeRoutes } from './integration-routes';
import { communitiesOf } from './linked-accounts';
import { affiliateAdminRoutes, affiliateRoutes } from './modules/affiliates/affiliates.routes';
import { referralCookieName, referralLinks } from './modules/affiliates/referral-links';
import { getCookie } from 'hono/cookie';
import { funnelAdminRoutes } from './modules/funnel/funnel.routes';
import { exportsAdminRoutes } from './modules/exports/exports.routes';
import { retentionReportAdminRoutes } from './modules/retention-report/retention-report.routes';
import { utmCookieName } from './modules/funnel/visit-counter';
import { checkoutRecoveryRoutes } from './modules/recovery/checkout-recovery.routes';
import { memberMailAdminRoutes, memberMailRoutes, unsubscribePageRoutes } from './modules/member-mails/member-mails.routes';

export type AppOptions = {
  /** Where the built client lives; null when only the API is served (tests, dev). */
  clientDir: string | null;
  /** The member read cache; built from the configuration when absent (tests pass one to watch it). */
  reads?: ReadCache;
  /** True once the instance is stopping: /readyz answers 503 so that the proxy sends no more (main.ts). */
  stopping?: () => boolean;
};

/** The public settings; with the catalogue, its campaign at `now` and the catalogue itself (the cards are laid out from it). */
export function publicSiteSettings(config: Config, catalogue?: Pick<CatalogueStore, 'campaign'>, now: Date = new Date()): SiteSettings {
  if (!catalogue) return { ...config.site, sandbox: sandboxAdapters(config) };
  return { ...config.site, ...catalogue.campaign(now), sandbox: sandboxAdapters(config) };
}

/** The settings at `now`, the same object while the catalogue's campaign is (so pages render once per change). */
function siteSettingsOf(config: Config, catalogue: CatalogueStore): (now: Date) => SiteSettings {
  let kept: { campaign: Campaign; settings: SiteSettings } | null = null;
  return (now) => {
    const campaign = catalogue.campaign(now);
    if (kept?.campaign !== campaign) kept = { campaign, settings: { ...config.site, ...campaign, sandbox: sandboxAdapters(config) } };
    return kept.settings;
  };
}

/**
 * Builds the whole HTTP app on the composed services; main.ts only wires real adapters and serves
 * it behind the edge (http/edge.ts: request ids, security headers, the request log).
 */
export async function createApp(composition: Composition, options: AppOptions = { clientDir: null }) {
  const { deps, services, integrations = [] } = composition;
  const { config, database, logger, clock, payments, checkoutProofs } = deps;
  const db = database.db;
  const app = new Hono({ router: rememberingRouter() });
  // a member's session, access and account reads, kept for MEMBER_CACHE_MS (decision record 021)
  const reads = options.reads ?? createReadCache({ ttlMs: config.memberCacheMs, changes: database.writes, now: () => clock().getTime() });

  const browserTokens = { cookieName: browserTokenCookie(config.site.brandSlug), secureCookie: config.publicUrl.startsWith('https://') };

  // requests by route and their time, and /metrics itself: only when someone may read them
  const metrics = metricsEnabled(config) ? createMetrics({ db, clock, config, communities: communitiesOf(integrations) }) : null;
  if (metrics) app.use('*', metrics.observe);
  app.use('*', clientAddress(config.trustProxy));
  app.use('*', requestBodyLimit);
  app.use('*', jsonDepthLimit);
  if (config.isProduction) app.use('*', httpsRedirect({ publicUrl: config.publicUrl, previewHosts: config.previewHosts }));
  else app.use('*', publicUrlNotice(config, logger));
  app.use('*', compression);
  // the catalogue from memory: read again only when it changed elsewhere, at most once per MEMBER_CACHE_MS
  app.use('*', async (_c, next) => {
    await deps.catalogue.fresh();
    return next();
  });
  const siteSettings = siteSettingsOf(config, deps.catalogue);
  // the API's errors too: a sub-app with an onError of its own has Hono wrap each of its handlers
  // in one more composed layer per request (six on a member route), for the same answer
  app.onError((error, c) => handleError(error, c, logger));
  // /?ref=CODE on any page: the affiliate's click and referral cookie (never stops the page)
  const referralCookie = referralCookieName(config.site.brandSlug);
  app.use('*', referralLinks({ affiliates: services.affiliates, cookieName: referralCookie, browserTokens, logger }));
  // a person's visit of a landing page, counted in memory (no database round trip on the page)
  app.use('*', services.visits.middleware);

  app.get('/healthz', describeOperation({ summary: 'Liveness: the process answers', auth: 'none', ok: '{ status: "ok" }' }), (c) => c.json({ status: 'ok' }));
  app.get('/readyz', describeOperation({ summary: 'Readiness: the database answers and the instance is not stopping (503 otherwise)', auth: 'none', ok: '{ status: "ready", database }' }), async (c) => {
    if (options.stopping?.()) return c.json(errorBody('stopping', 'This instance is stopping; the others answer.'), 503);
    try {
      await database.ping();
      return c.json({ status: 'ready', database: database.engine });
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      return c.json(errorBody('database_unreachable', 'The database is not reachable.'), 503);
    }
  });

  if (metrics) {
    app.get('/metrics', describeOperation({ summary: 'Prometheus metrics (METRICS_TOKEN bearer token or an address in METRICS_ALLOW; 403 otherwise)', auth: 'none', ok: 'text/plain; version=0.0.4' }), (c) => metrics.serve(c));
  }

  // Before the API and its middleware: the signature check needs the untouched raw body.
  app.route('/api/webhooks', webhookRoutes({ payments, handler: services.paymentEvents, refusals: services.signatureRefusals, logger, clock }));
  app.route('/api/auth', authRoutes({ auth: deps.auth, config, reads }));

  const api = new Hono<{ Variables: AuthVariables }>();
  // a cross-site form post (text/plain, urlencoded, multipart) is refused before it reaches a route
  api.use('*', csrf({ origin: config.trustedOrigins }));
  api.use('*', loadSession(deps.auth, createSessionRepository(db), reads));
  api.get('/site', describeOperation({ summary: 'The public site settings: brand, contacts, campaign, sandboxed adapters', auth: 'none', ok: 'SiteSettings (src/shared/site.ts)' }), (c) => c.json(siteSettings(clock())));
  api.get('/openapi.json', describeOperation({ summary: 'This OpenAPI document', auth: 'none' }), openApiHandler(app, config.site.brandName));
  api.route('/', accessRoutes());
  const standing = (userId: string) => memberStanding(db, userId);
  api.route('/', contentRoutes({ library: deps.content, standing, reads, clock }));
  api.route('/', announcementRoutes({ announcements: services.announcements, standing, reads }));
  api.route('/', securityRoutes({ db, clock, reads }));
  api.route('/', billingRoutes({ db, reads, billing: services.billing, config, clock, checkoutProofs, browserTokens, onCheckoutStarted: async (c, sessionId) => {
    await services.affiliates.recordCheckout(sessionId, getCookie(c, referralCookie));
    await services.funnel.recordCheckout(sessionId, getCookie(c, utmCookieName(config.site.brandSlug)));
  } }));
  api.route('/', invoicesRoutes({ invoices: services.invoices }));
  if (payments.kind === 'sandbox') api.route('/sandbox', sandboxRoutes({ payments, handler: services.paymentEvents, logger, checkoutProofs }));
  const sandboxOpenToAll = () => outboxIsPublic(config);
  const integrationRoutes = integrations.map((integration) =>
    integration.routes({ trustedOrigins: config.trustedOrigins, reads, directory: services.directory, sandboxOpenToAll, sandboxReaders: requireOperator(services.directory, sandboxOpenToAll) }),
  );
  for (const routes of integrationRoutes) api.route('/', routes.api);
  api.route('/', activationRoutes({ service: services.activation, checkoutProofs, trustedOrigins: config.trustedOrigins, clock }));
  api.route('/', trialRoutes({ trials: services.trials }));
  api.route('/', promotionRoutes({ db, clock, promotions: services.promotions }));
  api.route('/', affiliateRoutes({ affiliates: services.affiliates }));
  api.route('/', retentionRoutes({ retention: services.retention }));
  api.route('/', memberMailRoutes(services.memberMails));
  const { directory, reports, members, support, invitations } = services;
  api.route('/', operatorStatusRoutes(directory));
  api.route('/operator-invitations', operatorInvitationRoutes({ invitations, trustedOrigins: config.trustedOrigins }));
  // One console under /api/admin: adminRoutes puts requireOperator before every path, these included.
  api.route('/admin', adminRoutes({ db, directory, reports, members, support, invitations }).route('/', adminOpsRoutes(services.adminOps)).route('/', trialAdminRoutes({ trials: services.trials })).route('/', promotionAdminRoutes(services.promotions)).route('/', importAdminRoutes(services.imports)).route('/', integrationCardRoutes(integrations)).route('/', mergeRoutes(integrationRoutes.map((routes) => routes.admin))).route('/', contentStudioAdminRoutes({ studio: services.contentStudio, announcements: services.announcements, storage: deps.contentStorage })).route('/', affiliateAdminRoutes(services.affiliates)).route('/', catalogueAdminRoutes(services.catalogue)).route('/', funnelAdminRoutes(services.funnel)).route('/', retentionAdminRoutes({ retention: services.retention })).route('/', memberMailAdminRoutes(services.memberMails)).route('/', retentionReportAdminRoutes(services.retentionReport)).route('/', exportsAdminRoutes(services.exports)));
  api.all('*', (c) => c.json(errorBody('not_found', `No API route ${c.req.method} ${c.req.path}`), 404));
  app.route('/api', api);

  // The sandbox's invoice pages, as Stripe hosts its own: HTML of the server, not of the client app.
  if (payments.kind === 'sandbox') app.route('/sandbox/receipts', sandboxReceiptRoutes({ db, brandName: config.site.brandName, supportEmail: config.site.supportEmail }));
  // the recovery mail's links: server pages, opened from a mail client
  app.route('/checkout/recover', checkoutRecoveryRoutes({ recovery: services.checkoutRecovery, site: config.site }));
  // the member mails' unsubscribe links (decision 056)
  app.route('/mail/unsubscribe', unsubscribePageRoutes({ mails: services.memberMails, site: config.site }));
  if (options.clientDir) await mountSpa(app, options.clientDir, siteSettings, browserTokens);
  return app;
}
