// The integrations, one line each (decision 046): the dependencies build them (before auth, which
// links Discord accounts), and the composition root, the app, main.ts, the console and the doctor
// read this list. Adding one is a folder under modules/ and a line here.
import type { IntegrationDescriptor } from './integration';
import { discordIntegration } from './modules/discord/discord.integration';
import { telegramIntegration } from './modules/telegram/telegram.integration';

export const INTEGRATIONS: readonly IntegrationDescriptor[] = [discordIntegration, telegramIntegration];
