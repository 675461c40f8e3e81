import { describe, expect, it } from 'vitest';
import type { MemberDetail } from './admin-contract';
import { memberActionBlocks, memberActionFacts, OPERATOR_COMP_REFUSED, type MemberActionFacts } from './member-actions';

const PAYING: MemberActionFacts = {
  hasAccess: true,
  isOperator: false,
  banned: false,
  hasUsername: true,
  renewing: true,
  lifetime: false,
  paused: false,
};

type Row = MemberDetail['subscriptions'][number];
const row = (changes: Partial<Row>): Row => ({
  id: '1',
  plan: 'monthly',
  status: 'active',
  isActive: true,
  expiresAt: '2099-01-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  provider: 'sandbox',
  providerCustomerId: 'cus_1',
  providerSubscriptionId: 'sub_1',
  checkoutSessionId: null,
  revokedReason: null,
  collectionPaused: false,
  tradingviewUsername: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...changes,
});

const detail = (changes: Partial<Pick<MemberDetail, 'subscriptions' | 'ban' | 'grants' | 'usernameHistory'>> & { status?: MemberDetail['account']['status']; isOperator?: boolean } = {}) => ({
  account: {
    id: 'm',
    email: 'm@example.com',
    name: 'm',
    createdAt: '2026-01-01T00:00:00.000Z',
    emailVerified: true,
    status: changes.status ?? 'active',
    isOperator: changes.isOperator ?? false,
  },
  subscriptions: changes.subscriptions ?? [],
  ban: changes.ban ?? null,
  grants: changes.grants ?? [],
  usernameHistory: changes.usernameHistory ?? [],
});

describe('memberActionBlocks', () => {
  it('offers every action to a paying member', () => {
    expect(Object.values(memberActionBlocks(PAYING)).every((block) => block === null)).toBe(true);
  });

  it('gives no access to revoke, no grant to retry and no plan to pause for a member who never bought', () => {
    const blocks = memberActionBlocks(memberActionFacts(detail({ status: 'none' })));
    expect(blocks.revokeAccess).toBe('This member has no access to revoke.');
    expect(blocks.retryGrant).toBe('No TradingView username is linked yet: there is no grant to retry.');
    expect(blocks.freeDays).toBe('This member has no renewing subscription to add free days to.');
    expect(blocks.collection).toBe('This member has no renewing subscription to pause.');
    expect(blocks.grantComp).toBeNull();
    expect(blocks.ban).toBeNull();
  });

  it('refuses comp access and a ban to an operator', () => {
    const blocks = memberActionBlocks({ ...PAYING, isOperator: true });
    expect(blocks.grantComp).toBe(OPERATOR_COMP_REFUSED);
    expect(blocks.ban).toBe('An operator of this shop: take away their console access before a ban.');
  });

  it('says a banned member is banned already and gets no comp access', () => {
    const blocks = memberActionBlocks({
      ...PAYING,
      banned: true,
      hasAccess: false,
      renewing: false,
    });
    expect(blocks.ban).toBe('This member is banned already.');
    expect(blocks.grantComp).toBe('This member is banned: a ban keeps access off.');
  });

  it('names lifetime as paid once, and a paused plan as one to resume', () => {
    expect(memberActionBlocks({ ...PAYING, renewing: false, lifetime: true }).freeDays).toBe('Lifetime access is paid once and never ends: there is nothing to add free days to.');
    expect(memberActionBlocks({ ...PAYING, renewing: false, paused: true }).collection).toBe('This member has no renewing subscription to resume.');
  });
});

describe('memberActionFacts', () => {
  it('counts only renewing rows at a provider that were not revoked', () => {
    expect(memberActionFacts(detail({ subscriptions: [row({})] })).renewing).toBe(true);
    expect(memberActionFacts(detail({ subscriptions: [row({ status: 'canceled' })] })).renewing).toBe(false);
    expect(memberActionFacts(detail({ subscriptions: [row({ revokedReason: 'banned' })] })).renewing).toBe(false);
    expect(
      memberActionFacts(
        detail({
          subscriptions: [row({ provider: 'comp', providerSubscriptionId: null })],
        }),
      ).renewing,
    ).toBe(false);
    expect(memberActionFacts(detail({ subscriptions: [row({ collectionPaused: true })] })).paused).toBe(true);
  });

  it('reads lifetime, access from the standing, and a username from the current link or grant rows', () => {
    expect(
      memberActionFacts(
        detail({
          subscriptions: [
            row({
              plan: 'lifetime',
              providerSubscriptionId: null,
              expiresAt: null,
            }),
          ],
        }),
      ).lifetime,
    ).toBe(true);
    expect(memberActionFacts(detail({ status: 'past_due' })).hasAccess).toBe(true);
    expect(memberActionFacts(detail({ status: 'churned' })).hasAccess).toBe(false);
    expect(
      memberActionFacts(
        detail({
          usernameHistory: [
            {
              username: 'a',
              linkedAt: 'x',
              linkedBy: 'member',
              replacedAt: null,
              endedBy: null,
            },
          ],
        }),
      ).hasUsername,
    ).toBe(true);
    expect(
      memberActionFacts(
        detail({
          usernameHistory: [
            {
              username: 'a',
              linkedAt: 'x',
              linkedBy: 'member',
              replacedAt: 'y',
              endedBy: 'member',
            },
          ],
        }),
      ).hasUsername,
    ).toBe(false);
  });
});
