// Pages that must never be a post-sign-in target: they would send a signed-in user in circles.
const AUTH_PAGES = ['/auth', '/forgot-password', '/reset-password'];

/**
 * The `redirect` query value if it is a path on this site, else null. Only same-site paths are
 * followed: `//evil.example` or `https://evil.example` would turn the sign-in page into an open
 * redirect.
 */
export function safeRedirectTarget(raw: string | null): string | null {
  if (!raw) return null;
  const value = raw.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://same.site');
  } catch {
    return null;
  }
  if (url.origin !== 'http://same.site') return null;
  if (AUTH_PAGES.some((page) => url.pathname === page || url.pathname.startsWith(`${page}/`))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
