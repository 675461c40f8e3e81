// Telegram as one integration (decision 046): the bot (grammY with TELEGRAM_BOT_TOKEN, else the
// sandbox Telegram), the managed chats by plan slug (console data; the sandbox's VIP chat while
// there is none), the reconciler and its audit, the member's deep link, the webhook, the sandbox's
// pages' API, the console page and card, and the doctor's check.
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { followsPlan } from '@shared/access-changes';
import { PLAN_TYPES } from '@shared/plans';
import { announcementChats, announcementText, type ManagedChat } from '@shared/telegram/chats';
import type { IntegrationDescriptor } from '../../integration';
import type { AuthVariables } from '../../http/session-user';
import { linkedAccount, type MemberLinkReads } from '../../linked-accounts';
import { checkTelegram } from './telegram-doctor';
import { createTelegramClient } from './telegram-client';
import { createTelegramReconciler } from './telegram-reconciler';
import { accountCounts, accountsOfMembers, linkTimes, managedChats, queueBacklog } from './telegram.repository';
import { sandboxTelegramRoutes, telegramAdminRoutes, telegramMemberRoutes } from './telegram.routes';
import { createTelegramService } from './telegram.service';
import { createSandboxTelegram, isSandboxTelegram, SANDBOX_DEFAULT_CHAT } from './sandbox-telegram';

/** The secret Telegram sends with every webhook update (X-Telegram-Bot-Api-Secret-Token), derived from the token. */
export const webhookSecretOf = (botToken: string) => createHash('sha256').update(`telegram-webhook:${botToken}`).digest('hex').slice(0, 48);

export const WEBHOOK_PATH = '/api/telegram/webhook';

const TITLE = 'Telegram';

export const telegramIntegration: IntegrationDescriptor = {
  name: 'telegram',
  title: TITLE,
  build({ config, db, logger: parent, clock }) {
    const settings = config.integrations.telegram;
    const logger = parent.child({ module: 'telegram' });
    // Without a bot the sandbox Telegram stands in, but only in a demo: a live shop offers no Telegram.
    const available = settings.botToken !== null || (config.payments.kind === 'sandbox' && !config.isProduction);
    const port = settings.botToken ? createTelegramClient({ botToken: settings.botToken, apiRoot: settings.apiRoot }) : createSandboxTelegram({ db, clock });
    const chats = async (): Promise<ManagedChat[]> => {
      if (!available) return [];
      const rows = await managedChats(db);
      return rows.length > 0 || port.kind !== 'sandbox' ? rows : [{ ...SANDBOX_DEFAULT_CHAT, everyPlan: true, planSlugs: [] }];
    };
    const reconciler = createTelegramReconciler({ db, port, chats, logger, clock, inviteTtlMs: settings.inviteTtlMs, auditIntervalMs: settings.auditIntervalMs });
    const service = createTelegramService({ db, port, reconciler, chats, planSlugs: () => PLAN_TYPES, clock, logger, available });
    const webhookSecret = settings.botToken ? webhookSecretOf(settings.botToken) : null;
    // Telegram posts the bot's updates to this shop; set at every start, so a new PUBLIC_URL follows.
    const webhook = {
      start: () => {
        if (webhookSecret && port.setWebhook) {
          port.setWebhook(`${config.publicUrl}${WEBHOOK_PATH}`, webhookSecret).catch((error: unknown) => logger.error({ err: error }, 'telegram: the webhook could not be set; npm run doctor says why'));
        }
      },
      stop: async () => {},
    };
    const links: MemberLinkReads = {
      gives: 'chats',
      accountsOf: async (userIds) => {
        const rows = await accountsOfMembers(db, userIds);
        return {
          accounts: rows.map((row) => linkedAccount({ ...row, accountId: row.telegramUserId, wanted: row.desiredChats, held: row.appliedChats })),
          names: rows.length === 0 ? {} : Object.fromEntries((await chats()).map((chat) => [chat.chatId, chat.title])),
        };
      },
      backlog: (now) => queueBacklog(db, now),
      linkTimes,
    };
    return {
      name: 'telegram',
      title: TITLE,
      sandbox: port.kind === 'sandbox',
      // a shop that offers no Telegram has no member in a chat to follow: no delivery is written for it
      subscriber: available ? followsPlan('telegram', (userId) => reconciler.syncUser(userId)) : { name: 'telegram' },
      // a shop that offers no Telegram has no accounts to show, count or remind of
      ...(available ? { links } : {}),
      loops: [reconciler, webhook],
      runOnce: async () => {
        await reconciler.runOnce();
      },
      routes: ({ trustedOrigins, directory, sandboxOpenToAll }) => {
        const api = new Hono<{ Variables: AuthVariables }>().route('/', telegramMemberRoutes({ service, trustedOrigins, webhookSecret }));
        if (available && isSandboxTelegram(port)) api.route('/', sandboxTelegramRoutes({ sandbox: port, service, directory, openToAll: sandboxOpenToAll }));
        const admin = telegramAdminRoutes({ service, reconciler, check: async () => checkTelegram(port, await chats()) });
        return { api, admin };
      },
      // to the managed chats whose every member may read it, through the port (the sandbox records it)
      announce: async (announcement) => {
        const targets = announcementChats(await chats(), announcement.plans);
        if (targets.length === 0) return 'off';
        const failed: string[] = [];
        for (const chatId of targets) {
          try {
            await port.sendMessage(chatId, announcementText(announcement, announcement.link));
          } catch (error) {
            logger.warn({ err: error, chatId }, 'telegram: the announcement was not posted to a chat');
            failed.push(`${chatId}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        return failed.length === 0 ? 'posted' : `failed: ${failed.join('; ')}`.slice(0, 300);
      },
      card: async () => ({ name: 'telegram', title: TITLE, path: '/admin/telegram', sandbox: port.kind === 'sandbox', ...pick(await accountCounts(db)) }),
    };
  },
  doctor: async (config, options) => {
    const settings = config.integrations.telegram;
    // Telegram is optional: a shop without a bot has nothing live to check (the sandbox is for demos)
    if (!settings.botToken) return [];
    const timeout = options.timeoutMs ? { timeoutSeconds: Math.ceil(options.timeoutMs / 1000) } : {};
    return checkTelegram(createTelegramClient({ botToken: settings.botToken, apiRoot: settings.apiRoot, ...timeout }), null);
  },
  // its card sits on the community page, below Discord's
  reminder: {
    subject: 'Join the members on Telegram',
    text: 'Your plan includes the members’ Telegram chats. Link your Telegram account and we invite you.',
    label: 'Link Telegram',
    path: '/dashboard/discord',
    switchLabel: 'Reminder: link Telegram',
    offer: { includes: 'the members’ Telegram chats', account: 'Telegram', then: 'you are invited to the chats automatically' },
  },
};

const pick = (counts: { linked: number; pending: number; failing: number }) => ({ linked: counts.linked, pending: counts.pending, failing: counts.failing });
