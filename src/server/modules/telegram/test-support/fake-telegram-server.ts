// Test helper: a local HTTP server that answers like Telegram's Bot API (POST /bot<token>/<method>,
// JSON in, { ok, result } or { ok: false, error_code, description, parameters } out) for what the
// grammY adapter calls. It keeps chats (with the bot's rights in each) and their members, records
// every call, and can throttle the next calls of a method (429 with retry_after).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeTelegramChat = { id: string; title: string; botStatus: 'administrator' | 'member' | 'left'; canInvite: boolean; canBan: boolean; members: Map<string, 'member' | 'kicked'> };

export type FakeTelegram = {
  /** grammY's apiRoot: http://127.0.0.1:port */
  apiRoot: string;
  token: string;
  bot: { id: number; username: string };
  chats: Map<string, FakeTelegramChat>;
  calls: { method: string; body: Record<string, unknown> }[];
  /** The next `times` calls of `method` answer 429 with retry_after `seconds`. */
  throttle: (method: string, times: number, seconds: number) => void;
  close: () => Promise<void>;
};

const fail = (code: number, description: string, parameters?: Record<string, unknown>) => ({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const token = '123456789:AAFakeTokenForTheTestsOnly_abcdefghij';
  const bot = { id: 123456789, username: 'candlewise_test_bot' };
  const chats = new Map<string, FakeTelegramChat>();
  const calls: FakeTelegram['calls'] = [];
  const throttles = new Map<string, { times: number; seconds: number }>();
  let links = 0;

  function answer(method: string, body: Record<string, unknown>): unknown {
    const throttle = throttles.get(method);
    if (throttle && throttle.times > 0) {
      throttle.times -= 1;
      return fail(429, `Too Many Requests: retry after ${throttle.seconds}`, { retry_after: throttle.seconds });
    }
    if (method === 'getMe') return { ok: true, result: { id: bot.id, is_bot: true, first_name: 'Test bot', username: bot.username } };
    if (method === 'setWebhook') return { ok: true, result: true };
    if (method === 'sendMessage') return { ok: true, result: { message_id: 1, date: 0, chat: { id: Number(body.chat_id), type: 'private' } } };
    const chat = chats.get(String(body.chat_id));
    if (!chat) return fail(400, 'Bad Request: chat not found');
    if (chat.botStatus === 'left') return fail(403, 'Forbidden: bot is not a member of the supergroup chat');
    const userId = String(body.user_id);
    switch (method) {
      case 'getChat':
        return { ok: true, result: { id: Number(chat.id), type: 'supergroup', title: chat.title } };
      case 'getChatMember': {
        if (userId === String(bot.id)) {
          return { ok: true, result: chat.botStatus === 'administrator' ? { status: 'administrator', user: { id: bot.id, is_bot: true, first_name: 'bot' }, can_invite_users: chat.canInvite, can_restrict_members: chat.canBan } : { status: 'member', user: { id: bot.id, is_bot: true, first_name: 'bot' } } };
        }
        return { ok: true, result: { status: chat.members.get(userId) ?? 'left', user: { id: Number(userId), is_bot: false, first_name: 'user' } } };
      }
      case 'createChatInviteLink':
        if (chat.botStatus !== 'administrator' || !chat.canInvite) return fail(400, 'Bad Request: not enough rights to manage chat invite links');
        links += 1;
        return { ok: true, result: { invite_link: `https://t.me/+fake${links}`, creator: { id: bot.id, is_bot: true, first_name: 'bot' }, creates_join_request: false, is_primary: false, is_revoked: false, member_limit: body.member_limit, expire_date: body.expire_date } };
      case 'revokeChatInviteLink':
        return { ok: true, result: { invite_link: body.invite_link, creator: { id: bot.id, is_bot: true, first_name: 'bot' }, creates_join_request: false, is_primary: false, is_revoked: true } };
      case 'banChatMember':
        if (chat.botStatus !== 'administrator' || !chat.canBan) return fail(400, 'Bad Request: not enough rights to restrict/unrestrict chat member');
        chat.members.set(userId, 'kicked');
        return { ok: true, result: true };
      case 'unbanChatMember':
        if (chat.members.get(userId) === 'kicked') chat.members.delete(userId);
        else if (body.only_if_banned !== true) chat.members.delete(userId);
        return { ok: true, result: true };
      case 'approveChatJoinRequest':
        chat.members.set(userId, 'member');
        return { ok: true, result: true };
      case 'declineChatJoinRequest':
        return { ok: true, result: true };
      default:
        return fail(404, 'Not Found: method not found');
    }
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      let result: unknown;
      if (!match) result = fail(404, 'Not Found');
      else if (match[1] !== token) result = fail(401, 'Unauthorized');
      else {
        calls.push({ method: match[2]!, body });
        result = answer(match[2]!, body);
      }
      const status = (result as { ok: boolean; error_code?: number }).ok ? 200 : (result as { error_code: number }).error_code;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    bot,
    chats,
    calls,
    throttle: (method, times, seconds) => throttles.set(method, { times, seconds }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
