// Which Discord roles the shop manages and which of them a member's account should hold: the
// member roles (DISCORD_ROLE_IDS) with any access, plus the roles of the plan that carries it
// (DISCORD_ROLE_IDS_<PLAN>). Roles the shop does not manage are never touched.
import type { Entitlement } from './access-changes';
import type { PlanType } from './plans';

export type DiscordRoleConfig = {
  memberRoleIds: readonly string[];
  planRoleIds: Readonly<Record<PlanType, readonly string[]>>;
};

/** Every role id the shop gives or takes. */
export function managedRoleIds(config: DiscordRoleConfig): string[] {
  return [...new Set([...config.memberRoleIds, ...Object.values(config.planRoleIds).flat()])];
}

/** The managed roles an entitlement calls for; none without access. */
export function desiredDiscordRoles(entitlement: Entitlement | null, config: DiscordRoleConfig): string[] {
  if (!entitlement) return [];
  return [...new Set([...config.memberRoleIds, ...(config.planRoleIds[entitlement.planType] ?? [])])];
}

/** What to change on an account that holds `held` so that its managed roles become `desired`. */
export function discordRoleChanges(held: readonly string[], desired: readonly string[], managed: readonly string[]): { add: string[]; remove: string[] } {
  const holds = new Set(held);
  const wants = new Set(desired);
  return {
    add: desired.filter((role) => !holds.has(role)),
    remove: managed.filter((role) => holds.has(role) && !wants.has(role)),
  };
}

/** The wait after the `attempts`-th failed pass: 30 s doubling to an hour, or what Discord asked. */
export function discordRetryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
  return retryAfterMs !== undefined ? Math.max(retryAfterMs, 1_000) : backoff;
}
