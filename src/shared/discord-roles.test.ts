import { describe, expect, it } from 'vitest';
import type { Entitlement } from './access-changes';
import { desiredDiscordRoles, discordRetryDelayMs, discordRoleChanges, managedRoleIds } from './discord-roles';

const config = {
  memberRoleIds: ['vip'],
  planRoleIds: { monthly: [], quarterly: [], yearly: ['yearly'], lifetime: ['lifetime'], euMonthly: [], euQuarterly: [] },
};
const entitlement = (planType: Entitlement['planType']): Entitlement => ({ planType, status: 'active', expiresAt: null, cancelAtPeriodEnd: false, complimentary: false });

describe('Discord roles from entitlements', () => {
  it('manages the member roles and every plan role', () => {
    expect(managedRoleIds(config).sort()).toEqual(['lifetime', 'vip', 'yearly']);
  });

  it('gives the member roles with any access, and the plan’s own roles on top', () => {
    expect(desiredDiscordRoles(entitlement('monthly'), config)).toEqual(['vip']);
    expect(desiredDiscordRoles(entitlement('lifetime'), config)).toEqual(['vip', 'lifetime']);
    expect(desiredDiscordRoles(null, config)).toEqual([]);
  });

  it('changes only what differs, and never a role the shop does not manage', () => {
    expect(discordRoleChanges(['vip', 'moderator', 'yearly'], ['vip', 'lifetime'], managedRoleIds(config))).toEqual({ add: ['lifetime'], remove: ['yearly'] });
    expect(discordRoleChanges(['vip', 'moderator'], [], managedRoleIds(config))).toEqual({ add: [], remove: ['vip'] });
    expect(discordRoleChanges(['vip'], ['vip'], managedRoleIds(config))).toEqual({ add: [], remove: [] });
  });

  it('waits longer after each failure, or as long as Discord asked', () => {
    expect([1, 2, 3].map((attempts) => discordRetryDelayMs(attempts))).toEqual([30_000, 60_000, 120_000]);
    expect(discordRetryDelayMs(20)).toBe(3_600_000);
    expect(discordRetryDelayMs(1, 7_500)).toBe(7_500);
  });
});
