// The integrations, one line each (decision 046): the composition root, the app, the console and
// the doctor read this list. Adding one is a folder under modules/ and a line here.
import type { IntegrationDescriptor } from './integration';
import { telegramIntegration } from './modules/telegram/telegram.integration';

export const INTEGRATIONS: readonly IntegrationDescriptor[] = [telegramIntegration];
