// The Discord checks of npm run doctor against the local Discord-shaped server: a healthy bot, and
// each thing a vendor gets wrong on day one (the token, the invite, Manage Roles, the role order,
// a role id).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import { loadConfig } from '../../config';
import { FAKE_DISCORD, startFakeDiscord, type FakeDiscord } from '../../test-support/fake-discord-server';
import { checkDiscord, type DiscordCheckSettings } from './discord-doctor';
import { formatReport, hasProblems, type Check } from '../../doctor-report';
import { runDoctor } from '../../doctor/run-doctor';

const { guildId: GUILD, botUserId: BOT, memberRoleId: MEMBER, vipRoleId: VIP, botRoleId: BOT_ROLE, adminRoleId: ADMIN } = FAKE_DISCORD;
const UNKNOWN_ROLE = '930000000000000009';
const PUBLIC_URL = 'https://shop.example';

let fake: FakeDiscord;

beforeEach(async () => {
  fake = await startFakeDiscord();
});
afterEach(async () => {
  await fake.close();
});

const noPlanRoles = () => Object.fromEntries(PLAN_TYPES.map((plan) => [plan, []])) as unknown as Record<PlanType, string[]>;

function settings(overrides: Partial<DiscordCheckSettings> = {}, credentials: Partial<NonNullable<DiscordCheckSettings['credentials']>> = {}): DiscordCheckSettings {
  return {
    credentials: { clientId: FAKE_DISCORD.clientId, clientSecret: FAKE_DISCORD.clientSecret, botToken: FAKE_DISCORD.botToken, guildId: GUILD, ...credentials },
    memberRoleIds: [MEMBER],
    planRoleIds: { ...noPlanRoles(), lifetime: [VIP] },
    publicUrl: PUBLIC_URL,
    isProduction: true,
    ...overrides,
  };
}

const check = (given: DiscordCheckSettings = settings()) => checkDiscord(given, { apiBaseUrl: fake.baseUrl, timeoutMs: 2_000 });
const problems = (checks: Check[]) => checks.filter((found) => found.status === 'problem');
const role = (id: string) => {
  const found = fake.roles.get(id);
  if (!found) throw new Error(`no role ${id}`);
  return found;
};

describe('without Discord keys', () => {
  it('is one sandbox line and calls nobody', async () => {
    expect(await check(settings({ credentials: null }))).toEqual([{ service: 'Discord', status: 'sandbox', message: 'no Discord keys: roles are given in the sandbox guild' }]);
    expect(fake.requests).toEqual([]);
  });
});

