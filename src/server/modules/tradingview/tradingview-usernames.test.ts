// Issue 46 §1, decision 048: a TradingView username (trimmed, without case) belongs to one member
// with access. A second claim is refused with one message, in the routes and in the database;
// an operator's transfer moves a name explicitly and is audited; a member changes their own name
// at most once per TRADINGVIEW_USERNAME_CHANGE_DAYS; one member's lapse never revokes another's access.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberDetailSchema } from '@shared/admin-contract';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { tradingviewStatusResponseSchema } from '@shared/tradingview-grants';
import { operatorAuditLog, sandboxTradingviewAccess, tradingviewGrants, tradingviewUsernames, user, userSubscriptions } from '../../db/schema';
import { queryRows } from '../../db/query';
import { createTestDatabase } from '../../test-support/test-database';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { DAY_MS } from '../../test-support/billing-test-kit';
import { cookieFrom, type TestApp } from '../../test-support/test-app';
import { currentUsername, linkUsername, usernameLinks } from './tradingview.repository';
import { tradingViewOf } from './tradingview.integration';

const TAKEN = 'This TradingView username is already linked to another account. Contact support if it is yours.';

let t: TestApp;
let operator: string;
let time: ConsoleSuite['time'];
consoleSuite((suite) => ({ t, operator, time } = suite));

