// The real Telegram adapter: grammY's Api (the Bot API's own client library) for the vendor's bot.
// Telegram's errors become TelegramErrors: 429 with its retry_after, 403 and "not enough rights"
// as forbidden, "chat not found", 401 for a bad token; a request that did not reach Telegram is network.
import { Api, GrammyError, HttpError } from 'grammy';
import { TelegramError, type ChatMemberStatus, type TelegramBotPort } from './telegram.port';

export type TelegramClientOptions = { botToken: string; apiRoot: string; timeoutSeconds?: number };

function toError(error: unknown): TelegramError {
  if (error instanceof TelegramError) return error;
  if (error instanceof GrammyError) {
    const text = `${error.method}: ${error.description}`;
    if (error.error_code === 429) return new TelegramError('rate_limited', text, { status: 429, retryAfterMs: (error.parameters.retry_after ?? 1) * 1000 });
    if (error.error_code === 401 || error.error_code === 404) return new TelegramError('unauthorized', text, { status: error.error_code });
    if (error.error_code === 403) return new TelegramError('forbidden', text, { status: 403 });
    if (/chat not found/i.test(error.description)) return new TelegramError('chat_not_found', text, { status: error.error_code });
    if (/not enough rights|administrator|CHAT_ADMIN_REQUIRED|can't remove chat owner/i.test(error.description)) return new TelegramError('forbidden', text, { status: error.error_code });
    if (error.error_code >= 500) return new TelegramError('network', text, { status: error.error_code });
    return new TelegramError('bad_request', text, { status: error.error_code });
  }
  if (error instanceof HttpError) return new TelegramError('network', error.message);
  return new TelegramError('unexpected', error instanceof Error ? error.message : String(error));
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toError(error);
  }
}

export function createTelegramClient(options: TelegramClientOptions): TelegramBotPort {
  const api = new Api(options.botToken, { apiRoot: options.apiRoot, timeoutSeconds: options.timeoutSeconds ?? 20 });
  return {
    kind: 'telegram',
    getMe: () => call(async () => {
      const me = await api.getMe();
      return { id: String(me.id), username: me.username };
    }),
    getChat: (chatId) => call(async () => {
      const chat = await api.getChat(chatId);
      return { id: String(chat.id), title: 'title' in chat && chat.title ? chat.title : String(chat.id), type: chat.type };
    }),
    getChatMember: (chatId, userId) => call(async () => {
      const member = await api.getChatMember(chatId, Number(userId));
      const rights = member as { can_invite_users?: boolean; can_restrict_members?: boolean };
      return {
        status: member.status as ChatMemberStatus,
        ...(rights.can_invite_users === undefined ? {} : { canInviteUsers: rights.can_invite_users }),
        ...(rights.can_restrict_members === undefined ? {} : { canRestrictMembers: rights.can_restrict_members }),
      };
    }),
    createInviteLink: (chatId, { memberLimit, expiresAt, name }) =>
      call(async () => (await api.createChatInviteLink(chatId, { member_limit: memberLimit, expire_date: Math.floor(expiresAt.getTime() / 1000), name: name.slice(0, 32) })).invite_link),
    revokeInviteLink: (chatId, link) => call(async () => {
      await api.revokeChatInviteLink(chatId, link);
    }),
    removeMember: (chatId, userId) => call(async () => {
      // ban then unban: out of the chat now, free to come back with a new invite after paying again
      await api.banChatMember(chatId, Number(userId));
      await api.unbanChatMember(chatId, Number(userId), { only_if_banned: true });
    }),
    approveJoinRequest: (chatId, userId) => call(async () => {
      await api.approveChatJoinRequest(chatId, Number(userId));
    }),
    declineJoinRequest: (chatId, userId) => call(async () => {
      await api.declineChatJoinRequest(chatId, Number(userId));
    }),
    sendMessage: (chatId, text) => call(async () => {
      await api.sendMessage(chatId, text);
    }),
    setWebhook: (url, secretToken) => call(async () => {
      await api.setWebhook(url, { secret_token: secretToken, allowed_updates: ['message', 'chat_join_request'] });
    }),
    deepLink: (botUsername, token) => `https://t.me/${botUsername}?start=${token}`,
  };
}
