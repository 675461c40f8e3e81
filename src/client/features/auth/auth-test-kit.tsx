// Test harness for the account screens: the shared render and fetch helpers of src/client/test,
// with a signed-out visitor and stand-ins for the pages these screens lead to.
import type { ReactElement } from 'react';
import { APP_QUERY_DEFAULTS, Landed, renderWithAuth, stubApi, type ApiRoute } from '@client/test/render';

export const TEST_USER = { id: 'u-1', email: 'ada@example.com', name: 'ada', createdAt: '2025-01-01T00:00:00.000Z' };
export const sessionBody = (id = 's-1') => ({ user: TEST_USER, session: { id, expiresAt: '2099-01-01T00:00:00.000Z' } });

/** Replaces `fetch` with a table of routes ('METHOD /path'); nobody is signed in unless a route says so. */
export function mockApi(routes: Record<string, ApiRoute>) {
  return stubApi({ 'GET /api/auth/get-session': { body: null }, ...routes });
}

const DESTINATIONS = {
  '/': 'Home page',
  '/eu': 'EU home page',
  '/auth': 'Sign-in page',
  '/dashboard': 'Dashboard',
  '/dashboard/*': 'Dashboard',
  '/premium-access-required': 'Premium access required',
  '/forgot-password': 'Forgot password page',
  '/admin': 'Operator console',
};

/** Renders `element` at `url` with the providers and stand-ins for the pages it may go to. */
export function renderAt(path: string, element: ReactElement, url: string) {
  const destinations = Object.entries(DESTINATIONS).map(([to, name]) => ({ path: to, element: <Landed name={name} testId="destination" /> }));
  return renderWithAuth([{ path, element }, ...destinations], { path: url, queries: APP_QUERY_DEFAULTS });
}
