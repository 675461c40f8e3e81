import { tradingViewUsernameSchema } from '@shared/validation';
import type { Db } from '../../db/client';
import { grantConfirmed, revokeAccess, type PinePermOps } from '../tradingview/pine-permissions';
import {
  addSandboxAccess,
  listSandboxAccess,
  modifySandboxAccess,
  removeSandboxAccess,
} from '../tradingview/tradingview.repository';
import { TradingViewError, type TradingViewPort } from '../tradingview/tradingview.port';

export type SandboxOperation = { op: 'list' | 'add' | 'modify' | 'remove'; scriptId: string; username?: string; expiration?: Date | null };

export type SandboxTradingViewOptions = {
  db: Db;
  /** Usernames that "do not exist" (SANDBOX_TRADINGVIEW_MISSING_USERNAMES), any case. */
  missingUsernames: readonly string[];
  clock: () => Date;
  /** Sees every raw operation, as TradingView's access log would (tests assert on it). */
  onOperation?: (operation: SandboxOperation) => void;
};

/** The account the sandbox pretends the vendor's session cookie belongs to. */
const SANDBOX_VENDOR_ACCOUNT = 'sandbox_vendor';

const OUTAGE_MESSAGE = "TradingView's access endpoints are down (simulated outage)";

/**
 * The default adapter: TradingView's per-script access list kept in sandbox_tradingview_access,
 * with TradingView's semantics ("exists" keeps the expiry, expired access disappears, removing
 * an absent user answers not_exists), behind the same grant flow as the real client.
 */
export function createSandboxTradingView(options: SandboxTradingViewOptions): TradingViewPort {
  const { db, clock } = options;
  const missing = new Set(options.missingUsernames.map((name) => name.toLowerCase()));
  // A simulated outage (operator console) of the access endpoints the vendor's session drives;
  // kept by this process only: it is a demo switch.
  let down = false;
  const assertUp = () => {
    if (down) throw new TradingViewError('network', OUTAGE_MESSAGE, 503);
  };
  const record = (operation: SandboxOperation) => {
    assertUp();
    options.onOperation?.(operation);
  };

  const ops: PinePermOps = {
    async listUsers(scriptId, username) {
      record({ op: 'list', scriptId, username });
      return listSandboxAccess(db, scriptId, username ?? null, clock());
    },
    async add(scriptId, username, expiration) {
      record({ op: 'add', scriptId, username, expiration });
      return addSandboxAccess(db, scriptId, username, expiration, clock());
    },
    async modifyExpiration(scriptId, username, expiration) {
      record({ op: 'modify', scriptId, username, expiration });
      if (!(await modifySandboxAccess(db, scriptId, username, expiration, clock()))) {
        throw new TradingViewError('not_found', `${username} has no access to ${scriptId}`, 404);
      }
    },
    async remove(scriptId, username) {
      record({ op: 'remove', scriptId, username });
      return removeSandboxAccess(db, scriptId, username, clock());
    },
  };

  return {
    kind: 'sandbox',
    async checkUsername(name) {
      // The username lookup is public on TradingView (no vendor session): the outage spares it,
      // so a buyer can still activate and the failure shows where it belongs, on the grant.
      const parsed = tradingViewUsernameSchema.safeParse(name);
      if (!parsed.success || missing.has(parsed.data.toLowerCase())) return null;
      return parsed.data;
    },
    listUsers: ops.listUsers,
    grant: (scriptId, username, expiration, shop) => grantConfirmed(ops, scriptId, username, expiration, shop),
    revoke: (scriptId, username, shop) => revokeAccess(ops, scriptId, username, shop),
    healthCheck: async () => (down ? { ok: false, kind: 'network', message: OUTAGE_MESSAGE } : { ok: true }),
    async currentAccount() {
      assertUp();
      return { username: SANDBOX_VENDOR_ACCOUNT };
    },
    sandbox: {
      outage: () => down,
      setOutage: (value) => {
        down = value;
      },
    },
  };
}
