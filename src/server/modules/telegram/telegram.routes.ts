// Telegram's HTTP side: the member's link (GET /api/telegram, the deep link, unlinking), the bot's
// webhook (Telegram posts updates with the secret token header), the sandbox Telegram's own API
// (the Telegram user's side, and its chats with their members), and the console's page.
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { z } from 'zod';
import {
  sandboxTelegramAnswerSchema,
  sandboxTelegramChatsSchema,
  sandboxTelegramJoinSchema,
  sandboxTelegramStartSchema,
  telegramChatsRequestSchema,
  telegramConsoleSchema,
  telegramLinkResponseSchema,
  telegramStatusResponseSchema,
} from '@shared/telegram/contract';
import { ApiError, readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import { requireOperator, type OperatorDirectory } from '../auth/operator';
import type { IntegrationCheck } from '../../integration';
import type { TelegramReconciler } from './telegram-reconciler';
import type { TelegramService } from './telegram.service';
import type { TelegramUpdate } from './telegram.port';
import type { SandboxTelegram } from './sandbox-telegram';

const userSchema = z.object({ id: z.number(), username: z.string().optional(), first_name: z.string().optional() });
/** The parts of Telegram's Update the bot reads; anything else is acknowledged and ignored. */
const updateSchema = z.object({
  update_id: z.number(),
  message: z.object({ text: z.string().optional(), from: userSchema.optional(), chat: z.object({ id: z.number(), type: z.string() }) }).optional(),
  chat_join_request: z.object({ chat: z.object({ id: z.number() }), from: userSchema }).optional(),
});

const telegramUser = (user: z.infer<typeof userSchema>) => ({ id: String(user.id), username: user.username ?? user.first_name ?? String(user.id) });

function toUpdate(body: z.infer<typeof updateSchema>): TelegramUpdate | null {
  if (body.chat_join_request) return { kind: 'join_request', from: telegramUser(body.chat_join_request.from), chatId: String(body.chat_join_request.chat.id) };
  const message = body.message;
  if (message?.from && message.chat.type === 'private' && message.text?.startsWith('/start')) return { kind: 'start', from: telegramUser(message.from), text: message.text };
  return null;
}

const sameSecret = (given: string | undefined, expected: string) => {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
};

export function telegramMemberRoutes({ service, trustedOrigins, webhookSecret }: { service: TelegramService; trustedOrigins: string[]; webhookSecret: string | null }) {
  const routes = new Hono<{ Variables: AuthVariables }>()
    .use('/telegram/link', csrf({ origin: trustedOrigins }))
    .use('/telegram/disconnect', csrf({ origin: trustedOrigins }))
    .get('/telegram', describeOperation({ summary: "The member's linked Telegram account and the managed chats it is invited to", auth: 'session', response: telegramStatusResponseSchema }), async (c) => {
      const user = requireUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json(await service.status(user.id));
    })
    .post('/telegram/link', describeOperation({ summary: "A one-time deep link to the shop's bot (t.me/<bot>?start=<token>, 15 minutes); paid access only", auth: 'session', response: telegramLinkResponseSchema }), async (c) => {
      const user = requireUser(c);
      return c.json(await service.createLink(user.id));
    })
    .post('/telegram/disconnect', describeOperation({ summary: "Unlink the member's Telegram account; the bot takes it out of the managed chats", auth: 'session', response: telegramStatusResponseSchema }), async (c) => {
      const user = requireUser(c);
      return c.json(await service.disconnect(user.id));
    });
  if (webhookSecret === null) return routes;
  return routes.post(
    '/telegram/webhook',
    describeOperation({ summary: "Telegram's updates for the shop's bot (a deep link opened, a join request); X-Telegram-Bot-Api-Secret-Token must match", auth: 'none', ok: '{ ok: true }' }),
    async (c) => {
      if (!sameSecret(c.req.header('x-telegram-bot-api-secret-token'), webhookSecret)) throw new ApiError(401, 'unauthorized', 'The secret token does not match this bot.');
      const update = toUpdate(await readJson(c, updateSchema));
      if (update) await service.handleUpdate(update);
      return c.json({ ok: true });
    },
  );
}

export function sandboxTelegramRoutes({ sandbox, service, directory, openToAll }: { sandbox: SandboxTelegram; service: TelegramService; directory: OperatorDirectory; openToAll: () => boolean }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/sandbox/telegram/chats', describeOperation({ summary: 'The sandbox Telegram: each chat with its members (anyone in an all-sandbox demo, else operators)', auth: 'operator', response: sandboxTelegramChatsSchema }), requireOperator(directory, openToAll), async (c) => c.json(await sandbox.user.chats()))
    .post('/sandbox/telegram/start', describeOperation({ summary: "The sandbox Telegram user opens the bot's deep link and presses Start", auth: 'none', body: sandboxTelegramStartSchema, response: sandboxTelegramAnswerSchema }), async (c) => {
      const body = await readJson(c, sandboxTelegramStartSchema);
      const from = await sandbox.user.account(body.username);
      return c.json(await service.handleUpdate({ kind: 'start', from, text: `/start ${body.token}` }));
    })
    .post('/sandbox/telegram/join', describeOperation({ summary: 'The sandbox Telegram user opens an invite link, or asks to join a chat (the bot answers the request)', auth: 'none', body: sandboxTelegramJoinSchema, response: sandboxTelegramAnswerSchema }), async (c) => {
      const body = await readJson(c, sandboxTelegramJoinSchema);
      const account = await sandbox.user.account(body.username);
      if (body.inviteLink) return c.json(await sandbox.user.openInvite(account, body.inviteLink));
      if (!body.chatId) throw new ApiError(400, 'invalid_input', 'Name an inviteLink to open or a chatId to ask to join.');
      return c.json(await sandbox.user.requestJoin(account, body.chatId, (update) => service.handleUpdate(update)));
    });
}

/** Mounted under /api/admin, behind the console's operator check. */
export function telegramAdminRoutes({ service, reconciler, check }: { service: TelegramService; reconciler: Pick<TelegramReconciler, 'audit'>; check: () => Promise<IntegrationCheck[]> }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/telegram', describeOperation({ summary: 'Telegram: counts, managed chats by plan slug, linked accounts (failing first), the audit’s repairs', auth: 'operator', response: telegramConsoleSchema }), async (c) => c.json(await service.console()))
    .put('/telegram/chats', describeOperation({ summary: 'Replace the managed Telegram chats and the plans (by slug) that open them', auth: 'operator', body: telegramChatsRequestSchema, response: telegramConsoleSchema }), async (c) => {
      const { chats } = await readJson(c, telegramChatsRequestSchema);
      if (new Set(chats.map((chat) => chat.chatId)).size !== chats.length) throw new ApiError(400, 'invalid_input', 'Each chat may be listed once.');
      await service.saveChats(chats);
      return c.json(await service.console());
    })
    .post('/telegram/accounts/:id/retry', describeOperation({ summary: 'Retry now: the account’s chats are brought in line at once instead of after its back-off', auth: 'operator', ok: '{ ok: true }' }), async (c) => {
      const id = z.uuid({ error: 'No linked Telegram account has this id.' }).safeParse(c.req.param('id'));
      if (!id.success) throw new ApiError(404, 'not_found', 'No linked Telegram account has this id.');
      await service.retry(id.data);
      return c.json({ ok: true });
    })
    .get('/telegram/checks', describeOperation({ summary: "The doctor's Telegram check with the managed chats: the token, each chat's existence and the bot's rights in it", auth: 'operator', ok: '{ checks: [{ status, message, fix? }] }' }), async (c) => c.json({ checks: await check() }))
    .post('/telegram/audit', describeOperation({ summary: 'Run the Telegram audit now: every linked account’s membership read, drift repaired', auth: 'operator', ok: '{ checked, invited, removed }' }), async (c) => c.json(await reconciler.audit()));
}
