import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { createGrantReconciler, type GrantReconciler } from './grant-reconciler';
import { createSandboxTradingView } from '../sandbox/sandbox-tradingview';
import { createTradingViewClient } from './tradingview-client';
import type { TradingViewPort } from './tradingview.port';

/**
 * The TradingView adapter config picks (the real client when session cookies are configured,
 * else the sandbox) and the reconciler that drives it; `port` lets tests pass another adapter.
 */
export function buildTradingView(input: {
  config: Config;
  db: Db;
  logger: Logger;
  clock: () => Date;
  port?: TradingViewPort;
}): { tradingView: TradingViewPort; reconciler: GrantReconciler } {
  const { config, db, logger, clock } = input;
  const settings = config.tradingView;
  const tradingView =
    input.port ??
    (settings.credentials
      ? createTradingViewClient({ baseUrl: settings.baseUrl, credentials: settings.credentials, scriptIds: settings.scriptIds })
      : createSandboxTradingView({ db, missingUsernames: settings.sandboxMissingUsernames, clock }));
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
