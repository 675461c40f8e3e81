import { TradingViewError, type GrantOutcome, type RevokeOutcome, type ScriptAccess, type ShopAccess } from './tradingview.port';

/** TradingView's raw permission operations (the invite-only pine_perm endpoints); both adapters provide them. */
export type PinePermOps = {
  listUsers: (scriptId: string, username?: string) => Promise<ScriptAccess[]>;
  /**
   * "ok" only when TradingView says so (the user was added with this expiry); "exists" leaves the
   * expiry as it was; "sent" is a 2xx without either (only a read-back can tell what happened).
   */
  add: (scriptId: string, username: string, expiration: Date | null) => Promise<'ok' | 'exists' | 'sent'>;
  modifyExpiration: (scriptId: string, username: string, expiration: Date | null) => Promise<void>;
  remove: (scriptId: string, username: string) => Promise<'ok' | 'not_exists'>;
};

// Below this difference an expiry is already what we want: no call is made.
const SAME_EXPIRY_MS = 60_000;
// TradingView's own storage may round what we send; a read-back within a day still proves that
// the change landed (a renewal moves the expiry by weeks), without retrying forever on rounding.
const CONFIRM_TOLERANCE_MS = 24 * 60 * 60_000;

function within(actual: Date | null, wanted: Date | null, toleranceMs: number): boolean {
  if (actual === null || wanted === null) return actual === wanted;
  return Math.abs(actual.getTime() - wanted.getTime()) <= toleranceMs;
}

async function findAccess(ops: PinePermOps, scriptId: string, username: string): Promise<ScriptAccess | null> {
  const wanted = username.toLowerCase();
  const users = await ops.listUsers(scriptId, username);
  return users.find((user) => user.username.toLowerCase() === wanted) ?? null;
}

/**
 * Whether access listed on TradingView is the vendor's own doing and must be left as it is:
 * - access the shop never gave: left alone unless ours runs as long or longer (never shortened);
 * - access the shop gave with an expiry that now shows none: the vendor lifted it by hand.
 */
function isVendorAccess(current: ScriptAccess, shop: ShopAccess | null, wanted: Date | null): boolean {
  if (shop) return current.expiration === null && shop.expiresAt !== null;
  if (current.expiration === null) return true;
  // An expiry equal to ours is ours: a grant whose run stopped before it was recorded.
  return wanted !== null && current.expiration.getTime() > wanted.getTime() + SAME_EXPIRY_MS;
}

/** Reads the access back: throws unless TradingView lists the user with (about) the wanted expiry. */
async function confirmListed(ops: PinePermOps, scriptId: string, username: string, expiration: Date | null): Promise<'granted'> {
  const after = await findAccess(ops, scriptId, username);
  if (!after) throw new TradingViewError('unexpected', `TradingView does not list ${username} on ${scriptId} after the grant`);
  if (!within(after.expiration, expiration, CONFIRM_TOLERANCE_MS)) {
    throw new TradingViewError(
      'unexpected',
      `TradingView lists ${username} on ${scriptId} until ${after.expiration?.toISOString() ?? 'no expiry'}, wanted ${expiration?.toISOString() ?? 'no expiry'}`,
    );
  }
  return 'granted';
}

/**
 * The grant. Where the shop holds nothing for this user (a new grant, the common case in a sale)
 * it adds first: TradingView's explicit "ok" means the user had no access and now holds ours, so
 * that is one call per script and no read-back (the reconciler's audit lists every holder and
 * requeues an add that did not land; decision 036). "exists" means someone already holds access,
 * possibly the vendor's by hand: it takes the careful path below, as a renewal does.
 * The careful path: look at the current access, change the expiry of an existing user (an "add"
 * would answer "exists" and keep the old expiry) or add a new one, then read back to confirm.
 * Access the vendor gave by hand is never shortened (`left_alone`).
 */
export async function grantConfirmed(ops: PinePermOps, scriptId: string, username: string, expiration: Date | null, shop: ShopAccess | null): Promise<GrantOutcome> {
  if (!shop) {
    const added = await ops.add(scriptId, username, expiration);
    if (added === 'ok') return 'granted';
    // a 2xx that does not say ok: only the list can tell whether it landed
    if (added === 'sent') return confirmListed(ops, scriptId, username, expiration);
  }
  const current = await findAccess(ops, scriptId, username);
  if (current) {
    if (isVendorAccess(current, shop, expiration)) return 'left_alone';
    if (within(current.expiration, expiration, SAME_EXPIRY_MS)) return 'granted';
    await ops.modifyExpiration(scriptId, username, expiration);
  } else if ((await ops.add(scriptId, username, expiration)) === 'exists') {
    // Added by someone else since we looked: "exists" did not set our expiry.
    await ops.modifyExpiration(scriptId, username, expiration);
  }
  // Here any 2xx counts as sent; this read-back is what decides whether the change landed.
  return confirmListed(ops, scriptId, username, expiration);
}

/**
 * Removes access the shop gave. Users the shop did not grant, and access whose expiry the vendor
 * lifted by hand, are left alone; removing a user who has no access counts as done.
 */
export async function revokeAccess(ops: PinePermOps, scriptId: string, username: string, shop: ShopAccess | null): Promise<RevokeOutcome> {
  if (!shop) return 'left_alone';
  const current = await findAccess(ops, scriptId, username);
  if (!current) return 'revoked';
  if (isVendorAccess(current, shop, null)) return 'left_alone';
  await ops.remove(scriptId, username);
  return 'revoked';
}
