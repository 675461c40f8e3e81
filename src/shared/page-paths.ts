// The pages the app has, so that the server answers any other address with HTTP 404 (while still
// sending the app, which shows its 'Oops! Page not found' page). The client's router is checked
// against this list by a test (src/client/app/page-paths.test.tsx): a new page is added in both.

/** Pages at exactly these addresses. */
export const APP_PAGE_PATHS: readonly string[] = [
  '/',
  '/eu',
  '/auth',
  '/forgot-password',
  '/reset-password',
  '/operator-invitation',
  '/payment-success',
  '/payment-canceled',
  '/premium-access-required',
  '/disclaimer',
  '/terms-of-service',
  '/privacy-policy',
  '/contact',
  '/refer',
];

/**
 * Areas whose pages the client routes by itself (the member area, the operator console, the
 * sandbox's pages): every address under them is answered 200 and the area shows its own 404.
 */
export const APP_PAGE_AREAS: readonly string[] = ['/dashboard', '/admin', '/sandbox'];

/** Whether `pathname` is one of the app's pages (a trailing slash is the same page). */
export function isAppPagePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  if (APP_PAGE_PATHS.includes(path)) return true;
  return APP_PAGE_AREAS.some((area) => path === area || path.startsWith(`${area}/`));
}
