import type { SubscriptionViewDto } from '@shared/api-contract';

/** GET /api/subscription for someone who never bought anything. */
export const NO_SUBSCRIPTION: SubscriptionViewDto = {
  planType: null,
  isActive: false,
  isCanceled: false,
  status: null,
  expiresAt: null,
  purchaseDate: null,
  amount: null,
  currency: null,
  tradingviewUsername: null,
  canCancel: false,
  latestPlanType: null,
  boughtOn: null,
};

/** GET /api/auth/get-session for a signed-in `email`. */
export const signedInAs = (email: string) => ({
  body: { user: { id: '11111111-1111-4111-8111-111111111111', email, name: 'x', createdAt: '2025-01-01T00:00:00.000Z' }, session: { id: 's', expiresAt: '2099-01-01T00:00:00.000Z' } },
});

/** What the operator console asks before any of its pages opens: an operator's session and standing, and no alert. */
export const OPERATOR_CONSOLE_ROUTES = {
  'GET /api/auth/get-session': signedInAs('operator@example.com'),
  'GET /api/operator': { body: { operator: true, standing: 'operator' } },
  'GET /api/admin/alerts': { body: { alerts: [] } },
};
