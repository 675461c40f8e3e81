// Discord as one integration (decision 060, the shape of decision 046): the bot and OAuth
// application (discord.js's REST client with the four DISCORD_* keys, else the sandbox guild), the
// reconciler of the managed roles and its audit, the member's link (better-auth's Discord provider,
// handed to auth as `linking`), the member's and the sandbox's routes, the console page's API and
// card, the announcements' channel and the doctor's check.
import { Hono } from 'hono';
import { followsPlan } from '@shared/access-changes';
import type { AnnouncementPost, Integration, IntegrationDescriptor } from '../../integration';
import type { AuthVariables } from '../../http/session-user';
import { linkedAccount } from '../../linked-accounts';
import { discordCounts } from './discord-console.repository';
import { discordConsoleRoutes } from './discord-console.routes';
import { createDiscordConsoleService } from './discord-console.service';
import { createDiscordClient } from './discord-client';
import { checkDiscord } from './discord-doctor';
import { createDiscordReconciler, type DiscordReconciler } from './discord-reconciler';
import type { DiscordPort } from './discord.port';
import { accountsOfMembers, linkTimes, queueBacklog } from './discord.repository';
import { discordRoutes } from './discord.routes';
import { createDiscordLinking, createDiscordService } from './discord.service';
import { createSandboxDiscord, isSandboxDiscord, sandboxDiscordRoleConfig } from './sandbox-discord';
import { sandboxDiscordRoutes } from './sandbox-discord.routes';

/** The channel the sandbox bot posts announcements to when DISCORD_ANNOUNCEMENT_CHANNEL_ID is unset. */
export const SANDBOX_ANNOUNCEMENT_CHANNEL = 'sbx-announcements';

/** The Discord message: the title in bold, the text, and where to read more. */
export function discordMessage(post: Pick<AnnouncementPost, 'title' | 'body' | 'scriptId' | 'link'>): string {
  const about = post.scriptId ? ` (${post.scriptId})` : '';
  const text = `**${post.title}**${about}\n\n${post.body}`;
  const link = `\n\n${post.link}`;
  // Discord's limit is 2,000 characters a message
  return text.length + link.length > 2000 ? `${text.slice(0, 2000 - link.length - 1)}…${link}` : `${text}${link}`;
}

/** The built integration, with its port and reconciler for the tests that drive them. */
export type DiscordIntegration = Integration & { port: DiscordPort; reconciler: DiscordReconciler };

export const isDiscordIntegration = (integration: Integration): integration is DiscordIntegration => integration.name === 'discord';

const TITLE = 'Discord';

export const discordIntegration: IntegrationDescriptor = {
  name: 'discord',
  title: TITLE,
  build({ config, db, logger: parent, clock, catalogue, audit }): DiscordIntegration {
    const settings = config.integrations.discord;
    const logger = parent.child({ module: 'discord' });
    // each plan's roles are its catalogue record's (seeded from DISCORD_ROLE_IDS_<PLAN>), read at start
    const planRoleIds: Record<string, readonly string[]> = Object.fromEntries(catalogue.current().plans.map((plan) => [plan.slug, plan.discordRoleIds]));
    const port: DiscordPort = settings.credentials
      ? createDiscordClient({ ...settings.credentials, logger })
      : createSandboxDiscord({ db, memberRoleIds: settings.memberRoleIds, planRoleIds, clock, publicUrl: config.publicUrl });
    // the sandbox guild's built-in VIP role while DISCORD_ROLE_IDS is empty
    const roles = settings.credentials ? { memberRoleIds: settings.memberRoleIds, planRoleIds } : sandboxDiscordRoleConfig({ memberRoleIds: settings.memberRoleIds, planRoleIds });
    const reconciler = createDiscordReconciler({ db, port, roles, onEnd: settings.onEnd, auditIntervalMs: settings.auditIntervalMs, logger, clock });
    const service = createDiscordService({ db, port, reconciler, clock, logger });
    const consoleService = createDiscordConsoleService({ db, port, reconciler, clock, audit });
    const channelId = settings.announcementChannelId ?? (port.kind === 'sandbox' ? SANDBOX_ANNOUNCEMENT_CHANNEL : null);
    return {
      name: 'discord',
      title: TITLE,
      sandbox: port.kind === 'sandbox',
      port,
      reconciler,
      subscriber: followsPlan('discord', (userId) => reconciler.syncUser(userId)),
      linking: createDiscordLinking({ db, port, reconciler, clock, logger }),
      links: {
        gives: 'roles',
        // role names are Discord's, asked by the console itself (GET /api/admin/discord/roles)
        accountsOf: async (userIds) => ({
          accounts: (await accountsOfMembers(db, userIds)).map((row) => linkedAccount({ ...row, accountId: row.discordUserId, wanted: row.desiredRoles, held: row.appliedRoles })),
          names: {},
        }),
        backlog: (now) => queueBacklog(db, now),
        linkTimes,
      },
      loops: [reconciler],
      runOnce: async () => {
        await reconciler.runOnce();
      },
      routes: ({ trustedOrigins, reads, directory, sandboxOpenToAll }) => {
        const api = new Hono<{ Variables: AuthVariables }>().route('/', discordRoutes({ service, trustedOrigins, reads }));
        if (isSandboxDiscord(port)) {
          api.route('/sandbox/discord', sandboxDiscordRoutes({ discord: port, applicationName: config.site.brandName, shopOrigins: trustedOrigins, directory, openToAll: sandboxOpenToAll, audit }));
        }
        return { api, admin: discordConsoleRoutes(consoleService) };
      },
      // to the announcements channel, whatever plans the announcement names (the channel is the vendor's choice)
      announce: async (announcement) => {
        if (!channelId || !port.bot.postMessage) return 'off';
        try {
          await port.bot.postMessage(channelId, discordMessage(announcement));
          return 'posted';
        } catch (error) {
          logger.warn({ err: error }, 'the announcement was not posted to Discord');
          return `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300);
        }
      },
      card: async () => {
        const counts = await discordCounts(db);
        return { name: 'discord', title: TITLE, path: '/admin/discord', sandbox: port.kind === 'sandbox', linked: counts.linkedMembers, pending: counts.pending, failing: counts.failing };
      },
    };
  },
  // the live bot and application (the sandbox guild: one line saying so)
  doctor: (config, options) => checkDiscord({ ...config.integrations.discord, publicUrl: config.publicUrl, isProduction: config.isProduction }, options),
  reminder: {
    subject: 'Join the members on Discord',
    text: 'Your plan includes the members’ Discord. Link your Discord account and we add your member role.',
    label: 'Link Discord',
    path: '/dashboard/discord',
    switchLabel: 'Reminder: link Discord',
    offer: { includes: 'the VIP Discord', account: 'Discord', then: 'the member roles are given to you automatically' },
  },
};