let signUps = 0;
async function payingMember(email: string, values: Partial<typeof userSubscriptions.$inferInsert> = {}) {
  signUps += 1;
  const response = await t.request('/api/auth/sign-up/email', {
    body: { email, password: 'Sup3rSecret!', name: 'member' },
    // an address of its own per sign-up, so the suite stays under the sign-up rate limit
    headers: { 'x-forwarded-for': `198.51.100.${signUps}` },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const [row] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const userId = row!.id;
  const [subscription] = await t.deps.database.db
    .insert(userSubscriptions)
    .values({ userId, planType: 'monthly', status: 'active', isActive: true, expiresAt: new Date(Date.now() + 60 * DAY_MS), provider: 'sandbox', ...values })
    .returning({ id: userSubscriptions.id });
  return { cookie: cookieFrom(response), userId, email, subscriptionId: subscription!.id };
}

const put = (cookie: string, name: string) => t.request('/api/tradingview/username', { method: 'PUT', body: { tv_username: name }, cookie });
const activate = (cookie: string, name: string) => t.request('/api/tradingview/activate', { body: { tv_username: name }, cookie });
const correct = (userId: string, name: string) => t.request(`/api/admin/members/${userId}/tradingview-username`, { body: { username: name }, cookie: operator });
const transfer = (userId: string, name: string) => t.request(`/api/admin/members/${userId}/tradingview-username/transfer`, { body: { username: name }, cookie: operator });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

async function onTradingView(username: string) {
  const rows = await t.deps.database.db.select().from(sandboxTradingviewAccess).where(sql`lower(${sandboxTradingviewAccess.username}) = lower(${username})`);
  return rows.filter((row) => row.expiration === null || row.expiration > new Date()).length;
}

const grantsOf = (userId: string) => t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(tradingviewGrants.createdAt);

describe('one TradingView username, one member', () => {
  it('the shared message is the one the issue asks for', () => {
    expect(SERVER_ERROR_MESSAGES.tv_username_taken).toBe(TAKEN);
  });

  it('refuses a second claim of a name held by a member with access, trimmed and in any case, on activation and on change', async () => {
    const holder = await payingMember('atk-holder@example.com');
    expect((await activate(holder.cookie, 'AtkHeld_x')).status).toBe(200);

    const attacker = await payingMember('atk-attacker@example.com');
    expect(await errorOf(await put(attacker.cookie, 'ATKHELD_X'))).toEqual({ status: 409, code: 'tv_username_taken', message: TAKEN });
    expect(await errorOf(await activate(attacker.cookie, '  atkheld_X  '))).toEqual({ status: 409, code: 'tv_username_taken', message: TAKEN });
    expect(await currentUsername(t.deps.database.db, attacker.userId)).toBeNull();
    expect(await currentUsername(t.deps.database.db, holder.userId)).toBe('AtkHeld_x');
  });

  it("refuses the operator's correction too: moving a name another member holds is a transfer", async () => {
    const holder = await payingMember('corr-holder@example.com');
    expect((await activate(holder.cookie, 'Corr_Held')).status).toBe(200);
    const other = await payingMember('corr-other@example.com');
    expect(await errorOf(await correct(other.userId, 'corr_held'))).toEqual({ status: 409, code: 'tv_username_taken', message: TAKEN });
    expect(await currentUsername(t.deps.database.db, other.userId)).toBeNull();
  });

  it('holds in the database: a second current row for the same name (any case) is refused', async () => {
    const first = await payingMember('db-first@example.com');
    const second = await payingMember('db-second@example.com');
    await t.deps.database.db.insert(tradingviewUsernames).values({ userId: first.userId, username: 'Db_Held' });
    await expect(t.deps.database.db.insert(tradingviewUsernames).values({ userId: second.userId, username: 'DB_HELD' })).rejects.toThrow();
    // a replaced (history) row of the same name is not a claim
    await t.deps.database.db.insert(tradingviewUsernames).values({ userId: second.userId, username: 'db_held', replacedAt: new Date() });
  });

  it('two claims at the same moment: exactly one wins, the other reads the message', async () => {
    const a = await payingMember('race-a@example.com');
    const b = await payingMember('race-b@example.com');
    const answers = await Promise.all([put(a.cookie, 'Race_Name'), put(b.cookie, 'race_name')]);
    expect(answers.map((response) => response.status).sort()).toEqual([200, 409]);
    const refused = answers.find((response) => response.status === 409)!;
    expect(await errorOf(refused)).toMatchObject({ code: 'tv_username_taken', message: TAKEN });
    const holders = await t.deps.database.db
      .select({ userId: tradingviewUsernames.userId })
      .from(tradingviewUsernames)
      .where(and(sql`lower(${tradingviewUsernames.username}) = 'race_name'`, isNull(tradingviewUsernames.replacedAt)));
    expect(holders).toHaveLength(1);
  });

  it('two claims at the same moment in the repository (both past the check): the unique index settles it', async () => {
    const a = await payingMember('repo-race-a@example.com');
    const b = await payingMember('repo-race-b@example.com');
    const results = await Promise.allSettled([linkUsername(t.deps.database.db, a.userId, 'Repo_Race', new Date()), linkUsername(t.deps.database.db, b.userId, 'REPO_RACE', new Date())]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as Error).name).toBe('UsernameTakenError');
  });

  it("a name whose holder's access has lapsed may be claimed by a member with access: the lapsed link ends as claimed", async () => {
    const lapsed = await payingMember('lapsed-holder@example.com');
    await linkUsername(t.deps.database.db, lapsed.userId, 'Lapsed_Name', new Date());
    await t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.id, lapsed.subscriptionId));
    const claimer = await payingMember('lapsed-claimer@example.com');
    expect((await put(claimer.cookie, 'lapsed_name')).status).toBe(200);
    expect(await currentUsername(t.deps.database.db, lapsed.userId)).toBeNull();
    expect(await usernameLinks(t.deps.database.db, lapsed.userId)).toMatchObject([{ username: 'Lapsed_Name', endedBy: 'claimed' }]);
  });
});

