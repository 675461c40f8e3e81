// Promotion codes: operators create and switch them off (console and command line, both audited);
// each is mirrored at the payment provider as a coupon plus a promotion code, after our row is
// written, so a provider that fails leaves a visible "not yet at the provider" state that a retry
// (the console's button, the command line, or the first checkout that needs it) finishes. Buyers
// look codes up from the landing page, and create-checkout asks here before applying one.
import { normalizePromotionCode, promotionCodeProblem, promotionRefusal, refusalMessage, validatePromotionTerms, type PromotionState, type PromotionTerms, type PromotionTermsInput } from '@shared/promotions';
import type { PromotionItem, PublicPromotion } from '@shared/promotions-contract';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { ApiError } from '../../http/errors';
import { serverError } from '../../http/server-errors';
import { accessEndedFor } from '../entitlements/entitlement-reads';
import type { PaymentsPort } from '../payments/payments.port';
import { paidMoneyBefore, redemptionCounts } from '../provider-records/checkout-session-reads';
import {
  clearProviderError,
  deactivatePromotion,
  findPromotion,
  insertPromotion,
  listPromotionRows,
  promotionsToSync,
  recordMirrored,
  recordProviderError,
  revenueByCode,
  type PromotionRow,
} from './promotions.repository';

export type PromotionsDeps = {
  db: Db;
  payments: PaymentsPort;
  clock: () => Date;
  logger: Logger;
  /** Writes an operator's action to the audit log (admin/audit.repository), as other operator actions are. */
  audit: (entry: { operator: string; action: string; details: Record<string, unknown> }) => Promise<void>;
};

export function termsOf(row: PromotionRow): PromotionTerms {
  return {
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    currency: row.currency,
    duration: row.duration,
    durationInMonths: row.durationInMonths,
    plans: row.planTypes,
    firstTimeOnly: row.firstTimeOnly,
    churnedOnly: row.churnedOnly,
    maxRedemptions: row.maxRedemptions,
    expiresAt: row.expiresAt,
  };
}

/** The terms anyone may read: all but the redemption limit, the date as ISO text. */
function publicOf(row: PromotionRow): PublicPromotion {
  const { maxRedemptions: _limit, expiresAt, ...terms } = termsOf(row);
  return { ...terms, expiresAt: expiresAt?.toISOString() ?? null };
}

const errorText = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : String(error));

