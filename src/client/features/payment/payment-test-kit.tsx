// Test helpers for the payment pages: the shared render and fetch helpers of src/client/test, with
// a signed-out visitor without access by default and stand-ins for the pages they lead to.
import type { RouteObject } from 'react-router';
import type { SiteSettings } from '@shared/site';
import { resetTrackingForTests } from '@client/lib/tracking';
import { Landed, renderWithAuth, resetAfterTest, stubApi, TEST_SITE_SETTINGS, type ApiRoute } from '@client/test/render';

export const BUYER = { id: 'user-1', email: 'buyer@example.com', name: 'buyer', createdAt: '2026-01-01T00:00:00.000Z' };
export const signedIn = (user = BUYER, sessionId = 'session-1') => ({ body: { user, session: { id: sessionId, expiresAt: '2099-01-01T00:00:00.000Z' } } });
export const signedOut = { body: null };

/** Replaces `fetch` with a table of routes ('METHOD /path'); unknown routes answer 404. */
export function mockApi(routes: Record<string, ApiRoute>) {
  return stubApi({ 'GET /api/auth/get-session': signedOut, 'GET /api/access': { body: { hasAccess: false } }, ...routes });
}

const DESTINATIONS = { '/': 'Home page', '/eu': 'EU page', '/auth': 'Sign-in page', '/dashboard': 'Dashboard page' };

/** Renders `routes` (plus stand-ins for the pages they lead to) inside the app's providers; the last entry is opened. */
export function renderPage(routes: RouteObject[], initialEntries: string[], settings: SiteSettings = TEST_SITE_SETTINGS) {
  const destinations = Object.entries(DESTINATIONS).map(([path, name]) => ({ path, element: <Landed name={name} /> }));
  return renderWithAuth([...routes, ...destinations], { path: initialEntries, settings, queries: { refetchOnWindowFocus: false } });
}

/** Run after each test: the shared reset, and the tracking pixel forgets what it sent. */
export function resetPaymentTest() {
  resetAfterTest();
  resetTrackingForTests();
}
