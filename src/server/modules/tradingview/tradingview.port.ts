import type { TradingViewErrorKind } from '@shared/tradingview-grants';

export type { TradingViewErrorKind };

/** One user's access to one invite-only script as TradingView lists it. */
export type ScriptAccess = { username: string; expiration: Date | null };

export type HealthResult = { ok: true } | { ok: false; kind: TradingViewErrorKind; message: string };

/**
 * TradingView's invite-only permissions (INTEGRATIONS.md). `grant` is idempotent and confirmed:
 * it checks the current access, changes the expiry of an existing user or adds a new one, and
 * reads the list back; `revoke` treats "not there" as done. Failures throw TradingViewError.
 */
export type TradingViewPort = {
  kind: 'tradingview' | 'sandbox';
  /** TradingView's exact spelling of the username (matched case-insensitively), or null. */
  checkUsername: (name: string) => Promise<string | null>;
  /** Users with access to a script (every page); `username` narrows the search. */
  listUsers: (scriptId: string, username?: string) => Promise<ScriptAccess[]>;
  /** Access until `expiration` (null: no expiry). */
  grant: (scriptId: string, username: string, expiration: Date | null) => Promise<void>;
  revoke: (scriptId: string, username: string) => Promise<void>;
  /** Whether the vendor's session still works; an expired cookie is kind 'session_expired'. */
  healthCheck: () => Promise<HealthResult>;
};

/** A TradingView failure of a known kind; the reconciler retries every kind later. */
export class TradingViewError extends Error {
  constructor(
    readonly kind: TradingViewErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TradingViewError';
  }
}

export function toTradingViewError(error: unknown): TradingViewError {
  if (error instanceof TradingViewError) return error;
  return new TradingViewError('unexpected', error instanceof Error ? error.message : String(error));
}
