import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { memberDetailSchema } from '@shared/admin-contract';
import { sandboxTelegramChatsSchema, telegramConsoleSchema, telegramLinkResponseSchema, telegramStatusResponseSchema, type TelegramStatusResponse } from '@shared/telegram/contract';
import { sandboxTelegramChatMembers, telegramInvites, telegramMembers, user, userSubscriptions } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { cookieFrom } from '../../test-support/test-app';
import type { Integration } from '../../integration';
import { replaceManagedChats } from './telegram.repository';
import { SANDBOX_DEFAULT_CHAT } from './sandbox-telegram';

// Telegram follows payment, through the whole app as the composition root wires it: the member's
// deep link, the sandbox Telegram user who opens it and joins, access that ends, a plan change,
// relinking, join requests, the audit, and the console.

const VIP = SANDBOX_DEFAULT_CHAT.chatId;
const NEWS = '-1001000000002';
const MONTH = 30 * 24 * 60 * 60_000;

let s: ConsoleSuite;
consoleSuite((suite) => (s = suite));

let telegram: Integration;
let signUps = 0;
beforeAll(() => {
  telegram = s.t.integrations.find((integration) => integration.name === 'telegram')!;
});

const db = () => s.t.deps.database.db;
const json = async <T>(response: Response, schema: { parse: (value: unknown) => T }, status = 200): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status);
  return schema.parse(await response.json());
};

async function memberWithCookie(options: { access?: boolean } = {}) {
  const email = `tg-${randomUUID()}@example.com`;
  signUps += 1;
  // each member's browser from an address of its own: sign-up is rate limited per address
  const response = await s.t.request('/api/auth/sign-up/email', { body: { email, password: 'Sup3rSecret!', name: 'member' }, headers: { 'x-forwarded-for': `198.51.100.${signUps}` } });
  expect(response.status).toBe(200);
  const cookie = cookieFrom(response);
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email));
  if (options.access !== false) await giveAccess(row!.id);
  return { cookie, userId: row!.id };
}

async function giveAccess(userId: string) {
  await s.t.services.entitlements.write((writer) => writer.giveComp(userId, new Date(s.time.now().getTime() + MONTH)));
}

async function takeAccess(userId: string) {
  const rows = await db().select({ id: userSubscriptions.id }).from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
  await s.t.services.entitlements.write((writer) => writer.revokeRows({ rowIds: rows.map((row) => row.id) }, 'operator'));
}

const status = async (cookie: string): Promise<TelegramStatusResponse> => json(await s.t.request('/api/telegram', { cookie }), telegramStatusResponseSchema);

/** The member opens Connect Telegram; the sandbox Telegram user opens the deep link and presses Start. */
async function link(cookie: string, username: string) {
  const { url } = await json(await s.t.request('/api/telegram/link', { method: 'POST', cookie }), telegramLinkResponseSchema);
  const token = new URL(url, 'http://shop.test').searchParams.get('start')!;
  return (await s.t.request('/api/sandbox/telegram/start', { body: { username, token } }).then((response) => response.json())) as { ok: boolean; message: string };
}

const join = async (username: string, body: { inviteLink?: string; chatId?: string }) =>
  (await s.t.request('/api/sandbox/telegram/join', { body: { username, ...body } }).then((response) => response.json())) as { ok: boolean; message: string };

async function membersOf(chatId: string): Promise<string[]> {
  const { chats } = await json(await s.t.request('/api/sandbox/telegram/chats'), sandboxTelegramChatsSchema);
  return chats.find((chat) => chat.id === chatId)!.members.map((member) => member.username).sort();
}

async function inviteOf(cookie: string, chatId = VIP): Promise<string> {
  const state = await status(cookie);
  if (!state.connected) throw new Error('not connected');
  const chat = state.chats.find((each) => each.chatId === chatId);
  if (!chat?.inviteLink) throw new Error(`no invite to ${chatId}: ${JSON.stringify(state)}`);
  return chat.inviteLink;
}

