import { describe, expect, it } from 'vitest';
import {
  MAX_SECURITY_EVENTS_PER_USER,
  SECURITY_REFRESH_MS,
  scoreColour,
  securityAlerts,
  securityScore,
  trimSecurityLog,
  visibleAlerts,
} from './security';
import type { SecurityEvent, SecurityEventType } from './security';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);
const ev = (event: SecurityEventType, m: number): SecurityEvent => ({ event, timestamp: minutesAgo(m) });
const many = (event: SecurityEventType, ...mins: number[]) => mins.map((m) => ev(event, m));

describe('securityScore', () => {
  it.each<[string, SecurityEvent[], number]>([
    ['no events', [], 100],
    ['one failed login', many('AUTH_FAILURE', 1), 95],
    ['failed login, suspicious, unauthorized', [ev('AUTH_FAILURE', 5), ev('SUSPICIOUS_ACTIVITY', 60), ev('UNAUTHORIZED_ACCESS', 600)], 70],
    ['subscription changes cost nothing', many('SUBSCRIPTION_CHANGE', 1, 2, 3), 100],
    ['events older than 24 h are ignored', [ev('UNAUTHORIZED_ACCESS', 24 * 60), ev('AUTH_FAILURE', 24 * 60 + 1)], 100],
    ['an event just inside 24 h counts', [ev('UNAUTHORIZED_ACCESS', 24 * 60 - 1)], 85],
    ['clamped at 0', many('UNAUTHORIZED_ACCESS', 1, 2, 3, 4, 5, 6, 7, 8), 0],
    ['exactly 0', many('SUSPICIOUS_ACTIVITY', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0],
    ['four failures', many('AUTH_FAILURE', 1, 2, 3, 4), 80],
    // strangers typing wrong passwords for a member's e-mail cannot zero the score
    ['1,000 failures cost at most 25 points', many('AUTH_FAILURE', ...Array.from({ length: 1000 }, (_, i) => i % 600)), 75],
    ['a folded row counts its repeats', [{ ...ev('AUTH_FAILURE', 1), count: 3 }], 85],
    ['folded failures are capped too', [{ ...ev('AUTH_FAILURE', 1), count: 1000 }, ev('UNAUTHORIZED_ACCESS', 2)], 60],
  ])('%s → %i', (_name, events, expected) => {
    expect(securityScore(events, NOW)).toBe(expected);
  });

  it.each([
    [100, 'green'],
    [80, 'green'],
    [79, 'yellow'],
    [60, 'yellow'],
    [59, 'red'],
    [0, 'red'],
  ] as const)('scoreColour(%i) → %s', (score, colour) => {
    expect(scoreColour(score)).toBe(colour);
  });
});

describe('securityAlerts', () => {
  it.each<[string, SecurityEvent[], { type: string; message: string }[]]>([
    ['no events', [], []],
    ['two failures are not enough', many('AUTH_FAILURE', 1, 2), []],
    [
      'three failures in 15 minutes',
      many('AUTH_FAILURE', 1, 5, 14),
      [{ type: 'warning', message: "3 failed sign-in attempts in the last 15 minutes. If this wasn't you, change your password." }],
    ],
    ['three failures, one outside the window', many('AUTH_FAILURE', 1, 5, 15), []],
    [
      'five failures count all',
      many('AUTH_FAILURE', 1, 2, 3, 4, 5),
      [{ type: 'warning', message: "5 failed sign-in attempts in the last 15 minutes. If this wasn't you, change your password." }],
    ],
    [
      'a folded row of repeats counts each attempt',
      [{ ...ev('AUTH_FAILURE', 2), count: 1000 }],
      [{ type: 'warning', message: "1000 failed sign-in attempts in the last 15 minutes. If this wasn't you, change your password." }],
    ],
    ['one subscription change', many('SUBSCRIPTION_CHANGE', 1), []],
    [
      'two subscription changes in an hour',
      many('SUBSCRIPTION_CHANGE', 10, 59),
      [{ type: 'info', message: "Your subscription was changed 2 times in the last hour. If you didn't make these changes, contact support." }],
    ],
    ['two changes, one outside the hour', many('SUBSCRIPTION_CHANGE', 10, 60), []],
    [
      'unauthorized access is critical',
      [ev('UNAUTHORIZED_ACCESS', 30)],
      [{ type: 'critical', message: "Someone tried to reach a page your account is not allowed to open. If this wasn't you, sign out of all devices and change your password." }],
    ],
    [
      'newest first',
      [...many('SUBSCRIPTION_CHANGE', 20, 30), ...many('AUTH_FAILURE', 2, 3, 4), ev('SUSPICIOUS_ACTIVITY', 100)],
      [
        { type: 'warning', message: "3 failed sign-in attempts in the last 15 minutes. If this wasn't you, change your password." },
        { type: 'info', message: "Your subscription was changed 2 times in the last hour. If you didn't make these changes, contact support." },
        { type: 'warning', message: 'We noticed unusual activity on your account. Review your recent sign-ins and change your password if anything looks unfamiliar.' },
      ],
    ],
  ])('%s', (_name, events, expected) => {
    expect(securityAlerts(events, NOW).map(({ type, message }) => ({ type, message }))).toEqual(expected);
  });

  it('keeps the 10 newest', () => {
    const events = many('UNAUTHORIZED_ACCESS', ...Array.from({ length: 14 }, (_, i) => i + 1));
    const alerts = securityAlerts(events, NOW);
    expect(alerts).toHaveLength(10);
    expect(alerts[0]!.timestamp).toEqual(minutesAgo(1));
    expect(alerts[9]!.timestamp).toEqual(minutesAgo(10));
  });

  it('keeps alert ids stable across refreshes until a new event arrives', () => {
    const events = many('AUTH_FAILURE', 1, 2, 3);
    const first = securityAlerts(events, NOW)[0]!.id;
    expect(securityAlerts(events, new Date(NOW.getTime() + 30_000))[0]!.id).toBe(first);
    expect(securityAlerts([...events, ev('AUTH_FAILURE', 0)], NOW)[0]!.id).not.toBe(first);
  });

  it.each<[string, number, string[], number]>([
    ['shows 3 of 10', 10, [], 3],
    ['skips dismissed', 10, ['unauthorized-' + minutesAgo(1).getTime()], 3],
    ['fewer than 3 remain', 4, ['unauthorized-' + minutesAgo(1).getTime(), 'unauthorized-' + minutesAgo(2).getTime()], 2],
  ])('visibleAlerts: %s', (_name, count, dismissed, shown) => {
    const alerts = securityAlerts(many('UNAUTHORIZED_ACCESS', ...Array.from({ length: count }, (_, i) => i + 1)), NOW);
    const visible = visibleAlerts(alerts, dismissed);
    expect(visible).toHaveLength(shown);
    expect(visible.some((a) => dismissed.includes(a.id))).toBe(false);
  });
});

describe('limits', () => {
  it('keeps the newest 1000 log entries', () => {
    const events = Array.from({ length: 1005 }, (_, i) => ev('AUTH_FAILURE', i));
    const trimmed = trimSecurityLog(events);
    expect(trimmed).toHaveLength(1000);
    expect(trimmed[999]!.timestamp).toEqual(minutesAgo(999));
  });

  it('has the spec constants', () => {
    expect(MAX_SECURITY_EVENTS_PER_USER).toBe(1000);
    expect(SECURITY_REFRESH_MS).toBe(30_000);
  });
});
