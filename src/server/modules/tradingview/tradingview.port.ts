import type { ListedScript } from '@shared/script-catalog';
import type { TradingViewErrorKind } from '@shared/tradingview-grants';

export type { TradingViewErrorKind };

/** One user's access to one invite-only script as TradingView lists it. */
export type ScriptAccess = { username: string; expiration: Date | null };

export type ListOptions = { beforePage?: () => Promise<void> };

/** What the shop recorded when it gave access to a username on a script (the expiry it set). */
export type ShopAccess = { expiresAt: Date | null };

/** `left_alone`: the user holds access the vendor gave by hand, which the shop never changes. */
export type GrantOutcome = 'granted' | 'left_alone';
/** `left_alone`: the shop did not give this access (or the vendor lifted its expiry), so it stays. */
export type RevokeOutcome = 'revoked' | 'left_alone';

/** The account the session cookie belongs to. */
export type TradingViewAccount = { username: string };

export type HealthResult = { ok: true } | { ok: false; kind: TradingViewErrorKind; message: string };

/**
 * The sandbox's switches for demos and tests: an outage makes every call fail as TradingView down
 * would. Kept in the database, so every instance of the app sees one switch.
 */
export type TradingViewSandboxControls = {
  outage: () => Promise<boolean>;
  setOutage: (down: boolean) => Promise<void>;
};

/**
 * TradingView's invite-only permissions (no official API). `grant` is idempotent and confirmed:
 * a new user is added and TradingView's "ok" confirms it (the audit catches one that did not
 * land); otherwise it checks the current access, changes the expiry of an existing user or adds
 * a new one, and reads the list back. `revoke` treats "not there" as done. Failures throw TradingViewError.
 */
export type TradingViewPort = {
  kind: 'tradingview' | 'sandbox';
  /** TradingView's exact spelling of the username (matched case-insensitively), or null. */
  checkUsername: (name: string) => Promise<string | null>;
  /** The vendor's own published invite-only scripts (id `PUB;…` and name). */
  listScripts: () => Promise<ListedScript[]>;
  /**
   * Users with access to a script (every page); `username` narrows the search. `beforePage` is
   * awaited before each page is asked for (the audit yields to the grant queue there).
   */
  listUsers: (scriptId: string, username?: string, options?: ListOptions) => Promise<ScriptAccess[]>;
  /** Access until `expiration` (null: no expiry); `shop` is what the shop gave before (null: nothing). */
  grant: (scriptId: string, username: string, expiration: Date | null, shop: ShopAccess | null) => Promise<GrantOutcome>;
  revoke: (scriptId: string, username: string, shop: ShopAccess | null) => Promise<RevokeOutcome>;
  /** Whether the vendor's session still works; an expired cookie is kind 'session_expired'. */
  healthCheck: () => Promise<HealthResult>;
  /** The account the session cookie belongs to; throws session_expired when it is not signed in. */
  currentAccount: () => Promise<TradingViewAccount>;
  /** Present on the sandbox adapter only. */
  sandbox?: TradingViewSandboxControls;
};

/** A TradingView failure of a known kind; the reconciler retries every kind later. */
export class TradingViewError extends Error {
  constructor(
    readonly kind: TradingViewErrorKind,
    message: string,
    readonly status?: number,
    /** A 429's Retry-After, in ms: TradingView asks for no call before then. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TradingViewError';
  }
}

/** TradingView throttled the call (429): the whole queue waits, no grant counts it as a failure. */
export const isThrottle = (error: TradingViewError) => error.status === 429;

export function toTradingViewError(error: unknown): TradingViewError {
  if (error instanceof TradingViewError) return error;
  return new TradingViewError('unexpected', error instanceof Error ? error.message : String(error));
}