export function createPromotionsService(deps: PromotionsDeps) {
  const { db, payments, clock, logger, audit } = deps;

  /** The provider's copy belongs to the provider and mode in use (ids from the sandbox or a test key do not count). */
  const mirroredHere = (row: PromotionRow) => row.providerPromotionCodeId !== null && row.provider === payments.kind && row.providerLivemode === payments.livemode;

  async function stateOf(row: PromotionRow): Promise<PromotionState> {
    const redemptions = (await redemptionCounts(db, [row.code])).get(row.code) ?? 0;
    return { ...termsOf(row), active: row.active, redemptions };
  }

  async function reload(row: PromotionRow): Promise<PromotionRow> {
    return (await findPromotion(db, row.code)) ?? row;
  }

  /** Makes (or finds) the provider's copy, or switches it off for an inactive code; a failure is recorded, not thrown. */
  async function syncRow(row: PromotionRow): Promise<PromotionRow> {
    try {
      if (!mirroredHere(row)) {
        const ids = await payments.promotions.mirror({ promotionId: row.id, terms: termsOf(row), active: row.active });
        await recordMirrored(db, row.id, { provider: payments.kind, livemode: payments.livemode, ...ids, at: clock() });
      } else if (row.providerError) {
        if (!row.active && row.providerPromotionCodeId) await payments.promotions.deactivate(row.providerPromotionCodeId);
        await clearProviderError(db, row.id, clock());
      }
    } catch (error) {
      logger.warn({ err: error, code: row.code, provider: payments.kind }, 'promotion code not mirrored at the payment provider yet');
      await recordProviderError(db, row.id, errorText(error), clock());
    }
    return reload(row);
  }

  async function requireRow(rawCode: string): Promise<PromotionRow> {
    const row = await findPromotion(db, normalizePromotionCode(rawCode));
    if (!row) throw serverError('promotionNotFound', refusalMessage('unknown', normalizePromotionCode(rawCode)));
    return row;
  }

  async function items(rows: readonly PromotionRow[]): Promise<PromotionItem[]> {
    const now = clock();
    const counts = await redemptionCounts(db, rows.map((row) => row.code));
    const money = await revenueByCode(db);
    return rows.map((row) => {
      const redemptions = counts.get(row.code) ?? 0;
      const refusal = promotionRefusal({ ...termsOf(row), active: row.active, redemptions }, { now });
      const mine = money.filter((line) => line.code === row.code);
      return {
        ...publicOf(row),
        id: row.id,
        maxRedemptions: row.maxRedemptions,
        status: refusal === 'inactive' || refusal === 'expired' || refusal === 'exhausted' ? refusal : 'active',
        redemptions,
        revenue: mine.map((line) => ({ currency: line.currency, amount: line.revenue })),
        discounted: mine.map((line) => ({ currency: line.currency, amount: line.discounted })),
        provider: {
          state: row.providerError ? 'failed' : mirroredHere(row) ? 'mirrored' : 'pending',
          kind: row.provider,
          promotionCodeId: row.providerPromotionCodeId,
          error: row.providerError,
        },
        createdBy: row.createdBy,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  const one = async (row: PromotionRow) => (await items([row]))[0]!;

  return {
    /** Validates, writes our row, then mirrors it at the provider. `operator`: who the audit log names. */
    async create(input: PromotionTermsInput, operator: string): Promise<PromotionItem> {
      const checked = validatePromotionTerms(input, clock());
      if (!checked.ok) throw serverError('promotionTermsInvalid', checked.problems.map((problem) => problem.message).join(' '), checked.problems);
      const row = await insertPromotion(db, checked.terms, operator, clock());
      if (!row) throw serverError('promotionCodeTaken', checked.terms.code);
      await audit({ operator, action: 'create_promotion_code', details: { ...input, code: row.code } });
      return one(await syncRow(row));
    },

    async list(): Promise<PromotionItem[]> {
      return items(await listPromotionRows(db));
    },

    /** Switches a code off here and at the provider; subscriptions that have its discount keep it. */
    async deactivate(rawCode: string, operator: string): Promise<PromotionItem> {
      const row = await requireRow(rawCode);
      if (await deactivatePromotion(db, row.id, clock())) {
        await audit({ operator, action: 'deactivate_promotion_code', details: { code: row.code } });
        if (mirroredHere(row) && row.providerPromotionCodeId) {
          try {
            await payments.promotions.deactivate(row.providerPromotionCodeId);
          } catch (error) {
            logger.warn({ err: error, code: row.code }, 'promotion code still active at the payment provider');
            await recordProviderError(db, row.id, errorText(error), clock());
          }
        }
      }
      return one(await reload(row));
    },

    /** Mirrors a code again after a failure (the console's retry, the command line). */
    async sync(rawCode: string): Promise<PromotionItem> {
      return one(await syncRow(await requireRow(rawCode)));
    },

    /** Mirrors every code not yet at the provider in use (after switching from the sandbox to Stripe, or test to live). */
    async syncPending(): Promise<number> {
      let mirrored = 0;
      for (const row of await promotionsToSync(db, payments.kind, payments.livemode)) if (!(await syncRow(row)).providerError) mirrored += 1;
      return mirrored;
    },

    /** What the landing page may show of a code: 400 for a malformed one, 404 (with the reason) for one that cannot be used. */
    async lookup(rawCode: string): Promise<PublicPromotion> {
      const problem = promotionCodeProblem(rawCode);
      if (problem) throw serverError('promotionRefused', problem);
      const row = await requireRow(rawCode);
      const refusal = promotionRefusal(await stateOf(row), { now: clock() });
      if (refusal) throw serverError('promotionNotFound', refusalMessage(refusal, row.code));
      return publicOf(row);
    },

    /**
     * The provider's promotion code for a checkout of `planType` by `email` (when known; `signedIn`:
     * a member's own), after checking the code again; mirrors it first when it is not at the provider yet.
     */
    async forCheckout(rawCode: string, at: { planType: PlanType; email: string | null; signedIn?: boolean }): Promise<{ code: string; providerPromotionCodeId: string }> {
      const problem = promotionCodeProblem(rawCode);
      if (problem) throw serverError('promotionRefused', problem);
      const code = normalizePromotionCode(rawCode);
      const row = await findPromotion(db, code);
      if (!row) throw serverError('promotionRefused', refusalMessage('unknown', code));
      const returningBuyer = row.firstTimeOnly && at.email ? await paidMoneyBefore(db, at.email) : undefined;
      // No provider can tell who churned: a win-back code needs the member signed in before the
      // checkout starts (an e-mail typed anonymously would let anyone ask whether it churned).
      if (row.churnedOnly && (!at.signedIn || !at.email)) throw serverError('promotionRefused', refusalMessage('churned_sign_in', row.code));
      const churned = row.churnedOnly && at.email ? await accessEndedFor(db, at.email, clock()) : undefined;
      const refusal = promotionRefusal(await stateOf(row), { now: clock(), planType: at.planType, ...(returningBuyer === undefined ? {} : { returningBuyer }), ...(churned === undefined ? {} : { churned }) });
      if (refusal) throw serverError('promotionRefused', refusalMessage(refusal, row.code, at.planType));
      const synced = mirroredHere(row) ? row : await syncRow(row);
      if (!mirroredHere(synced) || !synced.providerPromotionCodeId) throw serverError('providerUnavailable');
      return { code: row.code, providerPromotionCodeId: synced.providerPromotionCodeId };
    },
  };
}

export type PromotionsService = ReturnType<typeof createPromotionsService>;
