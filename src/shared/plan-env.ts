// Per-plan environment keys (STRIPE_PRICE_EU_MONTHLY, DISCORD_ROLE_IDS_LIFETIME…): named here so
// that config.ts and an integration's settings module (src/shared/<integration>/settings.ts) agree.
import type { PlanType } from './plans';

/** A plan type as it appears in an env name: euMonthly → EU_MONTHLY. */
type EnvSuffix<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Uppercase<Head> : `_${Head}`}${EnvSuffix<Tail>}`
  : '';

export type PlanEnvKey<Prefix extends string, Plan extends PlanType = PlanType> = `${Prefix}_${EnvSuffix<Plan>}`;

/** The env name of a per-plan setting: planEnvKey('STRIPE_PRICE', 'euMonthly') → 'STRIPE_PRICE_EU_MONTHLY'. */
export function planEnvKey<Prefix extends string, Plan extends PlanType>(prefix: Prefix, plan: Plan): PlanEnvKey<Prefix, Plan> {
  return `${prefix}_${plan.replace(/([A-Z])/g, '_$1').toUpperCase()}` as PlanEnvKey<Prefix, Plan>;
}

/** One env variable per plan (PRICE_MONTHLY, PRICE_QUARTERLY…), so a new plan in PLAN_TYPES gets its own. */
export function perPlanEnv<Prefix extends string, Plan extends PlanType, T>(prefix: Prefix, plans: readonly Plan[], value: (plan: Plan) => T) {
  return Object.fromEntries(plans.map((plan) => [planEnvKey(prefix, plan), value(plan)])) as Record<PlanEnvKey<Prefix, Plan>, T>;
}
