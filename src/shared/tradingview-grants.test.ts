import { describe, expect, it } from 'vitest';
import { PLAN_TYPES } from './plans';
import type { CatalogScript } from './script-catalog';
import {
  GRANT_STATUS_TEXTS,
  desiredGrant,
  effectiveTarget,
  formatGrantError,
  grantErrorKind,
  memberGrantChanges,
  memberGrantStatus,
  planGrantChanges,
  retryDelayMs,
  type AccessTarget,
  type ExistingGrant,
  type GrantRowView,
  type GrantTarget,
  type SubscriptionAccessRow,
} from './tradingview-grants';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const PAST = new Date('2025-06-15T11:59:59.999Z');
const JULY = new Date('2025-07-15T12:00:00.000Z');
const AUGUST = new Date('2025-08-15T12:00:00.000Z');

function sub(overrides: Partial<SubscriptionAccessRow> = {}): SubscriptionAccessRow {
  return {
    planType: 'monthly',
    isActive: true,
    expiresAt: JULY,
    ...overrides,
  };
}

// Pro is in every plan; Scanner only in yearly and lifetime.
const CATALOG: CatalogScript[] = [
  { id: 'PUB;pro', name: 'Pro', plans: [...PLAN_TYPES] },
  { id: 'PUB;scanner', name: 'Scanner', plans: ['yearly', 'lifetime'] },
];
const EVERY = ['PUB;pro', 'PUB;scanner'];
const access = (expiresAt: Date | null): AccessTarget => ({ desired: 'grant', expiresAt });
const grant = (expiresAt: Date | null, scripts: readonly string[] | null = ['PUB;pro']): GrantTarget => ({ desired: 'grant', expiresAt, scripts });
const REVOKE: GrantTarget = { desired: 'revoke' };

describe('desiredGrant', () => {
  it.each<[string, SubscriptionAccessRow[], AccessTarget]>([
    ['active monthly: until its expiry', [sub()], access(JULY)],
    ['lifetime: no expiry', [sub({ planType: 'lifetime', expiresAt: null })], access(null)],
    ['lifetime with a stray expiry: still no expiry', [sub({ planType: 'lifetime', expiresAt: PAST })], access(null)],
    ['recurring with expiry not known yet: no expiry', [sub({ expiresAt: null })], access(null)],
    ['canceled at period end, before expiry: until expiry', [sub({ planType: 'quarterly' })], access(JULY)],
    ['expiry passed: revoke', [sub({ expiresAt: PAST })], { desired: 'revoke' }],
    ['expiring exactly now: revoke', [sub({ expiresAt: NOW })], { desired: 'revoke' }],
    ['refunded (is_active false): revoke', [sub({ isActive: false })], { desired: 'revoke' }],
    ['refunded lifetime: revoke', [sub({ planType: 'lifetime', isActive: false, expiresAt: null })], { desired: 'revoke' }],
    ['no subscription rows (deleted): revoke', [], { desired: 'revoke' }],
    ['renewal row beside the old one: the later expiry', [sub({ expiresAt: JULY }), sub({ expiresAt: AUGUST })], access(AUGUST)],
    ['expired monthly and active lifetime: no expiry', [sub({ expiresAt: PAST }), sub({ planType: 'lifetime', expiresAt: null })], access(null)],
    ['monthly and lifetime, lifetime refunded: until the monthly expiry', [sub(), sub({ planType: 'lifetime', expiresAt: null, isActive: false })], access(JULY)],
  ])('%s', (_name, rows, expected) => {
    expect(desiredGrant(rows, NOW)).toEqual(expected);
  });
});

function existing(username: string, target: GrantTarget, id = username): ExistingGrant {
  return {
    id,
    username,
    desired: target.desired,
    desiredExpiresAt: target.desired === 'grant' ? target.expiresAt : null,
    desiredScripts: target.desired === 'grant' ? target.scripts : null,
  };
}

