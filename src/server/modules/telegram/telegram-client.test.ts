import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telegramLinkResponseSchema, telegramStatusResponseSchema } from '@shared/telegram/contract';
import { telegramMembers, user } from '../../db/schema';
import type { Integration } from '../../integration';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { startFakeTelegram, type FakeTelegram } from './test-support/fake-telegram-server';
import { cookieFrom } from '../../test-support/test-app';
import { createTelegramClient } from './telegram-client';
import { checkTelegram } from './telegram-doctor';
import { webhookSecretOf } from './telegram.integration';
import { TelegramError } from './telegram.port';

// The real adapter (grammY) against a Telegram-shaped local server: Telegram's errors as the
// reconciler needs them (429 with retry_after, 403 not admin, chat not found), the whole member
// walk through the webhook, and the doctor's check of each chat.

const VIP = '-1002000000001';
const env: Record<string, string> = {};
let fake: FakeTelegram;
let s: ConsoleSuite;
let telegram: Integration;

beforeAll(async () => {
  fake = await startFakeTelegram();
  fake.chats.set(VIP, { id: VIP, title: 'VIP', botStatus: 'administrator', canInvite: true, canBan: true, members: new Map() });
  fake.chats.set('-1002000000002', { id: '-1002000000002', title: 'Not admin', botStatus: 'member', canInvite: false, canBan: false, members: new Map() });
  fake.chats.set('-1002000000003', { id: '-1002000000003', title: 'Outside', botStatus: 'left', canInvite: false, canBan: false, members: new Map() });
  Object.assign(env, { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
});
consoleSuite((suite) => {
  s = suite;
  telegram = suite.t.integrations.find((integration) => integration.name === 'telegram')!;
}, env);
afterAll(async () => {
  await fake?.close();
});

const client = () => createTelegramClient({ botToken: fake.token, apiRoot: fake.apiRoot });

async function kindOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TelegramError);
  return error as TelegramError;
}

describe('the grammY adapter against a Telegram-shaped server', () => {
  it("reads the bot and a chat member, and names Telegram's failures", async () => {
    expect(await client().getMe()).toEqual({ id: String(fake.bot.id), username: fake.bot.username });
    expect(await client().getChatMember(VIP, '42')).toEqual({ status: 'left' });
    expect((await kindOf(client().getChat('-100404'))).kind).toBe('chat_not_found');
    expect((await kindOf(client().getChat('-1002000000003'))).kind).toBe('forbidden');
    expect((await kindOf(client().createInviteLink('-1002000000002', { memberLimit: 1, expiresAt: new Date(Date.now() + 3_600_000), name: 'x' }))).kind).toBe('forbidden');
    expect((await kindOf(createTelegramClient({ botToken: '1:wrong', apiRoot: fake.apiRoot }).getMe())).kind).toBe('unauthorized');
    fake.throttle('getChat', 1, 7);
    const throttled = await kindOf(client().getChat(VIP));
    expect(throttled.kind).toBe('rate_limited');
    expect(throttled.details.retryAfterMs).toBe(7000);
  });

  it('takes a member out with ban then unban (only if banned), so they can come back', async () => {
    fake.chats.get(VIP)!.members.set('555', 'member');
    await client().removeMember(VIP, '555');
    expect(fake.chats.get(VIP)!.members.has('555')).toBe(false);
    const [ban, unban] = fake.calls.filter((call) => call.method === 'banChatMember' || call.method === 'unbanChatMember').slice(-2);
    expect(ban).toMatchObject({ method: 'banChatMember', body: { chat_id: VIP, user_id: 555 } });
    expect(unban).toMatchObject({ method: 'unbanChatMember', body: { chat_id: VIP, user_id: 555, only_if_banned: true } });
  });

  it("checks the token, each chat's existence and the bot's rights (the doctor)", async () => {
    const chats = ['-1002000000002', '-1002000000003', '-100404', VIP].map((chatId) => ({ chatId, title: chatId, everyPlan: true, planSlugs: [] }));
    const checks = await checkTelegram(client(), chats);
    expect(checks.map((check) => [check.status, check.message.split(':')[0]])).toEqual([
      ['ok', 'TELEGRAM_BOT_TOKEN'],
      ['problem', 'chat -1002000000002 (-1002000000002)'],
      ['problem', 'chat -1002000000003 (-1002000000003)'],
      ['problem', 'chat -100404 (-100404)'],
      ['ok', `chat ${VIP} (${VIP})`],
    ]);
    expect(checks[1]!.message).toContain('not an administrator');
    expect(checks[3]!.message).toContain('chat not found');
    expect(await checkTelegram(createTelegramClient({ botToken: '1:wrong', apiRoot: fake.apiRoot }), null)).toEqual([expect.objectContaining({ status: 'problem', message: expect.stringContaining('TELEGRAM_BOT_TOKEN') })]);
  });
});