describe("one member's lapse never revokes a grant another member holds", () => {
  it('a lapsed member whose name another member claimed: the revoke of their row leaves the new holder granted', async () => {
    const first = await payingMember('lapse-first@example.com');
    expect((await activate(first.cookie, 'Lapse_Shared')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await grantsOf(first.userId)).toMatchObject([{ desired: 'grant', status: 'granted' }]);
    const scripts = await onTradingView('Lapse_Shared');
    expect(scripts).toBe(t.deps.config.integrations.tradingview.scriptIds.length);

    // the first member lapses; before the reconciler gets to their revoke, a member with access claims the name
    await t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.id, first.subscriptionId));
    await tradingViewOf(t.integrations).reconciler.syncUser(first.userId);
    const second = await payingMember('lapse-second@example.com');
    expect((await put(second.cookie, 'LAPSE_SHARED')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    await tradingViewOf(t.integrations).reconciler.runOnce();

    expect(await grantsOf(first.userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
    expect(await grantsOf(second.userId)).toMatchObject([{ desired: 'grant', status: 'granted' }]);
    expect(await onTradingView('Lapse_Shared')).toBe(scripts);

    // and the sweep's later passes keep it so
    await tradingViewOf(t.integrations).reconciler.syncUser(first.userId);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await onTradingView('Lapse_Shared')).toBe(scripts);
  });

  it("an operator's transfer moves the name; the member it left lapsing later takes nothing from the new holder", async () => {
    const from = await payingMember('xfer-from@example.com');
    expect((await activate(from.cookie, 'Xfer_Name')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const to = await payingMember('xfer-to@example.com', { expiresAt: new Date(Date.now() + 90 * DAY_MS) });

    const response = await transfer(to.userId, 'Xfer_Name');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message: string }).message).toBe(`Xfer_Name moved from ${from.email} to ${to.email}; TradingView access follows this member's plan.`);
    expect(await currentUsername(t.deps.database.db, to.userId)).toBe('Xfer_Name');
    expect(await currentUsername(t.deps.database.db, from.userId)).toBeNull();
    await tradingViewOf(t.integrations).reconciler.runOnce();
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const scripts = t.deps.config.integrations.tradingview.scriptIds.length;
    expect(await onTradingView('Xfer_Name')).toBe(scripts);

    await t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.id, from.subscriptionId));
    await tradingViewOf(t.integrations).reconciler.syncUser(from.userId);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await grantsOf(from.userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
    expect(await grantsOf(to.userId)).toMatchObject([{ desired: 'grant', status: 'granted' }]);
    expect(await onTradingView('Xfer_Name')).toBe(scripts);

    // audited on both members, by name
    const audit = await t.deps.database.db.select().from(operatorAuditLog).where(sql`${operatorAuditLog.action} in ('transfer_username', 'transfer_username_away')`);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'transfer_username', targetUserId: to.userId, details: expect.objectContaining({ username: 'Xfer_Name', from: from.email }) }),
        expect.objectContaining({ action: 'transfer_username_away', targetUserId: from.userId, details: expect.objectContaining({ username: 'Xfer_Name', to: to.email }) }),
      ]),
    );
    // and kept in both members' histories on the console
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${from.userId}`, { cookie: operator })).json());
    expect(detail.usernameHistory).toMatchObject([{ username: 'Xfer_Name', linkedBy: 'member', endedBy: 'transfer' }]);
    const received = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${to.userId}`, { cookie: operator })).json());
    expect(received.usernameHistory).toMatchObject([{ username: 'Xfer_Name', linkedBy: 'transfer', endedBy: null, replacedAt: null }]);
  });
});

