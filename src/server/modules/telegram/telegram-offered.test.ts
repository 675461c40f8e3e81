// Who hears of a member's access change about Telegram: a shop that offers Telegram (a bot, or the
// sandbox Telegram of a demo) tells its Telegram integration; a live shop without a bot has no
// member in a chat to follow, so no delivery is written for Telegram (a renewal wave costs its
// statements nothing).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessChangeDeliveries, accessChanges, user } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { createEntitlements } from '../entitlements/entitlements';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The subscribers a comp given to a new member is to be delivered to (the deliveries are left undone to be read). */
async function subscribersTold(t: TestApp, email: string): Promise<string[]> {
  const db = t.deps.database.db;
  const [member] = await db.insert(user).values({ name: 'member', email }).returning({ id: user.id });
  const core = createEntitlements({ db, clock: () => new Date(), logger: t.deps.logger, subscribers: t.integrations.map((integration) => integration.subscriber), deliver: async () => {} });
  const [change] = await core.write(async (writer) => {
    await writer.giveComp(member!.id, new Date(Date.now() + DAY_MS));
  }).then(() => db.select({ id: accessChanges.id }).from(accessChanges).where(eq(accessChanges.userId, member!.id)));
  const rows = await db.select({ subscriber: accessChangeDeliveries.subscriber }).from(accessChangeDeliveries).where(eq(accessChangeDeliveries.changeId, change!.id));
  return rows.map((row) => row.subscriber).sort();
}

describe('a shop that offers Telegram', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells its Telegram integration of every access change', async () => {
    expect(await subscribersTold(t, 'offered@example.com')).toEqual(['discord', 'telegram', 'tradingview']);
  });
});

describe('a live shop without a Telegram bot', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com', AUTH_SECRET: 'a'.repeat(40) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes no delivery for Telegram, and still one for each integration that follows access', async () => {
    expect(await subscribersTold(t, 'live@example.com')).toEqual(['discord', 'tradingview']);
  });
});
