import { describe, expect, it } from 'vitest';
import { DISCORD_USERNAME_MESSAGES, discordUsernameSchema } from './sandbox-discord-contract';

describe('discordUsernameSchema', () => {
  it.each([
    ['trader.joe', 'trader.joe'],
    ['  @Trader_Joe ', 'trader_joe'],
    ['ab', 'ab'],
    ['x'.repeat(32), 'x'.repeat(32)],
  ])('accepts %j as %j', (input, expected) => {
    expect(discordUsernameSchema.parse(input)).toBe(expected);
  });

  it.each([
    ['', DISCORD_USERNAME_MESSAGES.required],
    ['@', DISCORD_USERNAME_MESSAGES.required],
    ['a', DISCORD_USERNAME_MESSAGES.tooShort],
    ['x'.repeat(33), DISCORD_USERNAME_MESSAGES.tooLong],
    ['trader-joe', DISCORD_USERNAME_MESSAGES.invalid],
    ['tr ader', DISCORD_USERNAME_MESSAGES.invalid],
    ['trader..joe', DISCORD_USERNAME_MESSAGES.doublePeriod],
  ])('refuses %j: %s', (input, message) => {
    const result = discordUsernameSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});