describe('a healthy setup', () => {
  it('passes every check, one line each: the application, the redirect to register, the bot, Manage Roles and each role', async () => {
    const checks = await check();
    expect(checks).toEqual([
      { service: 'Discord', status: 'ok', message: `DISCORD_CLIENT_ID ${FAKE_DISCORD.clientId} is an application id` },
      { service: 'Discord', status: 'ok', message: `OAuth2 redirect to register under OAuth2 → Redirects in the developer portal: ${PUBLIC_URL}/api/auth/callback/discord` },
      { service: 'Discord', status: 'ok', message: `the bot token works: bot user ${BOT} is in the guild ${GUILD}` },
      { service: 'Discord', status: 'ok', message: 'the bot has Manage Roles in the guild' },
      { service: 'Discord', status: 'ok', message: "the bot can list the guild's members (Server Members Intent)" },
      { service: 'Discord', status: 'ok', message: `DISCORD_ROLE_IDS ${MEMBER}: "Members", below the bot's highest role` },
      { service: 'Discord', status: 'ok', message: `DISCORD_ROLE_IDS_LIFETIME ${VIP}: "VIP", below the bot's highest role` },
    ]);
    expect(hasProblems(checks)).toBe(false);
    // reads only: nothing in the guild changes
    expect(fake.requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('names each env key of a role listed twice, on one line', async () => {
    const checks = await check(settings({ planRoleIds: { ...noPlanRoles(), lifetime: [VIP], yearly: [VIP] } }));
    expect(checks.filter((found) => found.message.includes(VIP)).map((found) => found.message)).toEqual([
      `DISCORD_ROLE_IDS_YEARLY, DISCORD_ROLE_IDS_LIFETIME ${VIP}: "VIP", below the bot's highest role`,
    ]);
  });

  it('outside production a plain-http PUBLIC_URL (a local shop) is printed to register as it is', async () => {
    const checks = await check(settings({ publicUrl: 'http://localhost:3000', isProduction: false }));
    expect(problems(checks)).toEqual([]);
    expect(checks[1]?.message).toMatch(/: http:\/\/localhost:3000\/api\/auth\/callback\/discord$/);
  });
});

describe('the application', () => {
  it('a client id that is not a snowflake', async () => {
    const checks = await check(settings({}, { clientId: 'candlewise-app' }));
    expect(problems(checks)).toEqual([
      { service: 'Discord', status: 'problem', message: 'DISCORD_CLIENT_ID "candlewise-app" is not an application id (Discord\'s ids are digits)', fix: expect.stringMatching(/Application ID from General Information/) },
    ]);
  });

  it('a PUBLIC_URL that is not https in production', async () => {
    const checks = await check(settings({ publicUrl: 'http://shop.example' }));
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: 'PUBLIC_URL http://shop.example is not https: Discord would send members back to http://shop.example/api/auth/callback/discord in the clear',
        fix: expect.stringMatching(/^set PUBLIC_URL to the shop's https:\/\/ address and register <PUBLIC_URL>\/api\/auth\/callback\/discord under OAuth2 → Redirects/),
      },
    ]);
  });

  it('a guild id that is not a snowflake: named, and the bot not asked', async () => {
    const checks = await check(settings({}, { guildId: 'my-server' }));
    expect(problems(checks)).toEqual([{ service: 'Discord', status: 'problem', message: 'DISCORD_GUILD_ID "my-server" is not a server id (Discord\'s ids are digits)', fix: expect.stringMatching(/Copy Server ID/) }]);
    expect(fake.requests).toEqual([]);
  });
});

describe('the bot', () => {
  it('a refused token: the fix says where to reset it; the roles are not checked', async () => {
    const checks = await check(settings({}, { botToken: 'revoked' }));
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: expect.stringMatching(/^the bot token was refused \(.*401/),
        fix: expect.stringMatching(/^reset it in the Discord developer portal .*\(Bot → Reset Token\) and set DISCORD_BOT_TOKEN$/),
      },
    ]);
    expect(checks.some((found) => found.message.includes('DISCORD_ROLE_IDS'))).toBe(false);
  });

  it.each([
    ['not invited (the bot is no member of the guild)', () => fake.members.delete(BOT), settings()],
    ['another guild than the bot is in (unknown guild)', () => undefined, settings({}, { guildId: '900000000000000099' })],
  ])('%s: the invite fix', async (_name, breakIt, given) => {
    breakIt();
    const checks = await check(given);
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: expect.stringMatching(/^the bot is not in the guild DISCORD_GUILD_ID \d+ /),
        fix: expect.stringMatching(/OAuth2 → URL Generator, scopes "bot", bot permission "Manage Roles"/),
      },
    ]);
  });

  it('Discord down: cannot be reached', async () => {
    fake.serverErrors = { status: 503, times: Infinity };
    expect(problems(await check())).toEqual([{ service: 'Discord', status: 'problem', message: expect.stringMatching(/^Discord cannot be reached: /), fix: 'check the network and try again', unanswered: true }]);
  });

  it('no Manage Roles: names error 50013 and the fix', async () => {
    role(BOT_ROLE).permissions = 0n;
    const checks = await check();
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: "the bot has no Manage Roles permission in the guild: every role it gives or takes fails with Discord's error 50013 (Missing Permissions)",
        fix: expect.stringMatching(/Server Settings → Roles → the bot's role → Permissions/),
      },
    ]);
  });

  it('without the Server Members Intent: the audit could not list the members', async () => {
    fake.membersIntent = false;
    expect(problems(await check())).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: expect.stringMatching(/^the bot cannot list the guild's members: the audit that repairs drift fails \(.*50001/),
        fix: expect.stringMatching(/Server Members Intent .*\(Bot → Privileged Gateway Intents\)$/),
      },
    ]);
  });

  it('a managed role above the bot: one problem per such role, naming it and the fix', async () => {
    role(VIP).position = 5; // above the bot (3) and the admins (4)
    role(MEMBER).position = 3;
    role(BOT_ROLE).position = 2;
    const checks = await check();
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: `the role "Members" (DISCORD_ROLE_IDS ${MEMBER}) sits at or above the bot's highest role: giving or taking it fails with Discord's error 50013 (Missing Permissions)`,
        fix: 'drag the bot\'s role above "Members" in Server Settings → Roles',
      },
      {
        service: 'Discord',
        status: 'problem',
        message: `the role "VIP" (DISCORD_ROLE_IDS_LIFETIME ${VIP}) sits at or above the bot's highest role: giving or taking it fails with Discord's error 50013 (Missing Permissions)`,
        fix: 'drag the bot\'s role above "VIP" in Server Settings → Roles',
      },
    ]);
  });

  it("a role that is the bot's highest itself (or Admins above it) cannot be managed", async () => {
    const checks = await check(settings({ planRoleIds: { ...noPlanRoles(), lifetime: [ADMIN], yearly: [BOT_ROLE] } }));
    expect(problems(checks).map((found) => found.message)).toEqual([
      expect.stringMatching(/^the role "Candlewise" \(DISCORD_ROLE_IDS_YEARLY /),
      expect.stringMatching(/^the role "Admins" \(DISCORD_ROLE_IDS_LIFETIME /),
    ]);
  });
});

