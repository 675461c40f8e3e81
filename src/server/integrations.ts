// The integrations, one line each (decision 046): the dependencies build them (before auth, which
// links Discord accounts and sends mails), and the composition root, the app, main.ts, the console
// and the doctor read this list. Adding one is a folder under modules/ and a line here. The order
// is the order of the access-change subscribers, the doctor's lines and the console's cards:
// TradingView, the access the shop sells, first (decision 064); mail last, where its subscriber
// always was (decisions 063, 065).
import type { IntegrationDescriptor } from './integration';
import { discordIntegration } from './modules/discord/discord.integration';
import { mailIntegration } from './modules/mail/mail.integration';
import { telegramIntegration } from './modules/telegram/telegram.integration';
import { tradingViewIntegration } from './modules/tradingview/tradingview.integration';

export const INTEGRATIONS: readonly IntegrationDescriptor[] = [tradingViewIntegration, discordIntegration, telegramIntegration, mailIntegration];