describe('planGrantChanges', () => {
  it.each<[string, ExistingGrant[], string | null, GrantTarget, ReturnType<typeof planGrantChanges>]>([
    ['first activation: create the grant', [], 'joe', grant(JULY), [{ kind: 'create', username: 'joe', target: grant(JULY) }]],
    ['no access and no row: nothing to revoke', [], 'joe', REVOKE, []],
    ['no username: nothing', [], null, grant(JULY), []],
    ['unchanged: nothing', [existing('joe', grant(JULY))], 'joe', grant(JULY), []],
    ['renewal: new expiry', [existing('joe', grant(JULY))], 'joe', grant(AUGUST), [{ kind: 'update', id: 'joe', username: 'joe', target: grant(AUGUST) }]],
    ['upgrade to lifetime: no expiry', [existing('joe', grant(JULY))], 'joe', grant(null), [{ kind: 'update', id: 'joe', username: 'joe', target: grant(null) }]],
    ['access ended: revoke', [existing('joe', grant(JULY))], 'joe', REVOKE, [{ kind: 'update', id: 'joe', username: 'joe', target: REVOKE }]],
    ['resubscribed after a revoke: grant again', [existing('joe', REVOKE)], 'joe', grant(AUGUST), [{ kind: 'update', id: 'joe', username: 'joe', target: grant(AUGUST) }]],
    [
      'username changed: old revoked, new created',
      [existing('joe', grant(JULY))],
      'joe_real',
      grant(JULY),
      [
        { kind: 'update', id: 'joe', username: 'joe', target: REVOKE },
        { kind: 'create', username: 'joe_real', target: grant(JULY) },
      ],
    ],
    ['old username already revoked: left alone', [existing('joe', REVOKE), existing('joe_real', grant(JULY))], 'joe_real', grant(JULY), []],
    [
      'back to an earlier username: its row is reused',
      [existing('joe', REVOKE), existing('joe_real', grant(JULY))],
      'joe',
      grant(JULY),
      [
        { kind: 'update', id: 'joe_real', username: 'joe_real', target: REVOKE },
        { kind: 'update', id: 'joe', username: 'joe', target: grant(JULY) },
      ],
    ],
  ])('%s', (_name, rows, username, target, expected) => {
    expect(planGrantChanges(rows, username, target)).toEqual(expected);
  });
});

describe('memberGrantChanges (the username kept apart from the subscriptions)', () => {
  it.each<[string, ExistingGrant[], string | null, SubscriptionAccessRow[], ReturnType<typeof memberGrantChanges>]>([
    ['first username of a paying member: grant it', [], 'joe', [sub()], [{ kind: 'create', username: 'joe', target: grant(JULY) }]],
    ['paying member without a username yet: nothing', [], null, [sub()], []],
    [
      'username changed: the old name is revoked and the new one granted in one set of changes',
      [existing('joe', grant(JULY))],
      'joe_real',
      [sub()],
      [
        { kind: 'update', id: 'joe', username: 'joe', target: REVOKE },
        { kind: 'create', username: 'joe_real', target: grant(JULY) },
      ],
    ],
    [
      'username changed while access ended: both names end revoked, none created',
      [existing('joe', grant(JULY))],
      'joe_real',
      [sub({ isActive: false })],
      [{ kind: 'update', id: 'joe', username: 'joe', target: REVOKE }],
    ],
    ['username removed (member without one): every old name revoked', [existing('joe', grant(JULY))], null, [sub()], [{ kind: 'update', id: 'joe', username: 'joe', target: REVOKE }]],
    ['subscriptions gone: the current name is revoked', [existing('joe', grant(JULY))], 'joe', [], [{ kind: 'update', id: 'joe', username: 'joe', target: REVOKE }]],
    ["a yearly plan: its bundle's scripts", [], 'joe', [sub({ planType: 'yearly' })], [{ kind: 'create', username: 'joe', target: grant(JULY, EVERY) }]],
    [
      'monthly to yearly, same expiry: the scripts change',
      [existing('joe', grant(JULY))],
      'joe',
      [sub({ planType: 'yearly' })],
      [{ kind: 'update', id: 'joe', username: 'joe', target: grant(JULY, EVERY) }],
    ],
    ['a row from before bundles: rewritten with its scripts', [existing('joe', grant(JULY, null))], 'joe', [sub()], [{ kind: 'update', id: 'joe', username: 'joe', target: grant(JULY) }]],
    ['a refunded yearly beside a monthly: only the monthly bundle', [], 'joe', [sub(), sub({ planType: 'yearly', isActive: false })], [{ kind: 'create', username: 'joe', target: grant(JULY) }]],
  ])('%s', (_name, rows, username, subscriptions, expected) => {
    expect(memberGrantChanges(rows, { username, subscriptions }, CATALOG, NOW)).toEqual(expected);
  });
});

