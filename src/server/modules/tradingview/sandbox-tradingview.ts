import { createReadCache } from '@shared/read-cache';
import type { ListedScript } from '@shared/script-catalog';
import { tradingViewUsernameSchema } from '@shared/validation';
import type { Db } from '../../db/client';
import { grantConfirmed, revokeAccess, type PinePermOps } from './pine-permissions';
import {
  addSandboxAccess,
  listSandboxAccess,
  modifySandboxAccess,
  removeSandboxAccess,
} from './tradingview.repository';
import { TradingViewError, type TradingViewPort } from './tradingview.port';
import { readSandboxSwitch, writeSandboxSwitch } from './sandbox-switches.repository';

export type SandboxOperation = { op: 'list' | 'add' | 'modify' | 'remove'; scriptId: string; username?: string; expiration?: Date | null };

export type SandboxTradingViewOptions = {
  db: Db;
  /** Usernames that "do not exist" (SANDBOX_TRADINGVIEW_MISSING_USERNAMES), any case. */
  missingUsernames: readonly string[];
  /** The vendor's invite-only scripts as the sandbox TradingView lists them. */
  scripts?: readonly ListedScript[];
  clock: () => Date;
  /** Sees every raw operation, as TradingView's access log would (tests assert on it). */
  onOperation?: (operation: SandboxOperation) => void;
};

/** The account the sandbox pretends the vendor's session cookie belongs to. */
const SANDBOX_VENDOR_ACCOUNT = 'sandbox_vendor';

const OUTAGE_MESSAGE = "TradingView's access endpoints are down (simulated outage)";

/**
 * How long an instance trusts its last read of the outage switch. The reconciler calls the sandbox
 * several times per grant; another instance's toggle shows here at most this much later.
 */
export const OUTAGE_SWITCH_CACHE_MS = 1000;

/**
 * The simulated outage (operator console) of the access endpoints the vendor's session drives,
 * in sandbox_switches so that every instance on the database fails alike. Reads are kept
 * OUTAGE_SWITCH_CACHE_MS; this instance's own toggle ends what was kept, before the write (so no
 * read under way is kept) and after it (so no read of the old value is).
 */
function outageSwitch(db: Db, clock: () => Date) {
  const toggles = { count: 0 };
  const reads = createReadCache({ ttlMs: OUTAGE_SWITCH_CACHE_MS, changes: toggles, now: () => clock().getTime() });
  return {
    read: () => reads.read('tradingview_outage', () => readSandboxSwitch(db, 'tradingview_outage')),
    async write(down: boolean): Promise<void> {
      toggles.count += 1;
      await writeSandboxSwitch(db, 'tradingview_outage', down);
      toggles.count += 1;
    },
  };
}

/**
 * The default adapter: TradingView's per-script access list kept in sandbox_tradingview_access,
 * with TradingView's semantics ("exists" keeps the expiry, expired access disappears, removing
 * an absent user answers not_exists), behind the same grant flow as the real client.
 */
export function createSandboxTradingView(options: SandboxTradingViewOptions): TradingViewPort {
  const { db, clock } = options;
  const missing = new Set(options.missingUsernames.map((name) => name.toLowerCase()));
  const outage = outageSwitch(db, clock);
  const assertUp = async () => {
    if (await outage.read()) throw new TradingViewError('network', OUTAGE_MESSAGE, 503);
  };
  const record = async (operation: SandboxOperation) => {
    await assertUp();
    options.onOperation?.(operation);
  };

  const ops: PinePermOps = {
    async listUsers(scriptId, username) {
      await record({ op: 'list', scriptId, username });
      return listSandboxAccess(db, scriptId, username ?? null, clock());
    },
    async add(scriptId, username, expiration) {
      await record({ op: 'add', scriptId, username, expiration });
      return addSandboxAccess(db, scriptId, username, expiration, clock());
    },
    async modifyExpiration(scriptId, username, expiration) {
      await record({ op: 'modify', scriptId, username, expiration });
      if (!(await modifySandboxAccess(db, scriptId, username, expiration, clock()))) {
        throw new TradingViewError('not_found', `${username} has no access to ${scriptId}`, 404);
      }
    },
    async remove(scriptId, username) {
      await record({ op: 'remove', scriptId, username });
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
    async listScripts() {
      await assertUp();
      return (options.scripts ?? []).map((script) => ({ ...script }));
    },
    listUsers: ops.listUsers,
    grant: (scriptId, username, expiration, shop) => grantConfirmed(ops, scriptId, username, expiration, shop),
    revoke: (scriptId, username, shop) => revokeAccess(ops, scriptId, username, shop),
    healthCheck: async () => ((await outage.read()) ? { ok: false, kind: 'network', message: OUTAGE_MESSAGE } : { ok: true }),
    async currentAccount() {
      await assertUp();
      return { username: SANDBOX_VENDOR_ACCOUNT };
    },
    sandbox: { outage: outage.read, setOutage: outage.write },
  };
}
