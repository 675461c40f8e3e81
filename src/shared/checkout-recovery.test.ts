import { describe, expect, it } from 'vitest';
import { recoveryDecision, type RecoveryFacts } from './checkout-recovery';

const now = new Date('2026-11-29T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const facts = (overrides: Partial<RecoveryFacts> = {}): RecoveryFacts => ({
  email: 'a@example.com',
  paid: false,
  optedOut: false,
  lastMailAt: null,
  boughtSince: false,
  ...overrides,
});

describe('recoveryDecision', () => {
  it.each<[Partial<RecoveryFacts>, string]>([
    [{}, 'send'],
    [{ email: null }, 'no_email'],
    [{ paid: true }, 'paid'],
    [{ optedOut: true }, 'opted_out'],
    [{ boughtSince: true }, 'bought_since'],
    [{ lastMailAt: new Date(now.getTime() - 6 * DAY_MS) }, 'mailed_recently'],
    [{ lastMailAt: new Date(now.getTime() - 7 * DAY_MS) }, 'send'],
  ])('%j → %s', (overrides, decision) => {
    expect(recoveryDecision(facts(overrides), now)).toBe(decision);
  });
});
