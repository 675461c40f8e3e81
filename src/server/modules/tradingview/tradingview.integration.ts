// TradingView as one integration (decision 064, the shape of decisions 046 and 060): the vendor's
// session (the real client with both TRADINGVIEW_SESSION_* cookies, else the sandbox TradingView),
// the grant reconciler (its queue, audit and session checks) and its subscriber, the member's
// username routes, the console's TradingView page (health, queue, reconciliation: decision 065),
// script catalog and card, the script names and the doctor's check. TradingView access is what the
// shop sells, so other modules act on it too (activation, the member page, imports, the alerts):
// they are handed this integration's port, reconciler and service by the composition root (`tradingViewOf`).
import { Hono } from 'hono';
import { followsAccess } from '@shared/access-changes';
import type { TradingViewSettings } from '@shared/tradingview/settings';
import type { Db } from '../../db/client';
import type { Integration, IntegrationDescriptor } from '../../integration';
import type { AuthVariables } from '../../http/session-user';
import type { Logger } from '../../logger';
import { createGrantReconciler, type GrantReconciler } from './grant-reconciler';
import { createSandboxTradingView } from './sandbox-tradingview';
import { scriptCatalogAdminRoutes } from './script-catalog.routes';
import { createScriptCatalogService, type ScriptCatalogService } from './script-catalog.service';
import { nameUnnamedScripts } from './script-names';
import { createTradingViewClient } from './tradingview-client';
import { tradingViewConsoleRoutes } from './tradingview-console.routes';
import { createTradingViewConsoleService } from './tradingview-console.service';
import { tradingViewCounts } from './tradingview-counts.repository';
import { checkTradingView } from './tradingview-doctor';
import type { TradingViewPort } from './tradingview.port';
import { tradingViewRoutes } from './tradingview.routes';
import { createTradingViewService, type TradingViewService } from './tradingview.service';

const TITLE = 'TradingView';

/** Told of each username a member links. */
export type UsernameLinked = (userId: string, username: string) => Promise<void>;

/** The built integration, with what the modules that act on TradingView access are handed. */
export type TradingViewIntegration = Integration & {
  port: TradingViewPort;
  /** Grants and revokes; members' changes reach it as access changes, other writes call syncUser. */
  reconciler: GrantReconciler;
  /** The member's username (activation, Settings, an operator's correction) and grant status. */
  service: TradingViewService;
  /** The script catalog (the console's and the command line's). */
  scripts: ScriptCatalogService;
  /** TRADINGVIEW_SCRIPT_IDS: the initial bundle of every plan. */
  scriptIds: readonly string[];
  /**
   * Sets the one listener of linked usernames: the free trials, which judge a name against earlier
   * trials. They are composed after the integrations are built (they write through entitlements,
   * whose subscribers the integrations are), so the composition root hands them over here.
   */
  onUsernameLinked: (listener: UsernameLinked) => void;
  /**
   * Sets where the console's TradingView page reads when the session was last checked in the
   * background: the operator alerts check it, and they are composed after the integrations.
   */
  readSessionChecks: (reader: () => Promise<Date | null>) => void;
};

export const isTradingViewIntegration = (integration: Integration): integration is TradingViewIntegration => integration.name === 'tradingview';

/** The TradingView integration among the built ones (integrations.ts always registers it). */
export function tradingViewOf(integrations: readonly Integration[]): TradingViewIntegration {
  const tradingView = integrations.find(isTradingViewIntegration);
  if (!tradingView) throw new Error('the TradingView integration is not built');
  return tradingView;
}

/**
 * The real TradingView client when both session cookies are configured, else the sandbox, and the
 * reconciler that drives it (the command line's script catalog builds these alone).
 */