describe('Telegram follows payment (sandbox)', () => {
  it('is one of the integrations the console lists', async () => {
    expect(telegram.name).toBe('telegram');
    const answer = (await (await s.t.request('/api/admin/integrations', { cookie: s.operator })).json()) as { integrations: { name: string; path: string; sandbox: boolean }[] };
    // TradingView and Discord are registered first (integrations.ts), Telegram after them
    expect(answer.integrations).toEqual([
      expect.objectContaining({ name: 'tradingview' }),
      expect.objectContaining({ name: 'discord' }),
      expect.objectContaining({ name: 'telegram', path: '/admin/telegram', sandbox: true }),
    ]);
  });

  it('links through the deep link, invites the member to the managed chat alone, and the invite works once', async () => {
    const buyer = await memberWithCookie();
    expect(await status(buyer.cookie)).toEqual({ connected: false, available: true });
    expect(await link(buyer.cookie, 'alice_trader')).toEqual({ ok: true, message: 'Connected as @alice_trader. Your invites are in the member area.' });
    expect(await status(buyer.cookie)).toMatchObject({ connected: true, username: 'alice_trader', status: 'pending' });
    await telegram.runOnce();
    const invite = await inviteOf(buyer.cookie);
    expect(await status(buyer.cookie)).toMatchObject({ status: 'synced', chats: [{ chatId: VIP, title: 'VIP Signals', inviteLink: invite }] });
    // member_limit 1: a second user cannot use the member's link
    expect(await join('alice_trader', { inviteLink: invite })).toEqual({ ok: true, message: 'You joined VIP Signals.' });
    expect(await join('bob_freeloader', { inviteLink: invite })).toMatchObject({ ok: false });
    expect(await membersOf(VIP)).toContain('alice_trader');
    expect(await membersOf(VIP)).not.toContain('bob_freeloader');
    // once in, the member area shows no invite any more
    expect(await status(buyer.cookie)).toMatchObject({ chats: [{ chatId: VIP, inviteLink: null }] });
  });

  it('refuses a used or unknown deep link, and a member without access cannot start one', async () => {
    const buyer = await memberWithCookie();
    const { url } = await json(await s.t.request('/api/telegram/link', { method: 'POST', cookie: buyer.cookie }), telegramLinkResponseSchema);
    const token = new URL(url, 'http://shop.test').searchParams.get('start')!;
    expect((await (await s.t.request('/api/sandbox/telegram/start', { body: { username: 'carol_once', token } })).json()) as object).toMatchObject({ ok: true });
    expect((await (await s.t.request('/api/sandbox/telegram/start', { body: { username: 'mallory_again', token } })).json()) as object).toMatchObject({ ok: false });
    const stranger = await memberWithCookie({ access: false });
    expect((await s.t.request('/api/telegram/link', { method: 'POST', cookie: stranger.cookie })).status).toBe(403);
    expect((await s.t.request('/api/sandbox/telegram/start', { body: { username: 'x', token } })).status).toBe(400);
  });

  it('takes the member out of every managed chat when access ends, and lets them back after paying again', async () => {
    const buyer = await memberWithCookie();
    await link(buyer.cookie, 'dave_leaves');
    await telegram.runOnce();
    await join('dave_leaves', { inviteLink: await inviteOf(buyer.cookie) });
    expect(await membersOf(VIP)).toContain('dave_leaves');

    await takeAccess(buyer.userId);
    await telegram.runOnce();
    expect(await membersOf(VIP)).not.toContain('dave_leaves');
    expect(await status(buyer.cookie)).toMatchObject({ connected: true, chats: [], status: 'synced' });

    // ban then unban: paying again brings a new invite that works
    await giveAccess(buyer.userId);
    await telegram.runOnce();
    expect(await join('dave_leaves', { inviteLink: await inviteOf(buyer.cookie) })).toMatchObject({ ok: true });
    expect(await membersOf(VIP)).toContain('dave_leaves');
  });

  it('approves a join request only from a linked account with access, and declines the rest', async () => {
    const paying = await memberWithCookie();
    await link(paying.cookie, 'erin_request');
    await telegram.runOnce();
    const lapsed = await memberWithCookie();
    await link(lapsed.cookie, 'frank_lapsed');
    await takeAccess(lapsed.userId);
    await telegram.runOnce();

    expect(await join('erin_request', { chatId: VIP })).toEqual({ ok: true, message: 'Your request to join VIP Signals was approved.' });
    expect(await join('frank_lapsed', { chatId: VIP })).toEqual({ ok: false, message: 'Your request to join VIP Signals was declined.' });
    expect(await join('grace_unknown', { chatId: VIP })).toEqual({ ok: false, message: 'Your request to join VIP Signals was declined.' });
    expect(await membersOf(VIP)).toContain('erin_request');
    expect(await membersOf(VIP)).not.toContain('frank_lapsed');
  });

  it("lists the member's Telegram accounts on the console's member page, the current one first, with its chats by name", async () => {
    const buyer = await memberWithCookie();
    await link(buyer.cookie, 'ivy_first');
    await link(buyer.cookie, 'ivy_second');
    const communities = async () => memberDetailSchema.parse(await (await s.t.request(`/api/admin/members/${buyer.userId}`, { cookie: s.operator })).json()).communities;
    expect((await communities()).map((community) => [community.name, community.title, community.gives])).toEqual([
      ['discord', 'Discord', 'roles'],
      ['telegram', 'Telegram', 'chats'],
    ]);
    const [discord, before] = await communities();
    expect(discord!.accounts).toEqual([]);
    expect(before!.names).toMatchObject({ [VIP]: 'VIP Signals' });
    expect(before!.accounts).toMatchObject([
      { username: 'ivy_second', current: true, wanted: [VIP], held: [], status: 'pending', lastError: null },
      { username: 'ivy_first', current: false, wanted: [], held: [], status: 'pending' },
    ]);
    // the pass lets the current account in; the old one, in no chat, is gone
    await telegram.runOnce();
    const [, after] = await communities();
    expect(after!.accounts).toMatchObject([{ username: 'ivy_second', current: true, wanted: [VIP], held: [VIP], status: 'synced', nextAttemptAt: null }]);
    expect(after!.accounts).toHaveLength(1);
  });

  it('moves membership when the member relinks another account', async () => {
    const buyer = await memberWithCookie();
    await link(buyer.cookie, 'henry_first');
    await telegram.runOnce();
    await join('henry_first', { inviteLink: await inviteOf(buyer.cookie) });
    await link(buyer.cookie, 'henry_second');
    await telegram.runOnce();
    expect(await membersOf(VIP)).not.toContain('henry_first');
    expect(await join('henry_second', { inviteLink: await inviteOf(buyer.cookie) })).toMatchObject({ ok: true });
    expect(await membersOf(VIP)).toContain('henry_second');
  });

  it('repairs drift both ways in the audit and never touches a chat member the shop does not manage', async () => {
    const buyer = await memberWithCookie();
    await link(buyer.cookie, 'ivy_drift');
    await telegram.runOnce();
    await join('ivy_drift', { inviteLink: await inviteOf(buyer.cookie) });
    const lapsed = await memberWithCookie();
    await link(lapsed.cookie, 'jack_sneaks');
    await takeAccess(lapsed.userId);
    await telegram.runOnce();
    // drift: the member with access left (and their invite is gone); the lapsed one got in by hand; a stranger is there too
    const [ivy] = await db().select().from(telegramMembers).where(eq(telegramMembers.username, 'ivy_drift'));
    const [jack] = await db().select().from(telegramMembers).where(eq(telegramMembers.username, 'jack_sneaks'));
    await db().delete(sandboxTelegramChatMembers).where(and(eq(sandboxTelegramChatMembers.chatId, VIP), eq(sandboxTelegramChatMembers.userId, ivy!.telegramUserId)));
    await db().delete(telegramInvites).where(eq(telegramInvites.memberId, ivy!.id));
    await db().insert(sandboxTelegramChatMembers).values([
      { chatId: VIP, userId: jack!.telegramUserId, status: 'member' },
      { chatId: VIP, userId: '1999999999', status: 'member' },
    ]);

    const audit = (await (await s.t.request('/api/admin/telegram/audit', { method: 'POST', cookie: s.operator })).json()) as { invited: number; removed: number };
    expect(audit).toMatchObject({ invited: expect.any(Number), removed: expect.any(Number) });
    expect(audit.invited).toBeGreaterThanOrEqual(1);
    expect(audit.removed).toBeGreaterThanOrEqual(1);
    await telegram.runOnce();
    expect(await membersOf(VIP)).not.toContain('jack_sneaks');
    const stranger = await db().select().from(sandboxTelegramChatMembers).where(eq(sandboxTelegramChatMembers.userId, '1999999999'));
    expect(stranger).toHaveLength(1);
    expect(await join('ivy_drift', { inviteLink: await inviteOf(buyer.cookie) })).toMatchObject({ ok: true });
  });

  it('swaps chats on a plan change, from the chats the console keys by plan slug', async () => {
    const saved = await s.t.request('/api/admin/telegram/chats', {
      method: 'PUT',
      cookie: s.operator,
      body: { chats: [{ chatId: VIP, title: 'VIP Signals', everyPlan: false, planSlugs: ['yearly'] }, { chatId: NEWS, title: 'Announcements', everyPlan: false, planSlugs: ['monthly'] }] },
    });
    const console = await json(saved, telegramConsoleSchema);
    expect(console.chats.map((chat) => [chat.chatId, chat.planSlugs])).toEqual([[NEWS, ['monthly']], [VIP, ['yearly']]]);

    const buyer = await memberWithCookie({ access: false });
    await db().insert(userSubscriptions).values({ userId: buyer.userId, planType: 'monthly', status: 'active', isActive: true, expiresAt: new Date(s.time.now().getTime() + MONTH), provider: 'sandbox' });
    await link(buyer.cookie, 'kate_planner');
    await telegram.runOnce();
    expect((await status(buyer.cookie)) as { chats: unknown[] }).toMatchObject({ chats: [{ chatId: NEWS }] });
    await join('kate_planner', { inviteLink: await inviteOf(buyer.cookie, NEWS) });

    await db().update(userSubscriptions).set({ planType: 'yearly' }).where(eq(userSubscriptions.userId, buyer.userId));
    await telegram.subscriber.onPlanChanged!({ id: randomUUID(), userId: buyer.userId, kind: 'plan_changed', planType: 'yearly', previousPlanType: 'monthly', hasAccess: true, expiresAt: null, occurredAt: s.time.now(), rowId: null, canceled: false, complimentary: false, periodEnd: null });
    await telegram.runOnce();
    expect(await membersOf(NEWS)).not.toContain('kate_planner');
    expect(await join('kate_planner', { inviteLink: await inviteOf(buyer.cookie, VIP) })).toMatchObject({ ok: true });
    await replaceManagedChats(db(), [], s.time.now());
  });

  it('shows failures on the console and retries now on request', async () => {
    // a chat id the sandbox does not know: chat not found, retried with back-off
    await s.t.request('/api/admin/telegram/chats', { method: 'PUT', cookie: s.operator, body: { chats: [{ chatId: '-1009999999999', title: 'Gone', everyPlan: true, planSlugs: [] }] } });
    const buyer = await memberWithCookie();
    await link(buyer.cookie, 'liam_failing');
    await telegram.runOnce();
    expect(await status(buyer.cookie)).toMatchObject({ status: 'failed', lastError: expect.stringContaining('chat_not_found') });
    const console = await json(await s.t.request('/api/admin/telegram', { cookie: s.operator }), telegramConsoleSchema);
    const failing = console.accounts.find((account) => account.username === 'liam_failing')!;
    expect(failing).toMatchObject({ status: 'failed', attempts: 1 });
    expect(console.counts.failing).toBeGreaterThanOrEqual(1);
    const checks = (await (await s.t.request('/api/admin/telegram/checks', { cookie: s.operator })).json()) as { checks: { status: string }[] };
    expect(checks.checks).toEqual([expect.objectContaining({ status: 'sandbox' })]);

    await s.t.request('/api/admin/telegram/chats', { method: 'PUT', cookie: s.operator, body: { chats: [] } });
    expect((await s.t.request(`/api/admin/telegram/accounts/${failing.id}/retry`, { method: 'POST', cookie: s.operator })).status).toBe(200);
    await telegram.runOnce();
    expect(await status(buyer.cookie)).toMatchObject({ status: 'synced' });
    expect((await s.t.request('/api/admin/telegram', { cookie: s.member })).status).toBe(403);
    expect((await s.t.request(`/api/admin/telegram/accounts/${randomUUID()}/retry`, { method: 'POST', cookie: s.operator })).status).toBe(404);
  });
});
