// The promotion code of this visit: taken from /?code=CODE (or /eu?code=CODE), kept for the visit
// in sessionStorage, and looked up once. Read only in the browser after hydration, so the
// pre-rendered landing page is the same with or without a code. Zod-free: the landing bundle stays light.
import { useSyncExternalStore } from 'react';
import type { PublicPromotion } from '@shared/promotions-contract';
import { PROMOTION_DURATIONS } from '@shared/promotions';
import { isPlanType } from '@shared/plans';
import { api, ApiRequestError } from './api/api-client';

export const PROMOTION_STORAGE_KEY = 'candlewise.promotionCode';

export type PromotionCodeState =
  | { status: 'none' }
  | { status: 'checking'; code: string }
  | { status: 'valid'; promotion: PublicPromotion }
  | { status: 'invalid'; code: string; message: string };

const NONE: PromotionCodeState = { status: 'none' };
let state: PromotionCodeState = NONE;
let started = false;
const listeners = new Set<() => void>();

function set(next: PromotionCodeState) {
  state = next;
  for (const listener of listeners) listener();
}

const isCount = (value: unknown) => value === null || (typeof value === 'number' && Number.isInteger(value));

/** The look-up's answer checked by hand (no zod on the landing page); null when it is not one. */
export function readPublicPromotion(value: unknown): PublicPromotion | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const plansOk = v.plans === null || (Array.isArray(v.plans) && v.plans.every(isPlanType));
  const ok =
    typeof v.code === 'string' &&
    isCount(v.percentOff) &&
    isCount(v.amountOff) &&
    (v.currency === null || typeof v.currency === 'string') &&
    (PROMOTION_DURATIONS as readonly unknown[]).includes(v.duration) &&
    isCount(v.durationInMonths) &&
    plansOk &&
    typeof v.firstTimeOnly === 'boolean' &&
    typeof v.churnedOnly === 'boolean' &&
    (v.expiresAt === null || typeof v.expiresAt === 'string');
  return ok ? (value as PublicPromotion) : null;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // storage refused (privacy settings): the code works for this page only
    return null;
  }
}

/** The code in the address, else the one remembered for this visit. */
function codeOfVisit(): string | null {
  const fromUrl = new URLSearchParams(window.location.search).get('code')?.trim();
  if (fromUrl) {
    storage()?.setItem(PROMOTION_STORAGE_KEY, fromUrl);
    return fromUrl;
  }
  return storage()?.getItem(PROMOTION_STORAGE_KEY) ?? null;
}

async function lookUp(code: string): Promise<void> {
  set({ status: 'checking', code });
  try {
    const promotion = readPublicPromotion(await api<unknown>(`/api/promotion-codes/${encodeURIComponent(code)}`));
    set(promotion ? { status: 'valid', promotion } : { status: 'invalid', code, message: `The code ${code} could not be checked.` });
  } catch (error) {
    // An unusable code is forgotten, so the next page shows the normal prices without the message.
    if (error instanceof ApiRequestError && !error.network) storage()?.removeItem(PROMOTION_STORAGE_KEY);
    const message = error instanceof ApiRequestError && !error.network ? error.message : `The code ${code} could not be checked. Please reload the page.`;
    set({ status: 'invalid', code, message });
  }
}

/** Starts the look-up once per page load (call from an effect: never during rendering). */
export function startPromotionCode(): void {
  if (started) return;
  started = true;
  const code = codeOfVisit();
  if (code) void lookUp(code);
}

/** The visit's code as every component sees it; 'none' on the server and until the look-up starts. */
export function usePromotionCode(): PromotionCodeState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => NONE,
  );
}

/** The code to send with a checkout: only one the server said is usable. */
export function checkoutPromotionCode(current: PromotionCodeState): string | null {
  return current.status === 'valid' ? current.promotion.code : null;
}

/** Tests: forget the visit's code and look-up. */
export function resetPromotionCode(): void {
  started = false;
  set(NONE);
}
