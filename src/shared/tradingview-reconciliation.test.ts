import { describe, expect, it } from 'vitest';
import { reconcileTradingView } from './tradingview-reconciliation';

const sets = (entries: Record<string, string[]>) => new Map(Object.entries(entries).map(([key, names]) => [key, new Set(names)]));

describe('reconcileTradingView', () => {
  const base = {
    scriptIds: ['PUB;a', 'PUB;b'],
    owners: new Map([['lapsed', [{ userId: 'u2', email: 'lapsed@example.com' }]]]),
  };

  it('reports shop-given access of usernames nobody pays for, with the members who used them', () => {
    const findings = reconcileTradingView({
      ...base,
      listed: sets({ 'PUB;a': ['payer', 'lapsed', 'friend'], 'PUB;b': ['payer', 'lapsed'] }),
      shopGiven: sets({ 'PUB;a': ['payer', 'lapsed'], 'PUB;b': ['payer'] }),
      paying: [{ userId: 'u1', email: 'payer@example.com', username: 'Payer', bundle: ['PUB;a', 'PUB;b'] }],
    });
    // 'friend' was given by hand and 'lapsed' on PUB;b too: neither is the shop's to report
    expect(findings.unpaid).toEqual([{ username: 'lapsed', scripts: ['PUB;a'], members: [{ userId: 'u2', email: 'lapsed@example.com' }] }]);
    expect(findings.missing).toEqual([]);
  });

  it('reports paying members missing from some scripts, whatever the case of their username', () => {
    const findings = reconcileTradingView({
      ...base,
      listed: sets({ 'PUB;a': ['payer'], 'PUB;b': [] }),
      shopGiven: sets({}),
      paying: [
        { userId: 'u1', email: 'payer@example.com', username: 'Payer', bundle: ['PUB;a', 'PUB;b'] },
        { userId: 'u3', email: 'new@example.com', username: 'newbie', bundle: ['PUB;a', 'PUB;b'] },
      ],
    });
    expect(findings.missing).toEqual([
      { userId: 'u1', email: 'payer@example.com', username: 'Payer', scripts: ['PUB;b'] },
      { userId: 'u3', email: 'new@example.com', username: 'newbie', scripts: ['PUB;a', 'PUB;b'] },
    ]);
    expect(findings.unpaid).toEqual([]);
  });

  it("judges each member by their plan's bundle: a script outside it is neither missing nor paid for", () => {
    const findings = reconcileTradingView({
      ...base,
      listed: sets({ 'PUB;a': ['monthly_joe'], 'PUB;b': ['monthly_joe'] }),
      shopGiven: sets({ 'PUB;a': ['monthly_joe'], 'PUB;b': ['monthly_joe'] }),
      paying: [
        { userId: 'u1', email: 'joe@example.com', username: 'Monthly_Joe', bundle: ['PUB;a'] },
        { userId: 'u4', email: 'ann@example.com', username: 'yearly_ann', bundle: ['PUB;b'] },
      ],
    });
    expect(findings.unpaid).toEqual([{ username: 'monthly_joe', scripts: ['PUB;b'], members: [] }]);
    expect(findings.missing).toEqual([{ userId: 'u4', email: 'ann@example.com', username: 'yearly_ann', scripts: ['PUB;b'] }]);
  });
});
