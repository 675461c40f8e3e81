// `npm run import -- stripe`: the subscriptions and lifetime payments an existing Stripe business
// holds on the shop's prices become members here, with their plan and current period as the
// provider has them. Nothing is charged and nothing is made at the provider: the rows are written
// through the entitlements core as a webhook would write them, keyed by the provider's ids, so a
// second run finds them and changes nothing, and a run cut short continues where it stopped.
import { ACCESS_MOVED_LINK_DAYS, planUntil, type ImportReport, type UsernameMap } from '@shared/imports';
import { mailKeys } from '@shared/mail-intents';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { recordOperatorAction } from '../admin/audit.repository';
import type { Entitlements, EntitlementWriter, ProviderState } from '../entitlements/entitlements';
import { findRowBySubscriptionId, memberEntitlement } from '../entitlements/entitlements.repository';
import { findCheckoutSession, insertCheckoutSession, updateCheckoutSession } from '../provider-records/checkout-sessions.repository';
import { recurringRowState } from '../fulfilment/fulfilment';
import { enqueueMail } from '../mail/outbox.repository';
import type { ImportablePurchase, PaymentsPort } from '../payments/payments.port';
import { currentUsername, linkUsername, UsernameTakenError } from '../tradingview/tradingview.repository';
import type { ImportAccounts } from './import-accounts';
import { recordImportedMember } from './imports.repository';

export type StripeImportDeps = {
  db: Db;
  clock: () => Date;
  payments: Pick<PaymentsPort, 'kind' | 'importablePurchases'>;
  entitlements: Entitlements;
  accounts: ImportAccounts;
  /** Who the audit log names. */
  operator: string;
  kickMailer: () => void;
};

/** One purchase as the import reads it: the provider's key, the buyer, the plan and the row's state. */
type Purchase = {
  ref: string;
  email: string | null;
  planType: PlanType | null;
  state: ProviderState | null;
  customerId: string | null;
  livemode: boolean;
  write: (writer: EntitlementWriter, userId: string) => Promise<void>;
};

function purchaseOf(purchase: ImportablePurchase, provider: PaymentsPort['kind'], asOf: Date): Purchase {
  if (purchase.kind === 'subscription') {
    const sub = purchase.subscription;
    const state = sub.planType ? recurringRowState(sub, sub.planType, asOf) : null;
    return {
      ref: sub.id,
      email: purchase.email,
      planType: sub.planType,
      state,
      customerId: sub.customerId,
      livemode: sub.livemode,
      write: async (writer, userId) => {
        if (!state) return;
        // no checkout here names its list: the price's (decision 058), for the member's plan-change card
        const boughtOn = { list: sub.priceList ?? null, currency: sub.currency };
        await writer.upsertRecurringRow(sub.id, state, { provider, providerCustomerId: sub.customerId, providerLivemode: sub.livemode, userId, checkoutSessionId: null, orderId: null, boughtOn });
      },
    };
  }
  const { session } = purchase;
  const planType = session.planType;
  const state: ProviderState | null = planType
    ? { planType, status: session.paymentReversed ? 'canceled' : 'active', isActive: !session.paymentReversed, expiresAt: null, cancelAtPeriodEnd: false, asOf }
    : null;
  return {
    ref: session.id,
    email: session.email,
    planType,
    state,
    customerId: session.customerId,
    livemode: session.livemode,
    write: async (writer, userId) => {
      if (!state || !planType) return;
      // The purchase's record, as a checkout of this shop would leave it, already claimed by its buyer.
      await insertCheckoutSession(writer.tx, { id: session.id, provider, planType, email: session.email?.toLowerCase() ?? null });
      await updateCheckoutSession(writer.tx, session.id, {
        status: 'complete',
        paymentStatus: 'paid',
        amountTotal: session.amountTotal,
        currency: session.currency?.toLowerCase() ?? null,
        providerCustomerId: session.customerId,
        providerLivemode: session.livemode,
        providerPaymentId: session.paymentId,
        claimedByUserId: userId,
        claimedAt: asOf,
        completedAt: session.createdAt,
      });
      await writer.upsertOneTimeRow(session.id, state, { provider, providerCustomerId: session.customerId, providerLivemode: session.livemode, userId, orderId: null });
    },
  };
}

/** The member who already holds this purchase here, or 'unclaimed' when the shop sold it and its buyer has not set up yet. */
async function holderOf(db: Db, purchase: ImportablePurchase): Promise<string | 'unclaimed' | null> {
  if (purchase.kind === 'subscription') {
    const row = await findRowBySubscriptionId(db, purchase.subscription.id);
    return row ? (row.userId ?? 'unclaimed') : null;
  }
  const session = await findCheckoutSession(db, purchase.session.id);
  return session ? (session.claimedByUserId ?? 'unclaimed') : null;
}

