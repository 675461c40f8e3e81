import { describe, expect, it } from 'vitest';
import { decideThrottle, throttleExpiresAt, type BackoffRule, type ThrottleState, type WindowRule } from './throttle';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const WINDOW: WindowRule = { kind: 'window', max: 3, windowMs: 60_000 };
const BACKOFF: BackoffRule = { kind: 'backoff', free: 2, firstDelayMs: 1_000, maxDelayMs: 4_000, forgetAfterMs: 3_600_000 };

/** Runs attempts at the given times and reports which were allowed. */
function run(rule: WindowRule | BackoffRule, times: number[], initial: ThrottleState | null = null): boolean[] {
  let state = initial;
  return times.map((t) => {
    const decision = decideThrottle(state, rule, at(t));
    if (decision.allowed) state = decision.next;
    return decision.allowed;
  });
}

describe('decideThrottle: fixed window', () => {
  it.each<[string, number[], boolean[]]>([
    ['max attempts pass', [0, 1, 2], [true, true, true]],
    ['the next one in the window is refused', [0, 1, 2, 3, 59_999], [true, true, true, false, false]],
    ['a new window starts after windowMs', [0, 1, 2, 3, 60_000, 60_001], [true, true, true, false, true, true]],
  ])('%s', (_name, times, expected) => {
    expect(run(WINDOW, times)).toEqual(expected);
  });

  it('says how long to wait', () => {
    const full: ThrottleState = { hits: 3, since: T0, blockedUntil: null };
    expect(decideThrottle(full, WINDOW, at(15_000))).toEqual({ allowed: false, retryAfterMs: 45_000 });
  });
});

describe('decideThrottle: back-off', () => {
  it.each<[string, number[], boolean[]]>([
    ['free attempts pass at once', [0, 1], [true, true]],
    ['after the free ones the next waits firstDelayMs', [0, 1, 2, 999, 1_001], [true, true, false, false, true]],
    // waits double: 1 s after the 2nd, 2 s after the 3rd, 4 s (the cap) after the 4th and later
    ['the wait doubles up to the cap', [0, 1, 1_001, 3_000, 3_002, 7_001, 7_003, 11_002, 11_004], [true, true, true, false, true, false, true, false, true]],
    ['quiet for forgetAfterMs starts over', [0, 1, 3_600_002, 3_600_003], [true, true, true, true]],
  ])('%s', (_name, times, expected) => {
    expect(run(BACKOFF, times)).toEqual(expected);
  });

  it('cannot be reset by refused attempts: they are not counted', () => {
    const blocked: ThrottleState = { hits: 2, since: T0, blockedUntil: at(1_000) };
    expect(decideThrottle(blocked, BACKOFF, at(500))).toEqual({ allowed: false, retryAfterMs: 500 });
  });
});

describe('throttleExpiresAt', () => {
  it('is the end of the window, or of the back-off memory and block', () => {
    expect(throttleExpiresAt({ hits: 1, since: T0, blockedUntil: null }, WINDOW)).toEqual(at(60_000));
    expect(throttleExpiresAt({ hits: 9, since: T0, blockedUntil: at(4_000) }, BACKOFF)).toEqual(at(3_600_000));
  });
});