export function buildTradingViewAccess(input: { settings: TradingViewSettings; db: Db; logger: Logger; clock: () => Date }): { port: TradingViewPort; reconciler: GrantReconciler } {
  const { settings, db, logger, clock } = input;
  const port = settings.credentials
    ? createTradingViewClient({ baseUrl: settings.baseUrl, credentials: settings.credentials, scriptIds: settings.scriptIds })
    : createSandboxTradingView({ db, missingUsernames: settings.sandboxMissingUsernames, scripts: settings.sandboxScripts, clock });
  const reconciler = createGrantReconciler({ db, port, scriptIds: settings.scriptIds, logger, clock, intervalMs: settings.reconcileIntervalMs });
  return { port, reconciler };
}

export const tradingViewIntegration: IntegrationDescriptor = {
  name: 'tradingview',
  title: TITLE,
  build({ config, db, logger: parent, clock, audit }): TradingViewIntegration {
    const settings = config.integrations.tradingview;
    const logger = parent.child({ module: 'tradingview' });
    const { port, reconciler } = buildTradingViewAccess({ settings, db, logger, clock });
    let usernameLinked: UsernameLinked | null = null;
    const service = createTradingViewService({
      db,
      port,
      reconciler,
      logger,
      clock,
      onUsernameLinked: async (userId, username) => usernameLinked?.(userId, username),
      usernameChangeDays: settings.usernameChangeDays,
      scriptIds: settings.scriptIds,
    });
    const scripts = createScriptCatalogService({ db, port, reconciler, initialBundle: settings.scriptIds, clock, audit });
    let sessionChecks: () => Promise<Date | null> = async () => null;
    const consoleService = createTradingViewConsoleService({ db, port, reconciler, scriptIds: settings.scriptIds, clock, audit, lastSessionCheck: () => sessionChecks() });
    // Mails and pages name scripts by their names: a live shop's catalog, started from
    // TRADINGVIEW_SCRIPT_IDS, reads them from TradingView at start (the sandbox's is named by `prepare`).
    const scriptNames = {
      start: () => {
        void scripts.nameScripts().then(
          (named) => (named > 0 ? logger.info({ named }, 'tradingview scripts named from TradingView') : undefined),
          (error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not read the tradingview script names; they show as ids until a sync'),
        );
      },
      stop: async () => {},
    };
    return {
      name: 'tradingview',
      title: TITLE,
      sandbox: port.kind === 'sandbox',
      port,
      reconciler,
      service,
      scripts,
      scriptIds: settings.scriptIds,
      onUsernameLinked: (listener) => {
        usernameLinked = listener;
      },
      readSessionChecks: (reader) => {
        sessionChecks = reader;
      },
      subscriber: followsAccess('tradingview', (userId) => reconciler.syncUser(userId)),
      // Scripts are named, never shown as PUB; ids: the sandbox's catalogue is named before the shop serves.
      prepare: async () => {
        if (port.kind !== 'sandbox') return;
        await nameUnnamedScripts(db, port, settings.scriptIds).catch((error: unknown) =>
          logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not name the sandbox scripts'),
        );
      },
      loops: [reconciler, scriptNames],
      runOnce: async () => {
        await reconciler.runOnce();
      },
      routes: ({ trustedOrigins, reads }) => ({
        api: tradingViewRoutes({ service, trustedOrigins, reads }),
        admin: new Hono<{ Variables: AuthVariables }>().route('/', tradingViewConsoleRoutes(consoleService)).route('/', scriptCatalogAdminRoutes(scripts)),
      }),
      card: async () => ({ name: 'tradingview', title: TITLE, path: '/admin/tradingview', sandbox: port.kind === 'sandbox', ...(await tradingViewCounts(db)) }),
    };
  },
  // the session cookie and every script id (the sandbox: one line saying so)
  doctor: (config, options) => {
    const settings = config.integrations.tradingview;
    return checkTradingView(
      { baseUrl: options.apiBaseUrl ?? settings.baseUrl, credentials: settings.credentials, scriptIds: settings.scriptIds },
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
  },
};
