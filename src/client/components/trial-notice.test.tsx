import { describe, expect, it } from 'vitest';
import type { MemberTrial } from '@shared/trials-contract';
import { trialNoticeText } from './trial-notice';

const TRIAL: MemberTrial = { planType: 'monthly', outcome: 'running', startedAt: '2026-03-01T12:00:00.000Z', endsAt: '2026-03-08T12:00:00.000Z', amount: 3600, currency: 'usd', repeatReason: null };

describe('what settings say about a trial', () => {
  it('a running trial: when it ends and what is then charged', () => {
    expect(trialNoticeText(TRIAL, false)).toMatch(/^Free trial until March [78], 2026\. Then \$36\.00\/month is charged unless you cancel before\.$/);
  });
  it('a canceled trial: it ends, nothing charged', () => {
    expect(trialNoticeText(TRIAL, true)).toMatch(/It is canceled: nothing will be charged\.$/);
  });
  it('a refused repeat: why, and what was charged', () => {
    expect(trialNoticeText({ ...TRIAL, outcome: 'refused_repeat', repeatReason: 'tradingview_username' }, false)).toBe(
      'No free trial: This TradingView username already had a free trial. Free trials are one per person, so your plan started now and $36.00 was charged.',
    );
  });
  it('a converted or canceled trial says nothing', () => {
    expect(trialNoticeText({ ...TRIAL, outcome: 'converted' }, false)).toBeNull();
  });
});
