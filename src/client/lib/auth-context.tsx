import { createContext, useContext, type ReactNode } from 'react';

// The auth state's shape and its context, apart from the provider (auth-state.tsx, react-query), so
// that the pre-rendered landing page can hydrate without react-query (docs/decisions/015).

export type SessionUser = { id: string; email: string; name: string; createdAt: string };
export type SessionInfo = { id: string; expiresAt: string };

/** The premium security state: whether access is known yet, granted or not, and whether the last check could be trusted. */
export type PremiumState = {
  isLoading: boolean;
  isPremium: boolean;
  hasAccess: boolean | 'unknown';
  isSecurityValid: boolean;
  lastSecurityCheck: Date | null;
  error: string | null;
};

export type AuthState = {
  user: SessionUser | null;
  session: SessionInfo | null;
  /** True until the first answer about the session cookie arrived. */
  isLoading: boolean;
  premium: PremiumState;
  /** Re-reads the session of the session cookie, e.g. after signing in. */
  refreshSession: () => Promise<void>;
  /** Asks the server again whether the user has premium access (false with no user). */
  refreshAccess: () => Promise<boolean>;
  /** Clears local state, ends the server session, then reloads (or goes to `redirectTo`). */
  signOut: (redirectTo?: string) => Promise<void>;
};

export const NON_PREMIUM: PremiumState = { isLoading: false, isPremium: false, hasAccess: false, isSecurityValid: true, lastSecurityCheck: null, error: null };

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs <AuthProvider>');
  return state;
}

const reload = async (redirectTo?: string) => {
  if (redirectTo) window.location.assign(redirectTo);
  else window.location.reload();
};

const ANONYMOUS: AuthState = {
  user: null,
  session: null,
  isLoading: false,
  premium: NON_PREMIUM,
  refreshSession: reload,
  refreshAccess: async () => false,
  signOut: reload,
};

/**
 * The auth state of a visitor the server knows has no session (no session cookie: it then sends
 * the pre-rendered landing page). Signing in happens on /auth, a page of the app, so the state of
 * this page never changes; refreshSession reloads, which asks the server again.
 */
export function AnonymousAuthProvider({ children }: { children: ReactNode }) {
  return <AuthContext.Provider value={ANONYMOUS}>{children}</AuthContext.Provider>;
}