describe('a member changes their own username at most once per TRADINGVIEW_USERNAME_CHANGE_DAYS (7)', () => {
  it('the first name is free, one change goes through, the next is refused until the days have passed; the history shows each', async () => {
    const member = await payingMember('cooldown@example.com');
    expect((await activate(member.cookie, 'Cool_One')).status).toBe(200);
    time.advance(60_000);
    expect((await put(member.cookie, 'Cool_Two')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const changedAt = time.now();
    time.advance(60_000);

    const refused = await errorOf(await put(member.cookie, 'Cool_Three'));
    const nextAt = new Date(changedAt.getTime() + 7 * DAY_MS);
    expect(refused).toMatchObject({ status: 429, code: 'tv_username_change_too_soon' });
    expect(refused.message).toBe(
      `You can change your TradingView username once every 7 days. You can change it again on ${nextAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })}, or contact support.`,
    );
    // the same name again is no change, and is always accepted
    expect((await put(member.cookie, 'cool_two')).status).toBe(200);
    const status = tradingviewStatusResponseSchema.parse(await (await t.request('/api/tradingview/status', { cookie: member.cookie })).json());
    expect(status).toMatchObject({ username: 'Cool_Two', nextChangeAt: nextAt.toISOString(), changeDays: 7 });

    // an operator's correction is not limited
    time.advance(60_000);
    expect((await correct(member.userId, 'Cool_Operator')).status).toBe(200);
    expect(await currentUsername(t.deps.database.db, member.userId)).toBe('Cool_Operator');
    // the console's member page shows the history
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${member.userId}`, { cookie: operator })).json());
    expect(detail.usernameHistory.map(({ username, linkedBy, endedBy }) => [username, linkedBy, endedBy])).toEqual([
      ['Cool_Operator', 'operator', null],
      ['Cool_Two', 'member', 'operator'],
      ['Cool_One', 'member', 'member'],
    ]);

    time.advance(7 * DAY_MS + 60_000);
    // sessions age with the clock: the member signs in again
    const again = cookieFrom(await t.request('/api/auth/sign-in/email', { body: { email: member.email, password: 'Sup3rSecret!' }, headers: { 'x-forwarded-for': '198.51.100.250' } }));
    expect((await put(again, 'Cool_Three')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await currentUsername(t.deps.database.db, member.userId)).toBe('Cool_Three');

    const links = await usernameLinks(t.deps.database.db, member.userId);
    expect(links.map(({ username, linkedBy, endedBy }) => [username, linkedBy, endedBy])).toEqual([
      ['Cool_Three', 'member', null],
      ['Cool_Operator', 'operator', 'member'],
      ['Cool_Two', 'member', 'operator'],
      ['Cool_One', 'member', 'member'],
    ]);
    // the old names' grants are revoked, the current one's granted
    const grants = await grantsOf(member.userId);
    expect(grants.filter((grant) => grant.desired === 'grant').map((grant) => grant.username)).toEqual(['Cool_Three']);
  });
});

describe('migration 0034 on names two members hold already', () => {
  it('leaves the name with the member who has access, ends the others as duplicates with an audit entry, then refuses new duplicates', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      await db.execute(sql`DROP INDEX tradingview_usernames_name_uq`);
      const ids = { lapsed: crypto.randomUUID(), paying: crypto.randomUUID(), later: crypto.randomUUID() };
      for (const [key, id] of Object.entries(ids)) await db.insert(user).values({ id, name: key, email: `${key}@example.com` });
      const future = new Date(Date.now() + 30 * DAY_MS);
      await db.insert(userSubscriptions).values([
        { userId: ids.lapsed, planType: 'monthly', status: 'active', isActive: false, expiresAt: future, provider: 'sandbox' },
        { userId: ids.paying, planType: 'monthly', status: 'active', isActive: true, expiresAt: future, provider: 'sandbox' },
        { userId: ids.later, planType: 'monthly', status: 'active', isActive: true, expiresAt: future, provider: 'sandbox' },
      ]);
      await db.insert(tradingviewUsernames).values([
        { userId: ids.lapsed, username: 'Dup_Name', linkedAt: new Date('2025-01-01T00:00:00Z') },
        { userId: ids.paying, username: 'dup_name', linkedAt: new Date('2025-02-01T00:00:00Z') },
        { userId: ids.later, username: 'DUP_NAME', linkedAt: new Date('2025-03-01T00:00:00Z') },
      ]);
      const file = fileURLToPath(new URL('../../db/migrations/0034_tradingview_username_one_member.sql', import.meta.url));
      // the columns exist already in the migrated database: run the statements after them
      const statements = (await readFile(file, 'utf8')).split('--> statement-breakpoint').filter((statement) => !/ADD COLUMN/.test(statement));
      for (const statement of statements) if (statement.trim()) await db.execute(sql.raw(statement));

      expect(await currentUsername(db, ids.paying)).toBe('dup_name');
      expect(await currentUsername(db, ids.lapsed)).toBeNull();
      expect(await currentUsername(db, ids.later)).toBeNull();
      expect(await usernameLinks(db, ids.later)).toMatchObject([{ username: 'DUP_NAME', endedBy: 'duplicate' }]);
      const audit = await queryRows<{ target: string }>(db, sql`SELECT target_user_id::text AS target FROM operator_audit_log WHERE action = 'release_duplicate_username'`);
      expect(audit.map((row) => row.target).sort()).toEqual([ids.lapsed, ids.later].sort());
      await expect(db.insert(tradingviewUsernames).values({ userId: ids.later, username: 'Dup_Name' })).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
