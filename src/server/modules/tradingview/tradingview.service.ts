import {
  desiredGrant,
  memberGrantStatus,
  type TradingviewStatusResponse,
} from '@shared/tradingview-grants';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import { userHasPremiumAccess } from '../access/access.repository';
import type { GrantReconciler } from './grant-reconciler';
import { currentUsername, grantFor, linkUsername, retryFailedGrantNow, subscriptionAccessRows } from './tradingview.repository';
import { toTradingViewError, type TradingViewPort } from './tradingview.port';

export type TradingViewServiceDeps = {
  db: Db;
  port: TradingViewPort;
  reconciler: GrantReconciler;
  logger: Logger;
  clock: () => Date;
  /** Username lookups per member per minute; light, so the check cannot be used to enumerate. */
  lookupsPerMinute?: number;
  /** Told of every username a member links (free trials judge it against earlier trials). */
  onUsernameLinked?: (userId: string, username: string) => Promise<void>;
};

const LOOKUPS_PER_MINUTE = 10;

/** A sliding one-minute window per key, in memory: each instance limits on its own. */
function createMinuteLimiter(limit: number, clock: () => Date) {
  const hits = new Map<string, number[]>();
  return (key: string): boolean => {
    const now = clock().getTime();
    const recent = (hits.get(key) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= limit) {
      hits.set(key, recent);
      return false;
    }
    recent.push(now);
    hits.set(key, recent);
    // Forget idle members now and then so the map cannot grow without bound.
    if (hits.size > 10_000) for (const [other, times] of hits) if (times.every((at) => now - at >= 60_000)) hits.delete(other);
    return true;
  };
}

export function createTradingViewService(deps: TradingViewServiceDeps) {
  const { db, port, reconciler, logger, clock } = deps;
  const allowLookup = createMinuteLimiter(deps.lookupsPerMinute ?? LOOKUPS_PER_MINUTE, clock);

  /** TradingView's spelling of the name, or the activation error the client maps to its message. */
  async function verify(userId: string, username: string): Promise<string> {
    if (!allowLookup(userId)) throw serverError('rateLimited');
    let verified: string | null;
    try {
      verified = await port.checkUsername(username);
    } catch (error) {
      const failure = toTradingViewError(error);
      logger.warn({ userId, kind: failure.kind, err: failure.message }, 'tradingview username check failed');
      // Whatever went wrong on TradingView's side, the member reads 'Unable to verify…'; an
      // expired vendor cookie is a 503 (our configuration), anything else a 502 (the upstream).
      throw serverError(failure.kind === 'session_expired' ? 'tvUnverifiableSessionExpired' : 'tvUnverifiable');
    }
    if (!verified) throw serverError('tvUsernameNotFound');
    return verified;
  }

  return {
    /**
     * Sets the member's TradingView username (activation and correction alike): checks it exists,
     * links TradingView's spelling as the current name (the previous one kept as history) and
     * syncs the member, which revokes the previous name and grants the new one in one step.
     */
    async setUsername(userId: string, username: string): Promise<{ verifiedUsername: string }> {
      if (!(await userHasPremiumAccess(db, userId))) {
        throw serverError('tvActivationNeedsAccess');
      }
      const verifiedUsername = await verify(userId, username);
      const linked = await linkUsername(db, userId, verifiedUsername, clock());
      await deps.onUsernameLinked?.(userId, verifiedUsername);
      await reconciler.syncUser(userId);
      // Submitting the same name again (say, after fixing the TradingView account) retries now.
      if (await retryFailedGrantNow(db, userId, verifiedUsername, clock())) reconciler.kick();
      logger.info({ userId, username: verifiedUsername, previous: linked.previous, changed: linked.changed }, 'tradingview username set');
      return { verifiedUsername };
    },

    async status(userId: string): Promise<TradingviewStatusResponse> {
      const [username, subscriptions] = await Promise.all([currentUsername(db, userId), subscriptionAccessRows(db, userId)]);
      const grant = username ? await grantFor(db, userId, username) : null;
      // No row is kept for a name that never had paid access: it reads as ended, not pending.
      const ended = !grant && desiredGrant(subscriptions, clock()).desired === 'revoke';
      const view = memberGrantStatus(username, ended ? { desired: 'revoke', status: 'revoked', attempts: 0, lastError: null } : grant);
      return {
        username,
        ...view,
        expiresAt: grant?.desired === 'grant' && grant.desiredExpiresAt ? grant.desiredExpiresAt.toISOString() : null,
      };
    },
  };
}

export type TradingViewService = ReturnType<typeof createTradingViewService>;
