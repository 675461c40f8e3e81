import { describe, expect, it } from 'vitest';
import { alertTransition } from './operator-alerts';

describe('alertTransition', () => {
  const reading = (firing: boolean) => ({ key: 'grant_failing' as const, firing, detail: null });

  it('fires when the condition starts, from no state or an inactive one', () => {
    expect(alertTransition(null, reading(true))).toBe('fire');
    expect(alertTransition({ key: 'grant_failing', active: false }, reading(true))).toBe('fire');
  });

  it('does nothing while the condition lasts or stays absent', () => {
    expect(alertTransition({ key: 'grant_failing', active: true }, reading(true))).toBe('none');
    expect(alertTransition({ key: 'grant_failing', active: false }, reading(false))).toBe('none');
    expect(alertTransition(null, reading(false))).toBe('none');
  });

  it('resolves when the condition clears', () => {
    expect(alertTransition({ key: 'grant_failing', active: true }, reading(false))).toBe('resolve');
  });
});
