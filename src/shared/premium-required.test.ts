import { describe, expect, it } from 'vitest';
import { premiumRequiredVariant, premiumRequiredVariantForPlan } from './premium-required';
import type { PlanType } from './plans';

const at = (day: number) => new Date(Date.UTC(2025, 0, day));

describe('premiumRequiredVariant', () => {
  it.each<[string, { planType: PlanType; createdAt: Date }[], unknown]>([
    [
      'no history',
      [],
      { kind: 'none', message: 'You need an active subscription to access the dashboard.', actions: ['Get Premium Access'] },
    ],
    [
      'latest plan lifetime',
      [{ planType: 'monthly', createdAt: at(1) }, { planType: 'lifetime', createdAt: at(2) }],
      {
        kind: 'lifetime',
        message: 'Your Lifetime subscription seems to have an issue. Please contact support or choose a new plan.',
        actions: ['Choose Another Plan'],
      },
    ],
    [
      'lapsed monthly',
      [{ planType: 'monthly', createdAt: at(1) }],
      {
        kind: 'lapsed',
        plan: 'monthly',
        message: 'Your Monthly subscription is no longer active. Reactivate it or choose another plan to regain access.',
        actions: ['Reactivate Monthly Plan', 'Choose Another Plan'],
      },
    ],
    [
      'newest row decides, not list order',
      [{ planType: 'quarterly', createdAt: at(9) }, { planType: 'lifetime', createdAt: at(2) }],
      {
        kind: 'lapsed',
        plan: 'quarterly',
        message: 'Your Quarterly subscription is no longer active. Reactivate it or choose another plan to regain access.',
        actions: ['Reactivate Quarterly Plan', 'Choose Another Plan'],
      },
    ],
    [
      'EU plan keeps its plan type but shows the plain name',
      [{ planType: 'euQuarterly', createdAt: at(1) }],
      {
        kind: 'lapsed',
        plan: 'euQuarterly',
        message: 'Your Quarterly subscription is no longer active. Reactivate it or choose another plan to regain access.',
        actions: ['Reactivate Quarterly Plan', 'Choose Another Plan'],
      },
    ],
    [
      'yearly',
      [{ planType: 'yearly', createdAt: at(1) }],
      {
        kind: 'lapsed',
        plan: 'yearly',
        message: 'Your Yearly subscription is no longer active. Reactivate it or choose another plan to regain access.',
        actions: ['Reactivate Yearly Plan', 'Choose Another Plan'],
      },
    ],
  ])('%s', (_name, rows, expected) => {
    expect(premiumRequiredVariant(rows)).toEqual(expected);
  });

  it.each<[PlanType | null, string]>([
    [null, 'none'],
    ['lifetime', 'lifetime'],
    ['euMonthly', 'lapsed'],
  ])('premiumRequiredVariantForPlan(%s).kind → %s', (plan, kind) => {
    expect(premiumRequiredVariantForPlan(plan).kind).toBe(kind);
  });
});
