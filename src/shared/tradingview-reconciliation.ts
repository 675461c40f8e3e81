// The operator console's reconciliation report: TradingView's lists against who pays.
// Only access the shop gave counts as "should not be there": hand-given access is never reported.

export type MemberWithUsername = { userId: string; email: string; username: string };

/** A member with access now, and the scripts their plans grant (their bundle). */
export type PayingMember = MemberWithUsername & { bundle: readonly string[] };

export type ReconciliationInput = {
  scriptIds: readonly string[];
  /** Per script, the lowercase usernames TradingView lists. */
  listed: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per script, the lowercase usernames the shop gave access to (tradingview_shop_access). */
  shopGiven: ReadonlyMap<string, ReadonlySet<string>>;
  /** Members with paid (or otherwise granted) access now, the username they use and their bundle. */
  paying: readonly PayingMember[];
  /** Every member who ever used a username, by lowercase username: who an unpaid entry belongs to. */
  owners: ReadonlyMap<string, readonly { userId: string; email: string }[]>;
};

export type ReconciliationFindings = {
  unpaid: { username: string; scripts: string[]; members: { userId: string; email: string }[] }[];
  missing: (MemberWithUsername & { scripts: string[] })[];
};

/**
 * Shop-given access to a script no paying member's bundle holds for that username is unpaid; a
 * paying member is missing from the scripts of their bundle TradingView does not list them on.
 */
export function reconcileTradingView(input: ReconciliationInput): ReconciliationFindings {
  const paid = new Map<string, Set<string>>();
  for (const member of input.paying) {
    const scripts = paid.get(member.username.toLowerCase()) ?? new Set<string>();
    for (const scriptId of member.bundle) scripts.add(scriptId);
    paid.set(member.username.toLowerCase(), scripts);
  }
  const unpaid = new Map<string, string[]>();
  for (const scriptId of input.scriptIds) {
    const shop = input.shopGiven.get(scriptId) ?? new Set<string>();
    for (const username of input.listed.get(scriptId) ?? []) {
      if (!shop.has(username) || paid.get(username)?.has(scriptId)) continue;
      unpaid.set(username, [...(unpaid.get(username) ?? []), scriptId]);
    }
  }
  const missing = input.paying
    .map(({ bundle, ...member }) => ({ ...member, scripts: bundle.filter((scriptId) => !input.listed.get(scriptId)?.has(member.username.toLowerCase())) }))
    .filter((member) => member.scripts.length > 0);
  return {
    unpaid: [...unpaid].map(([username, scripts]) => ({ username, scripts, members: [...(input.owners.get(username) ?? [])] })),
    missing,
  };
}
