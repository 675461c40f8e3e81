// The role reconciler with the real adapter (@discordjs/rest) against a Discord-shaped HTTP server:
// Discord's rate limits and its 50013 are waited out and retried, never lose a role; two instances
// on one database add each member once; DISCORD_ON_END=kick takes the member out of the guild.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import { account } from '../../db/schema';
import { createLogger } from '../../logger';
import { movableClock } from '../../test-support/billing-test-kit';
import { FAKE_DISCORD, startFakeDiscord, type FakeDiscord } from '../../test-support/fake-discord-server';
import { createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { createDiscordClient } from './discord-client';
import { createDiscordReconciler } from './discord-reconciler';
import { DISCORD_PROVIDER_ID, linkAccount } from './discord.repository';

let t: TestApp;
let fake: FakeDiscord;
const time = movableClock();
let users = 0;

beforeAll(async () => {
  t = await createTestApp({}, { clock: time.clock });
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
afterEach(() => {
  fake.rateLimits.length = 0;
  fake.forbidRoleChanges = false;
});

const noPlanRoles = Object.fromEntries(PLAN_TYPES.map((plan) => [plan, []])) as unknown as Record<PlanType, string[]>;

function instance(onEnd: 'remove_roles' | 'kick' = 'remove_roles') {
  const logger = createLogger('silent');
  const port = createDiscordClient({ clientId: fake.clientId, clientSecret: fake.clientSecret, botToken: fake.botToken, guildId: fake.guildId, apiBaseUrl: fake.baseUrl, logger });
  return createDiscordReconciler({ db: t.deps.database.db, port, roles: { memberRoleIds: [FAKE_DISCORD.memberRoleId], planRoleIds: noPlanRoles }, onEnd, auditIntervalMs: 24 * 60 * 60_000, logger, clock: time.clock });
}

/** A member with complimentary access who linked a Discord account that is not in the guild yet. */
async function linkedMember(reconciler: ReturnType<typeof instance>) {
  users += 1;
  const cookie = await signUp(t, `live-${users}@example.com`);
  const session = (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string } };
  const userId = session.user.id;
  await t.services.entitlements.write((writer) => writer.giveComp(userId, new Date(time.now().getTime() + 30 * 24 * 60 * 60_000)));
  const discordUser = { id: `92000000000000${String(users).padStart(4, '0')}`, username: `live_${users}` };
  fake.addUser(discordUser);
  const db = t.deps.database.db;
  await db.insert(account).values({ userId, providerId: DISCORD_PROVIDER_ID, accountId: discordUser.id, accessToken: fake.issueToken(discordUser.id) });
  await db.transaction((tx) => linkAccount(tx, userId, discordUser, time.clock()));
  await reconciler.syncUser(userId);
  return { userId, discordUserId: discordUser.id };
}

const rolesOf = (discordUserId: string) => fake.members.get(discordUserId)?.roles ?? null;
const joins = (discordUserId: string) => fake.requests.filter((request) => request.method === 'PUT' && request.path.endsWith(`/members/${discordUserId}`)).length;

describe('the role reconciler against Discord', () => {
  it('a long rate limit is waited out: the row retries when Discord said, and the member gets the role', async () => {
    const reconciler = instance();
    const member = await linkedMember(reconciler);
    fake.rateLimits.push({ method: 'PUT', path: /\/members\//, times: 1, retryAfter: 30 });
    expect(await reconciler.runOnce()).toMatchObject({ processed: 1, failed: 1 });
    expect(rolesOf(member.discordUserId)).toBeNull();

    time.advance(10_000);
    expect(await reconciler.runOnce()).toMatchObject({ processed: 0 });
    time.advance(25_000);
    expect(await reconciler.runOnce()).toMatchObject({ processed: 1, succeeded: 1 });
    expect(rolesOf(member.discordUserId)).toEqual([FAKE_DISCORD.memberRoleId]);
  });

  it('50013 (no Manage Roles, or the role above the bot) fails visibly and is retried until it works', async () => {
    const reconciler = instance();
    const member = await linkedMember(reconciler);
    fake.forbidRoleChanges = true;
    expect(await reconciler.runOnce()).toMatchObject({ failed: 1 });
    fake.forbidRoleChanges = false;
    time.advance(31_000);
    expect(await reconciler.runOnce()).toMatchObject({ succeeded: 1 });
    expect(rolesOf(member.discordUserId)).toEqual([FAKE_DISCORD.memberRoleId]);
  });

  it('two instances passing at once add each member once', async () => {
    const [a, b] = [instance(), instance()];
    const members = [await linkedMember(a), await linkedMember(a), await linkedMember(b), await linkedMember(b)];
    await Promise.all([a.runOnce(), b.runOnce()]);
    for (const member of members) {
      expect(rolesOf(member.discordUserId)).toEqual([FAKE_DISCORD.memberRoleId]);
      expect(joins(member.discordUserId)).toBe(1);
    }
  });

  it('with DISCORD_ON_END=kick, a member whose access is revoked leaves the guild', async () => {
    const reconciler = instance('kick');
    const member = await linkedMember(reconciler);
    await reconciler.runOnce();
    expect(rolesOf(member.discordUserId)).toEqual([FAKE_DISCORD.memberRoleId]);
    await t.services.members.revokeAccess({ id: 'op', email: 'ops@example.com' } as never, member.userId);
    await reconciler.syncUser(member.userId);
    await reconciler.runOnce();
    expect(fake.members.has(member.discordUserId)).toBe(false);
  });
});
