import { describe, expect, it } from 'vitest';
import { announcementChats, announcementText, deepLinkToken, desiredTelegramChats, telegramRetryDelayMs, type ManagedChat } from './chats';
import { telegramSettings, telegramSettingsProblems, telegramEnvSchema } from './settings';

const chats: ManagedChat[] = [
  { chatId: '-100300', title: 'Lifetime lounge', everyPlan: false, planSlugs: ['lifetime'] },
  { chatId: '-100100', title: 'VIP', everyPlan: true, planSlugs: [] },
  { chatId: '-100200', title: 'Yearly desk', everyPlan: false, planSlugs: ['yearly', 'lifetime'] },
];

describe('the chats a member should be in', () => {
  it('are none without access', () => {
    expect(desiredTelegramChats(null, chats)).toEqual([]);
  });

  it("are every plan's chats plus those keyed by the member's plan slug, sorted", () => {
    expect(desiredTelegramChats({ planType: 'monthly' }, chats)).toEqual(['-100100']);
    expect(desiredTelegramChats({ planType: 'yearly' }, chats)).toEqual(['-100100', '-100200']);
    expect(desiredTelegramChats({ planType: 'lifetime' }, chats)).toEqual(['-100100', '-100200', '-100300']);
  });
});

describe('the retry delay', () => {
  it("doubles from 30 s to an hour, or waits Telegram's retry_after", () => {
    expect([1, 2, 3, 20].map((attempt) => telegramRetryDelayMs(attempt))).toEqual([30_000, 60_000, 120_000, 3_600_000]);
    expect(telegramRetryDelayMs(5, 7_000)).toBe(7_000);
    expect(telegramRetryDelayMs(1, 0)).toBe(1_000);
  });
});

describe('the deep link', () => {
  it('carries the token after /start, with or without the bot named', () => {
    expect(deepLinkToken('/start abcdefghijklmnop_-12')).toBe('abcdefghijklmnop_-12');
    expect(deepLinkToken('/start@shop_bot abcdefghijklmnop')).toBe('abcdefghijklmnop');
    expect(deepLinkToken('/start')).toBeNull();
    expect(deepLinkToken('/start short')).toBeNull();
    expect(deepLinkToken('hello')).toBeNull();
    expect(deepLinkToken(undefined)).toBeNull();
  });
});

describe('the settings', () => {
  it('run the sandbox without a token and refuse a token BotFather would not give', () => {
    const sandbox = telegramSettings(telegramEnvSchema.parse({}));
    expect(sandbox).toEqual({ botToken: null, apiRoot: 'https://api.telegram.org', auditIntervalMs: 300_000, inviteTtlMs: 24 * 3_600_000 });
    expect(telegramSettingsProblems(sandbox)).toEqual([]);
    expect(telegramSettingsProblems(telegramSettings(telegramEnvSchema.parse({ TELEGRAM_BOT_TOKEN: 'nope' })))).toEqual([expect.stringContaining('TELEGRAM_BOT_TOKEN')]);
    expect(telegramSettingsProblems(telegramSettings(telegramEnvSchema.parse({ TELEGRAM_BOT_TOKEN: '123456:ABCdefGhIJKlmNoPQRsTUVwxyZ12345' })))).toEqual([]);
  });
});

describe('the chats an announcement is posted to', () => {
  it('are every chat for an announcement to every plan, else only chats whose plans are all among its plans', () => {
    expect(announcementChats(chats, [])).toEqual(['-100100', '-100200', '-100300']);
    expect(announcementChats(chats, ['lifetime'])).toEqual(['-100300']);
    expect(announcementChats(chats, ['yearly', 'lifetime'])).toEqual(['-100200', '-100300']);
    expect(announcementChats(chats, ['monthly'])).toEqual([]);
  });

  it('say the title, the text and the link within Telegram\'s 4,096 characters', () => {
    expect(announcementText({ title: 'Pro V2 2.3', body: 'Remove and re-add the indicator.', scriptId: 'PUB;pro' }, 'https://shop.example/dashboard')).toBe(
      'Pro V2 2.3 (PUB;pro)\n\nRemove and re-add the indicator.\n\nhttps://shop.example/dashboard',
    );
    const long = announcementText({ title: 'Long', body: 'x'.repeat(5000), scriptId: null }, 'https://shop.example/dashboard');
    expect(long).toHaveLength(4096);
    expect(long.endsWith('…\n\nhttps://shop.example/dashboard')).toBe(true);
  });
});
