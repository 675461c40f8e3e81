// `npm run import -- tradingview`: the access lists of the vendor's scripts, read in full, and each
// username that belongs to a member here (by the map, or as the username an imported member uses)
// adopted as the shop's own: recorded as access the shop gave, so the grant reconciler keeps it to
// the member's period from now on. Access the shop cannot match stays exactly as it is and is
// reported. Adoption changes no access on TradingView by itself: the reconciler only extends or
// sets the expiry of a member who holds paid access, so nobody loses access by the move.
import { planUntil, type ImportReport, type UsernameMap } from '@shared/imports';
import type { Db } from '../../db/client';
import { recordOperatorAction } from '../admin/audit.repository';
import { memberEntitlement } from '../entitlements/entitlements.repository';
import type { GrantReconciler } from '../tradingview/grant-reconciler';
import type { ScriptAccess, TradingViewPort } from '../tradingview/tradingview.port';
import { targetOf } from '@shared/tradingview-grants';
import { currentUsername, currentUsernames, findShopAccess, grantFor, linkUsername, recordShopAccess, setGrantTarget, UsernameTakenError } from '../tradingview/tradingview.repository';
import type { ImportAccounts } from './import-accounts';
import { recordImportedMember } from './imports.repository';

export type TradingViewImportDeps = {
  db: Db;
  clock: () => Date;
  tradingView: Pick<TradingViewPort, 'listUsers'>;
  reconciler: Pick<GrantReconciler, 'syncUser'>;
  accounts: Pick<ImportAccounts, 'find'>;
  /** The scripts whose access lists are read (the catalog's). */
  scriptIds: () => Promise<readonly string[]>;
  operator: string;
};

const listedUntil = (access: ScriptAccess) => (access.expiration ? `until ${access.expiration.toISOString().slice(0, 10)}` : 'no expiry');

export async function runTradingViewImport(deps: TradingViewImportDeps, options: { dryRun: boolean; map: UsernameMap }, report: ImportReport): Promise<void> {
  const { db, clock } = deps;
  // lowercase username → the e-mails that claim it: the map's, then each member's current name
  const emailsOfMap = new Map([...options.map].map(([email, username]) => [username.toLowerCase(), email]));
  const membersOfUsername = new Map<string, Set<string>>();
  for (const [userId, username] of await currentUsernames(db)) {
    const key = username.toLowerCase();
    membersOfUsername.set(key, (membersOfUsername.get(key) ?? new Set()).add(userId));
  }

  /** The member a listed username belongs to, or why there is none. */
  async function memberOf(username: string): Promise<{ userId: string; fromMap: boolean } | { none: string } | { conflict: string }> {
    const key = username.toLowerCase();
    const byName = [...(membersOfUsername.get(key) ?? [])];
    if (byName.length > 1) return { conflict: `${byName.length} members use this username` };
    const mapped = emailsOfMap.get(key);
    const byMap = mapped ? await deps.accounts.find(mapped) : null;
    if (mapped && !byMap) return { none: `the map names ${mapped}, who is not a member (import from Stripe first)` };
    if (byMap && byName[0] && byMap !== byName[0]) return { conflict: `the map names ${mapped}, but another member uses this username` };
    if (byMap) return { userId: byMap, fromMap: byName[0] !== byMap };
    if (byName[0]) return { userId: byName[0], fromMap: false };
    return { none: 'no member uses this username' };
  }

  async function adopt(scriptId: string, access: ScriptAccess): Promise<void> {
    const subject = `${access.username} on ${scriptId}`;
    if (await findShopAccess(db, scriptId, access.username)) {
      report.unchanged += 1;
      return;
    }
    const member = await memberOf(access.username);
    if ('none' in member) return void report.unmatched.push({ subject, detail: `${listedUntil(access)}; ${member.none}: left alone` });
    if ('conflict' in member) return void report.conflicts.push({ subject, detail: `${member.conflict}: left alone` });
    const now = clock();
    const entitlement = await memberEntitlement(db, member.userId, now);
    if (!entitlement) return void report.conflicts.push({ subject, detail: `${listedUntil(access)}; its member holds no paid access here: left alone` });
    const current = await currentUsername(db, member.userId);
    if (current && current.toLowerCase() !== access.username.toLowerCase()) {
      return void report.conflicts.push({ subject, detail: `its member uses ${current} here: left alone` });
    }
    if (member.fromMap) report.matched.push({ subject: access.username, detail: 'from the map' });
    const detail = `${listedUntil(access)} → ${planUntil(entitlement.planType, entitlement.expiresAt)}`;
    report.created.push({ subject, detail });
    if (options.dryRun) return;

    if (!current) {
      try {
        await linkUsername(db, member.userId, access.username, now, { by: 'import' });
      } catch (error) {
        if (!(error instanceof UsernameTakenError)) throw error;
        // one member holds a name (decision 048): another member with access has it already
        report.created.pop();
        return void report.conflicts.push({ subject, detail: `another member with access uses ${access.username} here: left alone` });
      }
      membersOfUsername.set(access.username.toLowerCase(), new Set([member.userId]));
    }
    // What TradingView lists now counts as the shop's grant: the reconciler moves it to the member's period.
    await recordShopAccess(db, scriptId, access.username, access.expiration, now);
    await recordImportedMember(db, { userId: member.userId, source: 'tradingview', sourceRef: `${scriptId}:${access.username.toLowerCase()}`, detail });
    await recordOperatorAction(db, {
      operator: deps.operator,
      action: 'adopt_tradingview_access',
      targetUserId: member.userId,
      details: { scriptId, username: access.username, listedExpiration: access.expiration?.toISOString() ?? null, planType: entitlement.planType, expiresAt: entitlement.expiresAt?.toISOString() ?? null },
    });
    // A grant the reconciler settled as "given by hand, left alone" is due again, now as the shop's.
    const settled = await grantFor(db, member.userId, access.username);
    if (settled) await setGrantTarget(db, settled.id, targetOf(settled), now);
    await deps.reconciler.syncUser(member.userId);
  }

  for (const scriptId of await deps.scriptIds()) {
    const listed = await deps.tradingView.listUsers(scriptId);
    for (const access of listed) {
      report.read += 1;
      await adopt(scriptId, access);
    }
  }
}
