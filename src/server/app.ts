import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import type { SiteSettings } from '@shared/site';
import { sandboxAdapters, type Config } from './config';
import type { Dependencies } from './dependencies';
import { requestBodyLimit } from './http/body-limit';
import { compression } from './http/compression';
import { clientAddress } from './http/client-address';
import { errorBody, handleError } from './http/errors';
import { httpsRedirect } from './http/https-redirect';
import { publicUrlNotice } from './http/public-address';
import { openApiDocument } from './http/openapi';
import { mountSpa } from './http/spa';
import { accessRoutes } from './modules/access/access.routes';
import { adminRoutes, operatorStatusRoutes } from './modules/admin/admin.routes';
import { createMembersService } from './modules/admin/members.service';
import { createReportsService } from './modules/admin/reports.service';
import { createAdminOpsServices } from './modules/admin/admin-ops';
import { adminOpsRoutes } from './modules/admin/admin-ops.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { createBillingService } from './modules/billing/billing.service';
import { reconcileUsers } from './modules/billing/fulfilment';
import { webhookRoutes } from './modules/billing/webhooks.routes';
import { contentRoutes } from './modules/content/content.routes';
import { loadSession, type AuthVariables } from './modules/auth/session.middleware';
import { createSessionRepository } from './modules/auth/session.repository';
import { mailboxRoutes } from './modules/mail/mailbox.routes';
import { securityRoutes } from './modules/security/security.routes';
import { createTradingViewService, type TradingViewService } from './modules/tradingview/tradingview.service';
import { tradingViewRoutes } from './modules/tradingview/tradingview.routes';
import { paymentRoutes } from './modules/payment/payment.routes';

export type AppOptions = {
  /** Where the built client lives; null when only the API is served (tests, dev). */
  clientDir: string | null;
};

export function publicSiteSettings(config: Config): SiteSettings {
  return { ...config.site, sandbox: sandboxAdapters(config) };
}

function contentSecurityPolicy(config: Config) {
  const pixel = config.site.metaPixelId ? ['https://connect.facebook.net'] : [];
  const pixelImages = config.site.metaPixelId ? ['https://www.facebook.com'] : [];
  const chat = config.site.chatUrl ? [new URL(config.site.chatUrl).origin] : [];
  // A brand mark on another host (BRAND_LOGO_URL) must be allowed to load.
  const logo = URL.canParse(config.site.brandLogoUrl) ? [new URL(config.site.brandLogoUrl).origin] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...pixel],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', ...pixelImages, ...logo],
    connectSrc: ["'self'", ...pixel, ...pixelImages],
    frameSrc: chat.length ? chat : ["'none'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** The operator console's services (issue 13), built from the same dependencies as the shop's. */
function operatorConsole(deps: Dependencies, tradingView: TradingViewService) {
  const { config, logger, clock, payments, reconciler } = deps;
  const db = deps.database.db;
  const billing = createBillingService({ db, payments, config, logger, clock, onUsersChanged: reconcileUsers(reconciler) });
  return {
    db,
    directory: { config, db },
    reports: createReportsService({ db, clock, prices: config.site.prices }),
    members: createMembersService({ db, clock, reconciler, tradingView, syncFromProvider: billing.syncUser, scriptIds: config.tradingView.scriptIds }),
  };
}

/** Builds the whole HTTP app from injected dependencies; main.ts only wires real ones. */
export async function createApp(deps: Dependencies, options: AppOptions = { clientDir: null }) {
  const { config, database, logger } = deps;
  const app = new Hono();

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    logger.info(
      { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  app.use('*', clientAddress(config.trustProxy));
  app.use('*', requestBodyLimit);
  if (config.isProduction) app.use('*', httpsRedirect(config.previewHosts));
  else app.use('*', publicUrlNotice(config, logger));
  app.use('*', secureHeaders({ contentSecurityPolicy: contentSecurityPolicy(config), crossOriginEmbedderPolicy: false }));
  app.use('*', compression);
  app.onError((error, c) => handleError(error, c, logger));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await database.ping();
      return c.json({ status: 'ready', database: database.engine });
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      return c.json(errorBody('database_unreachable', 'The database is not reachable.'), 503);
    }
  });

  // Before the API and its middleware: the signature check needs the untouched raw body.
  app.route('/api/webhooks', webhookRoutes(deps));
  app.route('/api/auth', authRoutes({ auth: deps.auth, config }));

  const api = new Hono<{ Variables: AuthVariables }>();
  api.onError((error, c) => handleError(error, c, logger));
  // a cross-site form post (text/plain, urlencoded, multipart) is refused before it reaches a route
  api.use('*', csrf({ origin: config.trustedOrigins }));
  api.use('*', loadSession(deps.auth, createSessionRepository(database.db)));
  api.get('/site', (c) => c.json(publicSiteSettings(config)));
  api.get('/openapi.json', (c) => c.json(openApiDocument(config.site.brandName)));
  api.route('/', accessRoutes());
  api.route('/', contentRoutes({ content: deps.content }));
  api.route('/', securityRoutes({ db: database.db, clock: deps.clock }));
  const tradingView = createTradingViewService({ db: database.db, port: deps.tradingView, reconciler: deps.reconciler, logger, clock: deps.clock });
  api.route('/', tradingViewRoutes({ service: tradingView, trustedOrigins: config.trustedOrigins }));
  api.route('/', billingRoutes(deps));
  api.route('/', paymentRoutes(deps, tradingView));
  if (deps.mail.kind === 'outbox') api.route('/', mailboxRoutes({ db: database.db, config }));
  const operatorConsoleDeps = operatorConsole(deps, tradingView);
  api.route('/', operatorStatusRoutes(operatorConsoleDeps.directory));
  // One console under /api/admin: adminRoutes puts requireOperator before every path, these included.
  api.route('/admin', adminRoutes(operatorConsoleDeps).route('/', adminOpsRoutes(createAdminOpsServices(deps))));
  api.all('*', (c) => c.json(errorBody('not_found', `No API route ${c.req.method} ${c.req.path}`), 404));
  app.route('/api', api);

  if (options.clientDir) await mountSpa(app, options.clientDir, publicSiteSettings(config));
  return app;
}
