import { describe, expect, it } from 'vitest';
import { alertTransition, LOCAL_ALERT_HOLD_MS } from './operator-alerts';

const NOW = new Date('2026-11-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('alertTransition', () => {
  const reading = (firing: boolean) => ({ key: 'grant_failing' as const, firing, detail: null });

  it('fires when the condition starts, from no state or an inactive one', () => {
    expect(alertTransition(null, reading(true), NOW)).toBe('fire');
    expect(alertTransition({ key: 'grant_failing', active: false }, reading(true), NOW)).toBe('fire');
  });

  it('does nothing while the condition lasts or stays absent', () => {
    expect(alertTransition({ key: 'grant_failing', active: true }, reading(true), NOW)).toBe('none');
    expect(alertTransition({ key: 'grant_failing', active: false }, reading(false), NOW)).toBe('none');
    expect(alertTransition(null, reading(false), NOW)).toBe('none');
  });

  it('resolves when the condition clears', () => {
    expect(alertTransition({ key: 'grant_failing', active: true }, reading(false), NOW)).toBe('resolve');
    expect(alertTransition({ key: 'grant_failing', active: true, checkedAt: ago(1000) }, reading(false), NOW)).toBe('resolve');
  });
});

describe('alertTransition with a reading of one instance’s memory', () => {
  const local = (firing: boolean) => ({ key: 'webhook_signature' as const, firing, detail: null, local: true });
  const on = (confirmedAgoMs: number) => ({ key: 'webhook_signature' as const, active: true, checkedAt: ago(confirmedAgoMs) });

  it('leaves on an alert another instance confirmed within the hold, without noting the check', () => {
    expect(alertTransition(on(0), local(false), NOW)).toBe('hold');
    expect(alertTransition(on(LOCAL_ALERT_HOLD_MS - 1), local(false), NOW)).toBe('hold');
  });

  it('resolves it once nobody confirmed it for the hold', () => {
    expect(alertTransition(on(LOCAL_ALERT_HOLD_MS), local(false), NOW)).toBe('resolve');
    expect(alertTransition({ key: 'webhook_signature', active: true, checkedAt: null }, local(false), NOW)).toBe('resolve');
  });

  it('fires and confirms as any reading does', () => {
    expect(alertTransition(null, local(true), NOW)).toBe('fire');
    expect(alertTransition(on(LOCAL_ALERT_HOLD_MS * 10), local(true), NOW)).toBe('none');
  });
});
