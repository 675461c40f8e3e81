import { describe, expect, it } from 'vitest';
import { freeDaysEnd, freeDaysLeft, isPausedAccess } from './support-actions';

describe('free days', () => {
  const now = new Date('2030-01-10T12:00:00Z');

  it('count from the end of the paid time', () => {
    expect(freeDaysEnd(new Date('2030-02-01T00:00:00Z'), now, 7)).toEqual(new Date('2030-02-08T00:00:00Z'));
  });

  it('count from now when the paid time has already ended (a failing renewal)', () => {
    expect(freeDaysEnd(new Date('2030-01-01T00:00:00Z'), now, 1)).toEqual(new Date('2030-01-11T12:00:00Z'));
  });
});

describe('the free days a plan can still take', () => {
  const now = new Date('2030-01-10T00:00:00Z');
  it('are what is left of two years after its paid time', () => {
    expect(freeDaysLeft(new Date('2030-02-09T00:00:00Z'), now)).toBe(700);
    expect(freeDaysLeft(new Date('2029-12-01T00:00:00Z'), now)).toBe(730);
    expect(freeDaysLeft(new Date('2032-02-01T00:00:00Z'), now)).toBe(0);
  });
});

describe('access while paused', () => {
  it('is keep or stop, nothing else', () => {
    expect(['keep', 'stop', 'maybe', null].map(isPausedAccess)).toEqual([true, true, false, false]);
  });
});