export async function runStripeImport(deps: StripeImportDeps, options: { dryRun: boolean; map: UsernameMap }, report: ImportReport): Promise<void> {
  const { db, clock } = deps;
  // e-mails this run has met, for the one-buyer-two-subscriptions conflict
  const seen = new Map<string, string>();

  /** Links the map's username to a member who has none yet; a different one already linked is a conflict. */
  async function attachUsername(userId: string, email: string, dryRun: boolean): Promise<string | null> {
    const wanted = options.map.get(email);
    if (!wanted) return null;
    const current = await currentUsername(db, userId);
    if (current && current.toLowerCase() !== wanted.toLowerCase()) {
      report.conflicts.push({ subject: email, detail: `uses the TradingView username ${current} here; the map says ${wanted} (left as it is)` });
      return null;
    }
    if (current) return null;
    if (!dryRun) {
      try {
        await linkUsername(db, userId, wanted, clock(), { by: 'import' });
      } catch (error) {
        if (!(error instanceof UsernameTakenError)) throw error;
        // one member holds a name (decision 048): another member with access has it already
        report.conflicts.push({ subject: email, detail: `the TradingView username ${wanted} is another member's here (left as it is)` });
        return null;
      }
    }
    report.matched.push({ subject: email, detail: `TradingView ${wanted} (from the map)` });
    return wanted;
  }

  async function importOne(raw: ImportablePurchase): Promise<void> {
    const asOf = clock();
    const purchase = purchaseOf(raw, deps.payments.kind, asOf);
    const email = purchase.email?.trim().toLowerCase() ?? null;
    if (!email) return void report.conflicts.push({ subject: purchase.ref, detail: 'the provider has no e-mail for this buyer: not imported' });
    if (!purchase.planType || !purchase.state) return void report.conflicts.push({ subject: email, detail: `${purchase.ref} is on a price that is none of the shop's plans: not imported` });
    if (!purchase.state.isActive) return void report.conflicts.push({ subject: email, detail: `${purchase.ref} is ${purchase.state.status}: no access to import` });

    const holder = await holderOf(db, raw);
    if (holder === 'unclaimed') return void report.conflicts.push({ subject: email, detail: `${purchase.ref} was bought in this shop and waits for its buyer to finish setting up` });
    if (holder) {
      report.unchanged += 1;
      await attachUsername(holder, email, options.dryRun);
      return;
    }

    const earlier = seen.get(email);
    seen.set(email, purchase.ref);
    const existing = await deps.accounts.find(email);
    const holdsAccess = existing ? (await memberEntitlement(db, existing, asOf)) !== null : false;
    if (earlier || holdsAccess) {
      report.conflicts.push({ subject: email, detail: `${purchase.ref} imported beside ${earlier ?? 'access held here'}: two paid plans for one buyer; cancel one at the provider` });
    }
    const detail = planUntil(purchase.planType, purchase.state.expiresAt) + (existing ? ' (existing account)' : '');
    if (options.dryRun) {
      if (existing) await attachUsername(existing, email, true);
      else if (options.map.has(email)) report.matched.push({ subject: email, detail: `TradingView ${options.map.get(email)} (from the map)` });
      report.created.push({ subject: email, detail });
      return;
    }

    const { userId, created } = await deps.accounts.findOrCreate(email);
    const username = await attachUsername(userId, email, false);
    const url = await deps.accounts.setPasswordUrl(userId, ACCESS_MOVED_LINK_DAYS);
    const planType = purchase.planType;
    const state = purchase.state;
    await deps.entitlements.write(async (writer) => {
      await purchase.write(writer, userId);
      await recordImportedMember(writer.tx, { userId, source: 'stripe', sourceRef: purchase.ref, detail });
      await recordOperatorAction(writer.tx, {
        operator: deps.operator,
        action: 'import_member',
        targetUserId: userId,
        details: { source: 'stripe', ref: purchase.ref, email, planType, expiresAt: state.expiresAt?.toISOString() ?? null, accountCreated: created, tradingviewUsername: username },
      });
      await enqueueMail(writer.tx, { template: 'access_moved', to: email, data: { url, planType, days: ACCESS_MOVED_LINK_DAYS }, dedupeKey: mailKeys.accessMoved(userId) });
    });
    deps.kickMailer();
    report.created.push({ subject: email, detail });
  }

  for await (const page of deps.payments.importablePurchases()) {
    for (const purchase of page) {
      report.read += 1;
      await importOne(purchase);
    }
  }
}
