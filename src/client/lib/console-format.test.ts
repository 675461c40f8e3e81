import { describe, expect, it } from 'vitest';
import { PLAN_TYPES } from '@shared/plans';
import { accountStatusLabel, ageText, dateText, dateTimeText, accountLinkLabel, grantQueueLabel, moneyText, orderStatusLabel, planLabel, providerLabel, revokedReasonLabel, roleChangeLabel, subscriptionStatusLabel } from './console-format';

describe('console formatting', () => {
  const now = new Date('2030-01-10T12:00:00Z');

  it('says how long ago in minutes, hours or days', () => {
    expect(ageText('2030-01-10T11:43:00Z', now)).toBe('17 min');
    expect(ageText('2030-01-10T09:00:00Z', now)).toBe('3 h');
    expect(ageText('2030-01-07T12:00:00Z', now)).toBe('3 d');
    expect(ageText('2030-01-10T12:05:00Z', now)).toBe('0 min');
  });

  it('writes money from minor units, one amount per currency, and times in UTC', () => {
    expect(moneyText([{ amount: 3600, currency: 'usd' }, { amount: 2999, currency: 'eur' }])).toBe('$36.00 + €29.99');
    expect(moneyText([])).toBe('$0.00');
    expect(dateTimeText('2030-01-10T12:00:00Z', 'en-US', 'UTC')).toBe('Jan 10, 2030, 12:00 PM UTC');
    expect(dateTimeText(null)).toBe('—');
  });

  it('writes dates in the operator’s locale and time zone (#46)', () => {
    expect(dateTimeText('2030-01-10T12:00:00Z', 'de-DE', 'Europe/Berlin')).toMatch(/^10\. Jan\. 2030, 13:00/);
    expect(dateText('2030-01-10T23:30:00Z', 'en-GB', 'Asia/Tokyo')).toBe('11 Jan 2030');
  });

  it('labels every plan and comp, tells the EU variants apart, and shows anything else as stored', () => {
    expect(PLAN_TYPES.map(planLabel)).toEqual(['Monthly', 'Quarterly', 'Yearly', 'Lifetime', 'EU Monthly', 'EU Quarterly']);
    expect(planLabel('comp')).toBe('Comp');
    expect(planLabel('weekly')).toBe('weekly');
    expect(planLabel('toString')).toBe('toString');
    expect(planLabel(null)).toBe('—');
  });

  it('says statuses in words, and reads one it has no label for as words too (#46)', () => {
    expect(subscriptionStatusLabel('past_due')).toBe('Renewal failed');
    expect(subscriptionStatusLabel('trialing')).toBe('Free time before the next charge');
    expect(subscriptionStatusLabel('some_new_state')).toBe('Some new state');
    expect(subscriptionStatusLabel('toString')).toBe('ToString');
    expect(orderStatusLabel('dispute_lost')).toBe('Dispute lost');
    expect(revokedReasonLabel('operator')).toBe('revoked by an operator');
    expect(providerLabel('comp')).toBe('Complimentary');
  });

  it('says a TradingView grant in the queue and a Discord account in words, not codes (#46)', () => {
    expect(grantQueueLabel('processing', 'grant')).toBe('Being sent');
    expect(grantQueueLabel('failed', 'grant')).toBe('Failed');
    expect(grantQueueLabel('pending', 'revoke')).toBe('Pending (removal wanted)');
    expect(grantQueueLabel('revoked', 'revoke')).toBe('Revoked');
    expect(accountStatusLabel('roles')('processing')).toBe('Updating roles');
    expect(accountStatusLabel('roles')('synced')).toBe('Synced');
    expect(accountStatusLabel('chats')('processing')).toBe('Updating chats');
    expect([accountLinkLabel(true), accountLinkLabel(false)]).toEqual(['Current', 'Old']);
    expect([roleChangeLabel('added'), roleChangeLabel('removed')]).toEqual(['Given back', 'Taken away']);
  });
});