describe('the member walk with the real bot', () => {
  it('links through t.me and the webhook, invites with a member_limit 1 link, and waits out retry_after', async () => {
    const saved = await s.t.request('/api/admin/telegram/chats', { method: 'PUT', cookie: s.operator, body: { chats: [{ chatId: VIP, title: 'VIP', everyPlan: true, planSlugs: [] }] } });
    expect(saved.status).toBe(200);
    const email = `real-${randomUUID()}@example.com`;
    const signUp = await s.t.request('/api/auth/sign-up/email', { body: { email, password: 'Sup3rSecret!', name: 'member' }, headers: { 'x-forwarded-for': '198.51.100.200' } });
    const cookie = cookieFrom(signUp);
    const [row] = await s.t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    await s.t.services.entitlements.write((writer) => writer.giveComp(row!.id, new Date(s.time.now().getTime() + 30 * 86_400_000)));

    const { url } = telegramLinkResponseSchema.parse(await (await s.t.request('/api/telegram/link', { method: 'POST', cookie })).json());
    expect(url).toMatch(new RegExp(`^https://t\\.me/${fake.bot.username}\\?start=[\\w-]+$`));
    const token = new URL(url).searchParams.get('start')!;
    const update = { update_id: 1, message: { message_id: 1, date: 0, text: `/start ${token}`, from: { id: 777, is_bot: false, first_name: 'Mia', username: 'mia_real' }, chat: { id: 777, type: 'private' } } };
    expect((await s.t.request('/api/telegram/webhook', { body: update, headers: { 'x-telegram-bot-api-secret-token': 'wrong' } })).status).toBe(401);
    expect((await s.t.request('/api/telegram/webhook', { body: update, headers: { 'x-telegram-bot-api-secret-token': webhookSecretOf(fake.token) } })).status).toBe(200);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'sendMessage', body: { chat_id: '777', text: expect.stringContaining('Connected as @mia_real') } });

    // Telegram throttles the first invite: the row waits retry_after, then goes through
    fake.throttle('createChatInviteLink', 1, 9);
    await telegram.runOnce();
    const [failed] = await s.t.deps.database.db.select().from(telegramMembers).where(eq(telegramMembers.telegramUserId, '777'));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringContaining('rate_limited') });
    expect(failed!.nextAttemptAt.getTime() - s.time.now().getTime()).toBe(9000);
    s.time.advance(9000);
    await telegram.runOnce();
    const invite = fake.calls.filter((call) => call.method === 'createChatInviteLink').at(-1)!;
    expect(invite.body).toMatchObject({ chat_id: VIP, member_limit: 1 });
    const status = telegramStatusResponseSchema.parse(await (await s.t.request('/api/telegram', { cookie })).json());
    expect(status).toMatchObject({ connected: true, username: 'mia_real', status: 'synced', chats: [{ chatId: VIP, inviteLink: expect.stringMatching(/^https:\/\/t\.me\/\+fake/) }] });

    // a join request from the linked account is approved; from anyone else declined
    const request = (id: number) => ({ update_id: 2 + id, chat_join_request: { chat: { id: Number(VIP), type: 'supergroup', title: 'VIP' }, from: { id, is_bot: false, first_name: 'x' }, user_chat_id: id, date: 0 } });
    await s.t.request('/api/telegram/webhook', { body: request(777), headers: { 'x-telegram-bot-api-secret-token': webhookSecretOf(fake.token) } });
    await s.t.request('/api/telegram/webhook', { body: request(888), headers: { 'x-telegram-bot-api-secret-token': webhookSecretOf(fake.token) } });
    expect(fake.calls.filter((call) => /ChatJoinRequest$/.test(call.method)).slice(-2)).toEqual([
      { method: 'approveChatJoinRequest', body: { chat_id: VIP, user_id: 777 } },
      { method: 'declineChatJoinRequest', body: { chat_id: VIP, user_id: 888 } },
    ]);
  });
});
