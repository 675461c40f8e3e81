// Discord roles follow payment, against the sandbox guild: a member with access who linked Discord
// is added with the managed roles; a plan change swaps the plan's roles; access ending takes them
// (or the member) away; relinking moves them; the audit repairs drift both ways; Discord failures
// are retried and never lose or leak a role.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { discordMembers } from '../../db/schema';
import { billingSuite, buy, DAY_MS, rowsOfSession, sandboxOf, jobsOf, signUp, userIdOf } from '../../test-support/billing-test-kit';
import type { TestApp } from '../../test-support/test-app';
import { discordOf, linkSandboxDiscord, sandboxGuild } from '../../test-support/discord-test-kit';
import { SANDBOX_MEMBER_ROLE } from './sandbox-discord';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));
afterAll(() => time.set(new Date()));

const VIP = SANDBOX_MEMBER_ROLE.id;

const guild = () => sandboxGuild(t);
const link = (userId: string, username: string) => linkSandboxDiscord(t, userId, username, time.clock());

const rolesInGuild = async (discordUserId: string) => (await guild().sandbox.guild()).members.find((member) => member.id === discordUserId)?.roles ?? null;
const pass = () => discordOf(t).reconciler.runOnce();

async function payingMember(name: string, planType: 'monthly' | 'lifetime' = 'monthly') {
  const address = email(name);
  const cookie = await signUp(t, address);
  const sessionId = await buy(t, address, { planType }, cookie);
  return { cookie, userId: await userIdOf(t, cookie), sessionId };
}

describe('roles follow payment', () => {
  it('a paying member who links Discord joins the guild with the member role, and loses it when access ends', async () => {
    const member = await payingMember('vip');
    const discord = await link(member.userId, 'vip_trader');
    await pass();
    expect(await rolesInGuild(discord.id)).toEqual([VIP]);

    const [row] = await rowsOfSession(t, member.sessionId);
    await sandboxOf(t).sandbox.setCancelAtPeriodEnd(row!.providerCustomerId!, row!.providerSubscriptionId!, true);
    await jobsOf(t).runOnce();
    await t.jobs.accessChanges.runOnce();
    time.set(new Date(row!.expiresAt!.getTime() + DAY_MS));
    await t.jobs.accessChanges.runOnce(); // the access change "ended" reaches the Discord subscriber
    await pass();
    expect(await rolesInGuild(discord.id)).toEqual([]);
    time.set(new Date());
  });

  it('a member without access who links gets no role and is not added to the guild', async () => {
    const address = email('free');
    const cookie = await signUp(t, address);
    const discord = await link(await userIdOf(t, cookie), 'free_rider');
    await pass();
    expect(await rolesInGuild(discord.id)).toBeNull();
  });

  it('relinking moves the roles from the old account to the new one', async () => {
    const member = await payingMember('relink');
    const first = await link(member.userId, 'first_account');
    await pass();
    const second = await link(member.userId, 'second_account');
    await pass();
    await pass();
    expect(await rolesInGuild(second.id)).toEqual([VIP]);
    expect(await rolesInGuild(first.id)).toEqual([]);
    const rows = await t.deps.database.db.select().from(discordMembers).where(eq(discordMembers.userId, member.userId));
    expect(rows.map((row) => [row.username, row.current, row.status]).sort()).toEqual([
      ['first_account', false, 'synced'],
      ['second_account', true, 'synced'],
    ]);
  });

  it('an account one member left and another linked before the next pass keeps the new member’s roles', async () => {
    const first = await payingMember('handover-a');
    const second = await payingMember('handover-b');
    const shared = await link(first.userId, 'handed_over');
    await pass();
    await link(first.userId, 'handover_new'); // the first member moves on: the shared account's roles should go…
    await link(second.userId, 'handed_over'); // …but the second member links it before any pass
    await pass();
    await pass();
    expect(await rolesInGuild(shared.id)).toEqual([VIP]);
  });

  it('the audit gives back a role taken by hand and takes one given by hand', async () => {
    const member = await payingMember('drift');
    const discord = await link(member.userId, 'drifting');
    await pass();
    await guild().sandbox.takeRole(discord.id, VIP);
    expect(await rolesInGuild(discord.id)).toEqual([]);
    const repaired = await discordOf(t).reconciler.audit();
    expect(repaired.added).toBeGreaterThanOrEqual(1);
    expect(await rolesInGuild(discord.id)).toEqual([VIP]);

    // someone holding the managed role without any link loses it
    const stranger = await guild().sandbox.authorize({ username: 'stranger_with_role', redirectUri: 'http://localhost:3000/cb', scopes: ['identify', 'guilds.join'] });
    const tokens = await guild().oauth.exchangeCode({ code: stranger.code, redirectUri: 'http://localhost:3000/cb' });
    await guild().bot.addMember(stranger.user.id, tokens.accessToken, [VIP]);
    const second = await discordOf(t).reconciler.audit();
    expect(second.removed).toBeGreaterThanOrEqual(1);
    expect(await rolesInGuild(stranger.user.id)).toEqual([]);
  });

  it('a missing Manage Roles permission fails visibly and is retried until it works', async () => {
    const member = await payingMember('blocked');
    await guild().sandbox.setMissingManageRoles(true);
    try {
      const discord = await link(member.userId, 'blocked_member');
      await pass();
      const [row] = await t.deps.database.db.select().from(discordMembers).where(eq(discordMembers.userId, member.userId));
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row!.lastError).toMatch(/^missing_permissions/);
      expect(await rolesInGuild(discord.id)).toBeNull();

      await guild().sandbox.setMissingManageRoles(false);
      time.set(new Date(time.now().getTime() + 60_000));
      await pass();
      expect(await rolesInGuild(discord.id)).toEqual([VIP]);
    } finally {
      await guild().sandbox.setMissingManageRoles(false);
      time.set(new Date());
    }
  });
});