describe('the configured role ids', () => {
  it('an unknown role id: names the env key and the id', async () => {
    const checks = await check(settings({ planRoleIds: { ...noPlanRoles(), lifetime: [VIP, UNKNOWN_ROLE] } }));
    expect(problems(checks)).toEqual([
      {
        service: 'Discord',
        status: 'problem',
        message: `DISCORD_ROLE_IDS_LIFETIME ${UNKNOWN_ROLE} is not a role of the guild`,
        fix: expect.stringMatching(/Copy Role ID\) into DISCORD_ROLE_IDS_LIFETIME$/),
      },
    ]);
  });

  it('no role id at all', async () => {
    expect(problems(await check(settings({ memberRoleIds: [], planRoleIds: noPlanRoles() })))).toMatchObject([{ message: 'DISCORD_ROLE_IDS is empty: the bot has no role to give' }]);
  });
});

describe('in npm run doctor', () => {
  const env = (overrides: Record<string, string | undefined> = {}) => ({
    PUBLIC_URL,
    DISCORD_CLIENT_ID: FAKE_DISCORD.clientId,
    DISCORD_CLIENT_SECRET: FAKE_DISCORD.clientSecret,
    DISCORD_BOT_TOKEN: FAKE_DISCORD.botToken,
    DISCORD_GUILD_ID: GUILD,
    DISCORD_ROLE_IDS: MEMBER,
    DISCORD_ROLE_IDS_LIFETIME: VIP,
    ...overrides,
  });

  it('reads the settings from the configuration and reports after TradingView', async () => {
    const checks = await runDoctor(loadConfig(env()), { apiBaseUrls: { discord: fake.baseUrl }, timeoutMs: 2_000 });
    expect(checks.map((found) => `${found.service} ${found.status}`)).toEqual([
      'Stripe sandbox',
      'TradingView sandbox',
      ...Array<string>(7).fill('Discord ok'),
      'Mail sandbox',
    ]);
    const report = formatReport(checks);
    expect(report).toContain(`ok       Discord      OAuth2 redirect to register under OAuth2 → Redirects in the developer portal: ${PUBLIC_URL}/api/auth/callback/discord`);
    expect(report).toContain(`DISCORD_ROLE_IDS_LIFETIME ${VIP}: "VIP"`);
    expect(report.trim().split('\n').at(-1)).toBe('Every live check passed.');
  });

  it('a problem prints its fix below it', async () => {
    const report = formatReport(await runDoctor(loadConfig(env({ DISCORD_ROLE_IDS: UNKNOWN_ROLE })), { apiBaseUrls: { discord: fake.baseUrl }, timeoutMs: 2_000 }));
    expect(report).toContain(`PROBLEM  Discord      DISCORD_ROLE_IDS ${UNKNOWN_ROLE} is not a role of the guild\n${' '.repeat(22)}fix: copy the role's id`);
    expect(report).toMatch(/1 problem found/);
  });
});