describe('effectiveTarget (one TradingView account, several members)', () => {
  it.each<[string, GrantTarget, GrantTarget[], GrantTarget]>([
    ['alone: its own target', grant(JULY), [], grant(JULY)],
    ['alone, revoke', REVOKE, [], REVOKE],
    ['revoked while another member still pays: keep their access', REVOKE, [grant(AUGUST)], grant(AUGUST)],
    ['shorter plan does not cut a longer one', grant(JULY), [grant(AUGUST)], grant(AUGUST)],
    ['no expiry wins', grant(JULY), [grant(null)], grant(null)],
    ['others revoked: own target', grant(JULY), [REVOKE, REVOKE], grant(JULY)],
    ["another member's bigger bundle: every script either is granted", grant(AUGUST), [grant(JULY, ['PUB;scanner'])], grant(AUGUST, EVERY)],
    ['a row from before bundles: the initial bundle', grant(JULY, null), [], grant(JULY, ['PUB;initial'])],
  ])('%s', (_name, own, others, expected) => {
    expect(effectiveTarget(own, others, ['PUB;initial'])).toEqual(expected);
  });
});

describe('retryDelayMs', () => {
  it.each([
    [0, 0],
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [7, 1_920_000],
    [8, 3_600_000],
    [9, 3_600_000],
    [1_000, 3_600_000],
  ])('after %i failures waits %i ms', (failures, expected) => {
    expect(retryDelayMs(failures)).toBe(expected);
  });
});

describe('grant errors', () => {
  it('round-trips the kind through last_error', () => {
    expect(grantErrorKind(formatGrantError('session_expired', 'POST /pine_perm/add/: 401'))).toBe('session_expired');
    expect(grantErrorKind('something else')).toBeNull();
    expect(grantErrorKind(null)).toBeNull();
    expect(formatGrantError('network', 'x'.repeat(1_000))).toHaveLength(500);
  });
});

describe('memberGrantStatus', () => {
  const row = (overrides: Partial<GrantRowView> = {}): GrantRowView => ({ desired: 'grant', status: 'pending', attempts: 0, lastError: null, ...overrides });
  it.each<[string, string | null, GrantRowView | null, string, string]>([
    ['no username', null, null, 'none', GRANT_STATUS_TEXTS.none],
    ['username, grant not recorded yet', 'joe', null, 'pending', GRANT_STATUS_TEXTS.pending],
    ['pending', 'joe', row(), 'pending', GRANT_STATUS_TEXTS.pending],
    ['being processed', 'joe', row({ status: 'processing' }), 'pending', GRANT_STATUS_TEXTS.pending],
    ['granted', 'joe', row({ status: 'granted' }), 'granted', GRANT_STATUS_TEXTS.granted],
    ['one transient failure still reads pending', 'joe', row({ status: 'failed', attempts: 1, lastError: 'network: timeout' }), 'pending', GRANT_STATUS_TEXTS.pending],
    ['repeated failures', 'joe', row({ status: 'failed', attempts: 3, lastError: 'network: timeout' }), 'failed', GRANT_STATUS_TEXTS.failed],
    ['TradingView rejects the username', 'joe', row({ status: 'failed', attempts: 1, lastError: 'not_found: 404' }), 'failed', GRANT_STATUS_TEXTS.failedUsername],
    ['access ended', 'joe', row({ desired: 'revoke', status: 'revoked' }), 'revoked', GRANT_STATUS_TEXTS.revoked],
  ])('%s → %s', (_name, username, grantRow, status, message) => {
    expect(memberGrantStatus(username, grantRow)).toEqual({ status, message });
  });
});
