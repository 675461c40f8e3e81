// Telegram's configuration keys, read by the server's config.ts (the only reader of the
// environment) and parsed here, beside the rest of the integration: without TELEGRAM_BOT_TOKEN the
// shop runs the sandbox Telegram.
import { z } from 'zod';

const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

/** The environment keys of the Telegram integration (merged into the server's env schema). */
export const telegramEnvShape = {
  /** BotFather's token of the vendor's bot; empty runs the sandbox Telegram. */
  TELEGRAM_BOT_TOKEN: optionalText,
  /** Where the Bot API answers (tests point the real adapter at a local server). */
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
  /** How often every linked account's membership is read and drift repaired both ways. */
  TELEGRAM_AUDIT_INTERVAL_MS: z.coerce.number().int().min(10_000).default(5 * 60_000),
  /** How long a member's invite link works (hours); a new one is made when it expired unused. */
  TELEGRAM_INVITE_HOURS: z.coerce.number().int().min(1).max(24 * 7).default(24),
};

export const telegramEnvSchema = z.object(telegramEnvShape);
export type TelegramEnv = z.infer<typeof telegramEnvSchema>;

export type TelegramSettings = {
  /** The real bot's token; null runs the sandbox. */
  botToken: string | null;
  apiRoot: string;
  auditIntervalMs: number;
  inviteTtlMs: number;
};

export function telegramSettings(env: TelegramEnv): TelegramSettings {
  return {
    botToken: env.TELEGRAM_BOT_TOKEN ?? null,
    apiRoot: env.TELEGRAM_API_ROOT.replace(/\/$/, ''),
    auditIntervalMs: env.TELEGRAM_AUDIT_INTERVAL_MS,
    inviteTtlMs: env.TELEGRAM_INVITE_HOURS * 60 * 60_000,
  };
}

/** What is wrong with the keys together (the server refuses to start with the list). */
export function telegramSettingsProblems(settings: TelegramSettings): string[] {
  if (settings.botToken !== null && !/^\d+:[\w-]{20,}$/.test(settings.botToken)) {
    return ['TELEGRAM_BOT_TOKEN: not a bot token as BotFather gives it (digits, a colon, then the secret)'];
  }
  return [];
}
