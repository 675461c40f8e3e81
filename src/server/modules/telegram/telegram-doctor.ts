// Telegram, as `npm run doctor` and the console check it: the bot token works (getMe), and for each
// managed chat that the chat exists and the bot is an administrator with the rights to invite
// users and to ban them (the two things the reconciler does).
import type { ManagedChat } from '@shared/telegram/chats';
import type { IntegrationCheck } from '../../integration';
import { toTelegramError, type TelegramBotPort } from './telegram.port';

const ok = (message: string): IntegrationCheck => ({ status: 'ok', message });
const problem = (message: string, fix: string): IntegrationCheck => ({ status: 'problem', message, fix });
const unanswered = (message: string, fix: string): IntegrationCheck => ({ status: 'problem', message, fix, unanswered: true });

/** Checks the bot (null: the sandbox) and, when given, the managed chats. Never throws: a failure is a line. */
export async function checkTelegram(port: TelegramBotPort | null, chats: readonly ManagedChat[] | null): Promise<IntegrationCheck[]> {
  if (port === null || port.kind === 'sandbox') return [{ status: 'sandbox', message: 'no TELEGRAM_BOT_TOKEN: members link to the sandbox Telegram (/sandbox/telegram)' }];
  let bot;
  try {
    bot = await port.getMe();
  } catch (error) {
    const failure = toTelegramError(error);
    if (failure.kind === 'unauthorized') return [problem(`TELEGRAM_BOT_TOKEN: Telegram refused the token (${failure.message})`, 'copy the token again from @BotFather (/token), or /revoke and use the new one')];
    return [unanswered(`Telegram did not answer getMe (${failure.kind}: ${failure.message})`, 'try again later; the reconciler waits for Telegram meanwhile')];
  }
  const checks: IntegrationCheck[] = [ok(`TELEGRAM_BOT_TOKEN: the bot @${bot.username} answers`)];
  if (chats === null) {
    checks.push(ok("managed chats: checked on the console's Telegram page (they are data in the database)"));
    return checks;
  }
  if (chats.length === 0) checks.push(problem('no managed chat: members with access are invited nowhere', "add the vendor's chats on the console's Telegram page"));
  for (const chat of chats) {
    try {
      await port.getChat(chat.chatId);
      const standing = await port.getChatMember(chat.chatId, bot.id);
      if (standing.status !== 'administrator' && standing.status !== 'creator') {
        checks.push(problem(`chat ${chat.chatId} (${chat.title}): the bot is not an administrator`, `add @${bot.username} to the chat as an administrator with "Invite users via link" and "Ban users"`));
      } else if (standing.status === 'administrator' && (standing.canInviteUsers === false || standing.canRestrictMembers === false)) {
        const missing = [standing.canInviteUsers === false ? 'Invite users via link' : null, standing.canRestrictMembers === false ? 'Ban users' : null].filter(Boolean).join(' and ');
        checks.push(problem(`chat ${chat.chatId} (${chat.title}): the bot lacks ${missing}`, `give @${bot.username} the administrator rights ${missing}`));
      } else checks.push(ok(`chat ${chat.chatId} (${chat.title}): the bot is an administrator that can invite and ban`));
    } catch (error) {
      const failure = toTelegramError(error);
      if (failure.kind === 'chat_not_found') checks.push(problem(`chat ${chat.chatId} (${chat.title}): chat not found`, 'check the chat id (forward a message from the chat to @userinfobot, or read it from the Bot API) and that the bot was added to it'));
      else if (failure.kind === 'forbidden') checks.push(problem(`chat ${chat.chatId} (${chat.title}): the bot may not read it (${failure.message})`, `add @${bot.username} to the chat as an administrator`));
      else checks.push(unanswered(`chat ${chat.chatId} (${chat.title}): Telegram did not answer (${failure.kind}: ${failure.message})`, 'try again later'));
    }
  }
  return checks;
}
