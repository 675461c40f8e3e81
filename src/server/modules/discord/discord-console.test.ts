// The console's Discord page through the real app on the sandbox guild: linked accounts with their
// member and roles by name, a failing account retried now (audited), the audit run on demand with
// its repairs listed, the member page's Discord section, and role names missing while Discord fails.
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  discordAccountsSchema,
  discordAuditSummarySchema,
  discordOverviewSchema,
  discordRepairsSchema,
  discordRolesSchema,
  memberDetailSchema,
  type DiscordAccount,
} from '@shared/admin-contract';
import { discordMembers, operatorAuditLog } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { discordOf, linkSandboxDiscord, sandboxGuild } from '../../test-support/discord-test-kit';
import { consoleSuite, OPERATOR_EMAIL, seedMember, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { DiscordError } from './discord.port';
import { SANDBOX_MEMBER_ROLE } from './sandbox-discord';
import { createDiscordConsoleService } from './discord-console.service';
import { recordOperatorAction } from '../admin/audit.repository';

let t: TestApp;
let operator: string;
let member: string;
let time: ConsoleSuite['time'];

consoleSuite((suite) => ({ t, operator, member, time } = suite));

const VIP = SANDBOX_MEMBER_ROLE;
const db = () => t.deps.database.db;

const guild = () => sandboxGuild(t);
const link = (userId: string, username: string) => linkSandboxDiscord(t, userId, username, time.clock());

/** A paying member (no TradingView username) with Discord linked and one reconciler pass run. */
async function linkedMember(username: string) {
  const seeded = await seedMember(db(), { username: null });
  const discord = await link(seeded.userId, username);
  await discordOf(t).reconciler.runOnce();
  return { ...seeded, discord };
}

const get = async (path: string, cookie = operator) => t.request(`/api/admin${path}`, { cookie });
const read = async <T>(path: string, schema: { parse: (value: unknown) => T }): Promise<T> => {
  const response = await get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return schema.parse(await response.json());
};
const post = (path: string, cookie = operator) => t.request(`/api/admin${path}`, { method: 'POST', body: {}, cookie });
const accounts = (query = '') => read(`/discord/accounts${query}`, discordAccountsSchema);
const accountOf = async (username: string, query = ''): Promise<DiscordAccount | undefined> => (await accounts(query)).accounts.find((row) => row.username === username);
const auditLines = (action: string) => db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, action)).orderBy(desc(operatorAuditLog.createdAt));

