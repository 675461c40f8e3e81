// The access changes in the operator console: a member's access history on the member page, and
// the per-subscriber backlog of deliveries still to make.
import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessChangesBacklogSchema, memberDetailSchema } from '@shared/admin-contract';
import { accessChangeDeliveries, accessChanges, user } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { DAY_MS } from '../../test-support/billing-test-kit';

let t: ConsoleSuite['t'];
let operator: string;
let member: string;
let time: ConsoleSuite['time'];

consoleSuite((suite) => ({ t, operator, member, time } = suite));

async function newMember(): Promise<string> {
  const userId = randomUUID();
  await t.deps.database.db.insert(user).values({ id: userId, name: 'member', email: `${userId}@example.com` });
  return userId;
}

const detailOf = async (userId: string) => memberDetailSchema.parse(await (await t.request(`/api/admin/members/${userId}`, { cookie: operator })).json());
const backlog = async () => {
  const response = await t.request('/api/admin/access-changes', { cookie: operator });
  expect(response.status).toBe(200);
  return accessChangesBacklogSchema.parse(await response.json());
};

describe('the access history on the member page', () => {
  it('is empty for a member whose access never changed', async () => {
    expect((await detailOf(await newMember())).accessHistory).toEqual([]);
  });

  it("lists the member's changes, newest first, with the access after each", async () => {
    const userId = await newMember();
    const firstUntil = new Date(time.now().getTime() + 10 * DAY_MS);
    await t.services.entitlements.write((writer) => writer.giveComp(userId, firstUntil));
    time.advance(60_000);
    const secondUntil = new Date(time.now().getTime() + 40 * DAY_MS);
    await t.services.entitlements.write((writer) => writer.giveComp(userId, secondUntil));

    const { accessHistory } = await detailOf(userId);
    expect(accessHistory).toEqual([
      { id: expect.any(String), kind: 'comp_given', planType: 'monthly', previousPlanType: 'monthly', hasAccess: true, expiresAt: secondUntil.toISOString(), occurredAt: expect.any(String) },
      { id: expect.any(String), kind: 'comp_given', planType: 'monthly', previousPlanType: null, hasAccess: true, expiresAt: firstUntil.toISOString(), occurredAt: expect.any(String) },
    ]);
    expect(Date.parse(accessHistory[0]!.occurredAt) - Date.parse(accessHistory[1]!.occurredAt)).toBe(60_000);
  });

  it('shows the last 50 changes only', async () => {
    const userId = await newMember();
    const db = t.deps.database.db;
    const at = time.now();
    await db.insert(accessChanges).values(
      Array.from({ length: 55 }, (_, index) => ({ userId, kind: 'renewed' as const, planType: 'monthly' as const, hasAccess: true, expiresAt: new Date(at.getTime() + index * DAY_MS), occurredAt: new Date(at.getTime() + index * 1000) })),
    );
    const { accessHistory } = await detailOf(userId);
    expect(accessHistory).toHaveLength(50);
    expect(accessHistory[0]!.occurredAt).toBe(new Date(at.getTime() + 54_000).toISOString());
    expect(accessHistory[49]!.occurredAt).toBe(new Date(at.getTime() + 5_000).toISOString());
  });
});

describe('the access-change delivery backlog', () => {
  it('is for operators only', async () => {
    expect((await t.request('/api/admin/access-changes')).status).toBe(401);
    expect((await t.request('/api/admin/access-changes', { cookie: member })).status).toBe(403);
  });

  it('is empty when every subscriber has taken every change', async () => {
    const userId = await newMember();
    await t.services.entitlements.write((writer) => writer.giveComp(userId, new Date(time.now().getTime() + 10 * DAY_MS)));
    expect(await backlog()).toEqual({ subscribers: [] });
  });

  it('lists per subscriber what waits, what failed, since when and the last error', async () => {
    const db = t.deps.database.db;
    const userId = await newMember();
    const firstAt = time.now();
    await t.services.entitlements.write((writer) => writer.giveComp(userId, new Date(firstAt.getTime() + 10 * DAY_MS)));
    time.advance(60_000);
    await t.services.entitlements.write((writer) => writer.giveComp(userId, new Date(firstAt.getTime() + 20 * DAY_MS)));
    const [newer, older] = await db.select({ id: accessChanges.id }).from(accessChanges).where(eq(accessChanges.userId, userId)).orderBy(desc(accessChanges.id));
    // 'discord' has no subscriber in this app: nothing takes these rows while the test reads them
    const retryAt = new Date(firstAt.getTime() + DAY_MS);
    try {
      await db.insert(accessChangeDeliveries).values([
        { changeId: older!.id, subscriber: 'discord', attempts: 0, nextAttemptAt: retryAt },
        { changeId: newer!.id, subscriber: 'discord', attempts: 3, nextAttemptAt: retryAt, lastError: 'Discord answered 503' },
      ]);
      expect(await backlog()).toEqual({ subscribers: [{ subscriber: 'discord', waiting: 2, failing: 1, oldest: firstAt.toISOString(), lastError: 'Discord answered 503' }] });
    } finally {
      await db.delete(accessChangeDeliveries).where(eq(accessChangeDeliveries.subscriber, 'discord'));
    }
    expect(await backlog()).toEqual({ subscribers: [] });
  });
});
