import { describe, expect, it } from 'vitest';
import { DISCORD_FAILURE_TEXTS, discordFailureText, discordStatusResponseSchema } from './discord-contract';
import { DISCORD_LINK_TEXTS, discordLinkError, discordLinkErrorCode, SERVER_ERROR_MESSAGES } from './error-messages';

describe('discordFailureText', () => {
  it.each([
    ['unauthorized: the Discord token expired: the member must connect Discord again', DISCORD_FAILURE_TEXTS.unauthorized],
    ['missing_permissions: Missing Permissions: the bot lacks Manage Roles', DISCORD_FAILURE_TEXTS.missing_permissions],
    ['network: Discord is unreachable', DISCORD_FAILURE_TEXTS.network],
    ['rate_limited: 429', DISCORD_FAILURE_TEXTS.rate_limited],
    ['unknown_member: Unknown Member', DISCORD_FAILURE_TEXTS.unknown_member],
    ['unexpected: boom', DISCORD_FAILURE_TEXTS.other],
    ['constructor: prototype keys are not kinds', DISCORD_FAILURE_TEXTS.other],
    [null, DISCORD_FAILURE_TEXTS.other],
  ])('puts %j in words', (lastError, text) => {
    expect(discordFailureText(lastError)).toBe(text);
  });
});

describe('discordLinkError', () => {
  it.each([
    ['access_denied', 'discord_denied'],
    ['account_already_linked_to_different_user', 'discord_already_linked'],
    ['SOCIAL_ACCOUNT_ALREADY_LINKED', 'discord_already_linked'],
    ['state_mismatch', 'discord_link_expired'],
    ['please_restart_the_process', 'discord_link_expired'],
    ['unable_to_link_account', 'discord_link_expired'],
    ['invalid_code', 'discord_unavailable'],
    ['unable_to_get_user_info', 'discord_unavailable'],
    ['DISCORD_NEEDS_ACCESS', 'discord_needs_access'],
    ['discord_already_linked', 'discord_already_linked'],
    ['internal', null],
    [undefined, null],
  ])('folds %s into %s', (code, expected) => {
    expect(discordLinkErrorCode({ code })).toBe(expected);
  });

  it('gives the shared text of the code, the network text, or the default', () => {
    expect(discordLinkError({ code: 'access_denied' })).toEqual({ title: DISCORD_LINK_TEXTS.title, description: SERVER_ERROR_MESSAGES.discord_denied });
    expect(discordLinkError({ network: true }).description).toMatch(/Network connection failed/);
    expect(discordLinkError({ code: 'something_new', message: 'raw internals' }).description).toBe(DISCORD_LINK_TEXTS.default);
  });
});

describe('discordStatusResponseSchema', () => {
  it('reads both answers and refuses a connected one without its fields', () => {
    expect(discordStatusResponseSchema.parse({ connected: false })).toEqual({ connected: false });
    const linked = { connected: true, username: 'jane', roles: [{ id: '1', name: 'VIP' }], status: 'synced', lastError: null };
    expect(discordStatusResponseSchema.parse(linked)).toEqual(linked);
    expect(discordStatusResponseSchema.safeParse({ connected: true, username: 'jane' }).success).toBe(false);
  });
});