describe("the console's Discord page", () => {
  it('shows operators each linked account with its member, roles by name and state, and the counts', async () => {
    const synced = await linkedMember('console_vip');
    const free = await seedMember(db(), { username: null, isActive: false, status: 'canceled' });
    await link(free.userId, 'console_free');

    expect(await read('/discord/overview', discordOverviewSchema)).toEqual({ adapter: 'sandbox', linkedMembers: 2, synced: 1, pending: 1, failing: 0 });
    expect(await accountOf('console_vip')).toMatchObject({
      userId: synced.userId,
      email: synced.email,
      discordUserId: synced.discord.id,
      current: true,
      wantedRoles: [{ id: VIP.id, name: VIP.name }],
      heldRoles: [{ id: VIP.id, name: VIP.name }],
      status: 'synced',
      attempts: 0,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(await accountOf('console_free')).toMatchObject({ email: free.email, wantedRoles: [], heldRoles: [], status: 'pending' });
    expect(await read('/discord/roles', discordRolesSchema)).toMatchObject({ roles: expect.arrayContaining([{ id: VIP.id, name: VIP.name }]), error: null });
  });

  it("is one of the integrations the console's overview lists, with the page's counts", async () => {
    const overview = await read('/discord/overview', discordOverviewSchema);
    const answer = (await (await get('/integrations')).json()) as { integrations: { name: string }[] };
    expect(answer.integrations.find((card) => card.name === 'discord')).toEqual({
      name: 'discord',
      title: 'Discord',
      path: '/admin/discord',
      sandbox: true,
      linked: overview.linkedMembers,
      pending: overview.pending,
      failing: overview.failing,
    });
    expect(overview.linkedMembers).toBeGreaterThan(0);
  });

  it('refuses members and visitors', async () => {
    for (const [method, path] of [
      ['GET', '/discord/overview'],
      ['GET', '/discord/accounts'],
      ['GET', '/discord/repairs'],
      ['POST', '/discord/audit'],
      ['POST', `/discord/accounts/${crypto.randomUUID()}/retry`],
    ] as const) {
      const send = (cookie?: string) => t.request(`/api/admin${path}`, { method, ...(method === 'POST' ? { body: {} } : {}), ...(cookie ? { cookie } : {}) });
      expect([(await send(member)).status, (await send()).status], `${method} ${path}`).toEqual([403, 401]);
    }
    expect((await auditLines('discord.run_audit')).length).toBe(0);
  });

  it('lists a failing account under "failing only", and "retry now" makes it due, wakes the reconciler and is audited', async () => {
    await guild().sandbox.setMissingManageRoles(true);
    let blocked;
    try {
      blocked = await linkedMember('console_blocked');
      const failing = await accountOf('console_blocked', '?failing=true');
      expect(failing).toMatchObject({ status: 'failed', attempts: 1, heldRoles: [], wantedRoles: [{ id: VIP.id, name: VIP.name }] });
      expect(failing!.lastError).toMatch(/^missing_permissions/);
      expect(new Date(failing!.nextAttemptAt!).getTime()).toBeGreaterThan(time.now().getTime());
      expect(failing!.failingSince).not.toBeNull();
      // the filter leaves the others out; the counts see it
      expect((await accounts('?failing=true')).accounts.every((row) => row.status === 'failed')).toBe(true);
      expect(await accountOf('console_vip', '?failing=true')).toBeUndefined();
      expect((await read('/discord/overview', discordOverviewSchema)).failing).toBe(1);
      // failing rows come first in the whole list
      expect((await accounts()).accounts[0]!.username).toBe('console_blocked');
    } finally {
      await guild().sandbox.setMissingManageRoles(false);
    }

    // its back-off is not over: a pass leaves it alone
    await discordOf(t).reconciler.runOnce();
    expect(await accountOf('console_blocked')).toMatchObject({ status: 'failed', attempts: 1 });

    const row = (await accountOf('console_blocked'))!;
    const retried = await post(`/discord/accounts/${row.id}/retry`);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ message: 'Retrying console_blocked now.' });
    const [due] = await db().select().from(discordMembers).where(eq(discordMembers.id, row.id));
    expect(due).toMatchObject({ status: 'pending' });
    expect(due!.nextAttemptAt.getTime()).toBeLessThanOrEqual(time.now().getTime());
    const [line] = await auditLines('discord.retry_now');
    expect(line).toMatchObject({ operatorEmail: OPERATOR_EMAIL, targetUserId: blocked.userId, details: { discordUserId: blocked.discord.id, username: 'console_blocked', attempts: 1 } });

    await discordOf(t).reconciler.runOnce();
    expect(await accountOf('console_blocked')).toMatchObject({ status: 'synced', attempts: 0, lastError: null, heldRoles: [{ id: VIP.id, name: VIP.name }] });
    expect((await guild().sandbox.guild()).members.find((entry) => entry.id === blocked.discord.id)?.roles).toEqual([VIP.id]);

    // a row that is not failing has nothing to retry (and nothing is audited); an unknown row is 404
    expect(await (await post(`/discord/accounts/${row.id}/retry`)).json()).toEqual({ message: 'console_blocked is not failing (synced): nothing to retry.' });
    expect(await auditLines('discord.retry_now')).toHaveLength(1);
    expect((await post(`/discord/accounts/${crypto.randomUUID()}/retry`)).status).toBe(404);
  });

  it('runs the audit on demand: answers its summary, lists the repairs with member, user and role, and is audited', async () => {
    const drift = await linkedMember('console_drift');
    expect(await guild().sandbox.takeRole(drift.discord.id, VIP.id)).toBe('removed');

    const response = await post('/discord/audit');
    expect(response.status).toBe(200);
    const summary = discordAuditSummarySchema.parse(await response.json());
    expect(summary.added).toBe(1);
    expect(summary.checked).toBeGreaterThanOrEqual(1);
    expect((await guild().sandbox.guild()).members.find((entry) => entry.id === drift.discord.id)?.roles).toEqual([VIP.id]);

    const { repairs } = await read('/discord/repairs', discordRepairsSchema);
    expect(repairs[0]).toMatchObject({
      userId: drift.userId,
      email: drift.email,
      discordUserId: drift.discord.id,
      username: 'console_drift',
      role: { id: VIP.id, name: VIP.name },
      action: 'added',
      reason: 'a member with access was missing it',
    });
    const [line] = await auditLines('discord.run_audit');
    expect(line).toMatchObject({ operatorEmail: OPERATOR_EMAIL, targetUserId: null, details: summary });
  });

  it("answers a Discord outage during the audit with 502 and the cause, auditing nothing", async () => {
    const before = (await auditLines('discord.run_audit')).length;
    await guild().sandbox.setOutage(true);
    try {
      const response = await post('/discord/audit');
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: { code: 'discord_unavailable', details: { reason: expect.stringMatching(/^network: /) } } });
    } finally {
      await guild().sandbox.setOutage(false);
    }
    expect(await auditLines('discord.run_audit')).toHaveLength(before);
  });

  it("shows a member's Discord links on the member page: the current one first, the replaced one with its roles going", async () => {
    const relinked = await linkedMember('console_first');
    await link(relinked.userId, 'console_second');
    const discordAccounts = async (userId: string) => memberDetailSchema.parse(await (await get(`/members/${userId}`)).json()).communities.find((community) => community.name === 'discord')!.accounts;
    expect(await discordAccounts(relinked.userId)).toMatchObject([
      { username: 'console_second', current: true, wanted: [VIP.id], held: [], status: 'pending', lastError: null },
      { username: 'console_first', current: false, wanted: [], held: [VIP.id], status: 'pending' },
    ]);
    await discordOf(t).reconciler.runOnce();
    expect((await discordAccounts(relinked.userId)).map((row) => [row.username, row.status, row.held, row.nextAttemptAt])).toEqual([
      ['console_second', 'synced', [VIP.id], null],
      ['console_first', 'synced', [], null],
    ]);
    expect(await discordAccounts((await seedMember(db(), { username: null })).userId)).toEqual([]);
  });
});

describe('role names while Discord does not answer', () => {
  it('shows role ids without names, and says why', async () => {
    const down = new DiscordError('network', 'Discord is unreachable');
    const service = createDiscordConsoleService({
      db: db(),
      port: { kind: 'sandbox', bot: { ...guild().bot, roles: () => Promise.reject(down) } },
      reconciler: discordOf(t).reconciler,
      clock: time.clock,
      audit: (entry) => recordOperatorAction(db(), entry),
    });
    expect(await service.roles()).toEqual({ roles: [], error: 'network: Discord is unreachable' });
    const { accounts: rows } = await service.accounts({ failing: false, page: 1 });
    expect(rows.find((row) => row.username === 'console_vip')?.heldRoles).toEqual([{ id: VIP.id, name: null }]);
    const { repairs } = await service.repairs();
    expect(repairs[0]?.role).toEqual({ id: VIP.id, name: null });
  });
});
