import {
  desiredGrant,
  memberGrantStatus,
  targetOf,
  targetScripts,
  type TradingviewStatusResponse,
} from '@shared/tradingview-grants';
import { nextUsernameChangeAt, USERNAME_CHANGE_COOLDOWN_DAYS } from '@shared/tradingview-usernames';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import { userHasPremiumAccess } from '../access/access.repository';
import type { GrantReconciler } from './grant-reconciler';
import { readCatalog } from './script-catalog.repository';
import {
  currentUsername,
  grantFor,
  linkUsername,
  retryFailedGrantNow,
  UsernameChangeTooSoonError,
  usernameLinks,
  UsernameTakenError,
  type UsernameLink,
} from './tradingview.repository';
import { accessRowsOfMember } from '../entitlements/entitlement-reads';
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
  /** TRADINGVIEW_USERNAME_CHANGE_DAYS: a member changes their own name at most once in this many days. */
  usernameChangeDays?: number;
  /** TRADINGVIEW_SCRIPT_IDS: the initial bundle (what the member's scripts are named from). */
  scriptIds?: readonly string[];
};

/** Who sets the name: the member (activation, Settings), or an operator (a correction, a transfer). */
export type SetUsernameOptions = { by: 'member' } | { by: 'operator'; transfer?: boolean };

export type SetUsernameResult = {
  verifiedUsername: string;
  previous: string | null;
  /** The member the name was taken from (a transfer, or a holder whose access had lapsed). */
  releasedFrom: string | null;
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
  const changeDays = deps.usernameChangeDays ?? USERNAME_CHANGE_COOLDOWN_DAYS;
  const scriptIds = deps.scriptIds ?? [];
  const nextChangeAt = (links: UsernameLink[]) => nextUsernameChangeAt(links, changeDays, clock());
  const tooSoon = (next: Date) => serverError('tvUsernameChangeTooSoon', { days: changeDays, nextChangeAt: next });

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
     * A name another member with access holds is refused (an operator's transfer moves it); a
     * member changes their own name at most once per TRADINGVIEW_USERNAME_CHANGE_DAYS.
     */
    async setUsername(userId: string, username: string, options: SetUsernameOptions = { by: 'member' }): Promise<SetUsernameResult> {
      if (!(await userHasPremiumAccess(db, userId))) {
        throw serverError('tvActivationNeedsAccess');
      }
      const byMember = options.by === 'member';
      // checked before TradingView is asked (a refused change costs no lookup), and again under the member's lock
      if (byMember) {
        const current = await currentUsername(db, userId);
        const next = current !== null && current.toLowerCase() !== username.toLowerCase() ? nextChangeAt(await usernameLinks(db, userId)) : null;
        if (next) throw tooSoon(next);
      }
      const verifiedUsername = await verify(userId, username);
      const transfer = options.by === 'operator' && options.transfer === true;
      let linked;
      try {
        linked = await linkUsername(db, userId, verifiedUsername, clock(), {
          by: transfer ? 'transfer' : options.by,
          transfer,
          ...(byMember ? { nextChangeAt } : {}),
        });
      } catch (error) {
        if (error instanceof UsernameTakenError) {
          logger.info({ userId, username: verifiedUsername }, 'tradingview username refused: another member holds it');
          throw serverError('tvUsernameTaken');
        }
        if (error instanceof UsernameChangeTooSoonError) throw tooSoon(error.nextChangeAt);
        throw error;
      }
      await deps.onUsernameLinked?.(userId, verifiedUsername);
      await reconciler.syncUser(userId);
      // the member it was taken from: their row for it now asks for a revoke, which keeps what this member's row wants
      if (linked.releasedFrom) await reconciler.syncUser(linked.releasedFrom);
      // Submitting the same name again (say, after fixing the TradingView account) retries now.
      if (await retryFailedGrantNow(db, userId, verifiedUsername, clock())) reconciler.kick();
      logger.info({ userId, username: verifiedUsername, previous: linked.previous, changed: linked.changed, releasedFrom: linked.releasedFrom ?? null, by: options.by }, 'tradingview username set');
      return { verifiedUsername, previous: linked.previous, releasedFrom: linked.releasedFrom ?? null };
    },

    async status(userId: string): Promise<TradingviewStatusResponse> {
      const [username, subscriptions, links] = await Promise.all([currentUsername(db, userId), accessRowsOfMember(db, userId), usernameLinks(db, userId)]);
      const grant = username ? await grantFor(db, userId, username) : null;
      // No row is kept for a name that never had paid access: it reads as ended, not pending.
      const ended = !grant && desiredGrant(subscriptions, clock()).desired === 'revoke';
      const view = memberGrantStatus(username, ended ? { desired: 'revoke', status: 'revoked', attempts: 0, lastError: null } : grant);
      // the scripts the grant gives (or is giving), by their names
      const ids = grant && grant.desired === 'grant' ? targetScripts(targetOf(grant), scriptIds) : [];
      const names = ids.length ? new Map((await readCatalog(db, scriptIds)).map((script) => [script.id, script.name])) : new Map<string, string>();
      const next = nextChangeAt(links);
      return {
        username,
        ...view,
        expiresAt: grant?.desired === 'grant' && grant.desiredExpiresAt ? grant.desiredExpiresAt.toISOString() : null,
        scripts: ids.map((id) => ({ id, name: names.get(id) ?? id })),
        nextChangeAt: next ? next.toISOString() : null,
        changeDays,
      };
    },
  };
}

export type TradingViewService = ReturnType<typeof createTradingViewService>;
