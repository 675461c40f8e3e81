// The sandbox Telegram: a Bot-API-shaped adapter whose chats, members, invite links and join
// requests are rows (migration 0031), and the Telegram user's side that the sandbox page plays
// (open the bot's deep link, open an invite link, ask to join). The bot is an administrator of
// the sandbox's chats with every right; a chat id it does not know answers "chat not found".
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxTelegramChatMembers, sandboxTelegramChats, sandboxTelegramInvites, sandboxTelegramJoinRequests, sandboxTelegramMessages, sandboxTelegramUsers } from '../../db/schema';
import { TelegramError, type TelegramBotPort, type TelegramUpdate, type TelegramUser } from './telegram.port';

export const SANDBOX_BOT: TelegramUser = { id: '7000000001', username: 'candlewise_sandbox_bot' };
/** The sandbox's first chat: what every plan opens until the operator chooses chats. */
export const SANDBOX_DEFAULT_CHAT = { chatId: '-1001000000001', title: 'VIP Signals' };
const SANDBOX_PAGE = '/sandbox/telegram';
/** The sandbox's chats, there from the adapter's first use (a demo shop starts with them). */
const SANDBOX_CHATS = [
  { id: SANDBOX_DEFAULT_CHAT.chatId, title: SANDBOX_DEFAULT_CHAT.title, type: 'supergroup' },
  { id: '-1001000000002', title: 'Announcements', type: 'channel' },
];

/** A stable id per username (the same username is the same sandbox account). */
function sandboxUserId(username: string): string {
  const digest = createHash('sha256').update(username.toLowerCase()).digest();
  return String(1_000_000_000 + (digest.readUInt32BE(0) % 4_000_000_000));
}

export type SandboxTelegram = TelegramBotPort & { kind: 'sandbox'; user: ReturnType<typeof createSandboxTelegramUserSide> };

export function createSandboxTelegram(deps: { db: Db; clock: () => Date }): SandboxTelegram {
  const { db, clock } = deps;
  let chatsWritten: Promise<unknown> | null = null;
  const ensureChats = () => (chatsWritten ??= db.insert(sandboxTelegramChats).values(SANDBOX_CHATS).onConflictDoNothing());

  async function chatOf(chatId: string) {
    await ensureChats();
    const [chat] = await db.select().from(sandboxTelegramChats).where(eq(sandboxTelegramChats.id, chatId)).limit(1);
    if (!chat) throw new TelegramError('chat_not_found', 'Bad Request: chat not found', { status: 400 });
    return chat;
  }

  const port: TelegramBotPort = {
    kind: 'sandbox',
    getMe: async () => SANDBOX_BOT,
    getChat: async (chatId) => {
      const chat = await chatOf(chatId);
      return { id: chat.id, title: chat.title, type: chat.type };
    },
    getChatMember: async (chatId, userId) => {
      await chatOf(chatId);
      if (userId === SANDBOX_BOT.id) return { status: 'administrator', canInviteUsers: true, canRestrictMembers: true };
      const [row] = await db.select().from(sandboxTelegramChatMembers).where(and(eq(sandboxTelegramChatMembers.chatId, chatId), eq(sandboxTelegramChatMembers.userId, userId))).limit(1);
      return { status: row?.status ?? 'left' };
    },
    createInviteLink: async (chatId, { memberLimit, expiresAt }) => {
      await chatOf(chatId);
      const link = `${SANDBOX_PAGE}?invite=${randomBytes(12).toString('base64url')}`;
      await db.insert(sandboxTelegramInvites).values({ inviteLink: link, chatId, memberLimit, expireAt: expiresAt });
      return link;
    },
    revokeInviteLink: async (chatId, link) => {
      await db.update(sandboxTelegramInvites).set({ revoked: true }).where(and(eq(sandboxTelegramInvites.chatId, chatId), eq(sandboxTelegramInvites.inviteLink, link)));
    },
    removeMember: async (chatId, userId) => {
      await chatOf(chatId);
      // ban (out of the chat), then unban only if banned: the user may come back with a new invite
      await db
        .insert(sandboxTelegramChatMembers)
        .values({ chatId, userId, status: 'kicked', updatedAt: clock() })
        .onConflictDoUpdate({ target: [sandboxTelegramChatMembers.chatId, sandboxTelegramChatMembers.userId], set: { status: 'kicked', updatedAt: clock() } });
      await db.delete(sandboxTelegramChatMembers).where(and(eq(sandboxTelegramChatMembers.chatId, chatId), eq(sandboxTelegramChatMembers.userId, userId), eq(sandboxTelegramChatMembers.status, 'kicked')));
    },
    approveJoinRequest: async (chatId, userId) => {
      await answerJoinRequest(chatId, userId, 'approved');
      await addMember(chatId, userId);
    },
    declineJoinRequest: async (chatId, userId) => {
      await answerJoinRequest(chatId, userId, 'declined');
    },
    sendMessage: async (chatId, text) => {
      await db.insert(sandboxTelegramMessages).values({ chatId, text, createdAt: clock() });
    },
    deepLink: (_botUsername, token) => `${SANDBOX_PAGE}?start=${encodeURIComponent(token)}`,
  };

  async function answerJoinRequest(chatId: string, userId: string, status: 'approved' | 'declined') {
    const rows = await db
      .update(sandboxTelegramJoinRequests)
      .set({ status, updatedAt: clock() })
      .where(and(eq(sandboxTelegramJoinRequests.chatId, chatId), eq(sandboxTelegramJoinRequests.userId, userId), eq(sandboxTelegramJoinRequests.status, 'pending')))
      .returning();
    if (rows.length === 0) throw new TelegramError('bad_request', 'Bad Request: HIDE_REQUESTER_MISSING', { status: 400 });
  }

  async function addMember(chatId: string, userId: string) {
    await db
      .insert(sandboxTelegramChatMembers)
      .values({ chatId, userId, status: 'member', updatedAt: clock() })
      .onConflictDoUpdate({ target: [sandboxTelegramChatMembers.chatId, sandboxTelegramChatMembers.userId], set: { status: 'member', updatedAt: clock() } });
  }

  return { ...port, kind: 'sandbox', user: createSandboxTelegramUserSide({ db, clock, chatOf, addMember, ensureChats }) };
}

export function isSandboxTelegram(port: TelegramBotPort): port is SandboxTelegram {
  return port.kind === 'sandbox' && 'user' in port;
}

/** The Telegram user's side, played by the sandbox page: their account, invite links, join requests. */
function createSandboxTelegramUserSide(deps: {
  db: Db;
  clock: () => Date;
  chatOf: (chatId: string) => Promise<{ id: string; title: string }>;
  addMember: (chatId: string, userId: string) => Promise<void>;
  ensureChats: () => Promise<unknown>;
}) {
  const { db, clock, chatOf, addMember, ensureChats } = deps;
  return {
    /** The sandbox account of this username, made on first use. */
    async account(username: string): Promise<TelegramUser> {
      const id = sandboxUserId(username);
      await db.insert(sandboxTelegramUsers).values({ id, username }).onConflictDoUpdate({ target: sandboxTelegramUsers.id, set: { username } });
      return { id, username };
    },
    /** Opens an invite link: in the chat, or why not. */
    async openInvite(account: TelegramUser, inviteLink: string): Promise<{ ok: boolean; message: string }> {
      const [invite] = await db.select().from(sandboxTelegramInvites).where(eq(sandboxTelegramInvites.inviteLink, inviteLink)).limit(1);
      if (!invite || invite.revoked || (invite.expireAt && invite.expireAt <= clock())) return { ok: false, message: 'This invite link has expired or was revoked.' };
      const chat = await chatOf(invite.chatId);
      const [already] = await db.select().from(sandboxTelegramChatMembers).where(and(eq(sandboxTelegramChatMembers.chatId, chat.id), eq(sandboxTelegramChatMembers.userId, account.id))).limit(1);
      if (already?.status === 'member') return { ok: true, message: `You are already in ${chat.title}.` };
      if (already?.status === 'kicked') return { ok: false, message: `You were banned from ${chat.title}.` };
      // member_limit: one use per link, counted atomically
      const used = await db
        .update(sandboxTelegramInvites)
        .set({ uses: sql`${sandboxTelegramInvites.uses} + 1` })
        .where(and(eq(sandboxTelegramInvites.inviteLink, inviteLink), sql`(${sandboxTelegramInvites.memberLimit} IS NULL OR ${sandboxTelegramInvites.uses} < ${sandboxTelegramInvites.memberLimit})`))
        .returning();
      if (used.length === 0) return { ok: false, message: 'This invite link has already been used.' };
      await addMember(chat.id, account.id);
      return { ok: true, message: `You joined ${chat.title}.` };
    },
    /** Asks to join a chat; the shop's bot answers the request (delivered as an update). */
    async requestJoin(account: TelegramUser, chatId: string, deliver: (update: TelegramUpdate) => Promise<unknown>): Promise<{ ok: boolean; message: string }> {
      const chat = await chatOf(chatId);
      await db
        .insert(sandboxTelegramJoinRequests)
        .values({ chatId, userId: account.id, status: 'pending', updatedAt: clock() })
        .onConflictDoUpdate({ target: [sandboxTelegramJoinRequests.chatId, sandboxTelegramJoinRequests.userId], set: { status: 'pending', updatedAt: clock() } });
      await deliver({ kind: 'join_request', from: account, chatId });
      const [request] = await db.select().from(sandboxTelegramJoinRequests).where(and(eq(sandboxTelegramJoinRequests.chatId, chatId), eq(sandboxTelegramJoinRequests.userId, account.id))).limit(1);
      if (request?.status === 'approved') return { ok: true, message: `Your request to join ${chat.title} was approved.` };
      if (request?.status === 'declined') return { ok: false, message: `Your request to join ${chat.title} was declined.` };
      return { ok: false, message: `Your request to join ${chat.title} is waiting for an administrator.` };
    },
    /** Every sandbox chat with its members, as GET /api/sandbox/telegram/chats answers. */
    async chats() {
      await ensureChats();
      const chats = await db.select().from(sandboxTelegramChats).orderBy(asc(sandboxTelegramChats.id));
      const members = await db
        .select({ chatId: sandboxTelegramChatMembers.chatId, id: sandboxTelegramUsers.id, username: sandboxTelegramUsers.username })
        .from(sandboxTelegramChatMembers)
        .innerJoin(sandboxTelegramUsers, eq(sandboxTelegramUsers.id, sandboxTelegramChatMembers.userId))
        .where(eq(sandboxTelegramChatMembers.status, 'member'))
        .orderBy(asc(sandboxTelegramUsers.username));
      return {
        chats: chats.map((chat) => ({ id: chat.id, title: chat.title, members: members.filter((member) => member.chatId === chat.id).map(({ id, username }) => ({ id, username })) })),
      };
    },
  };
}
