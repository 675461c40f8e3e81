import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ACCESS_CHECK_ATTEMPTS, accessRpcDelay, ACCESS_CHECK_AFTER_SIGN_IN_MS } from '@shared/timing';
import { api } from './api-client';

export type SessionUser = { id: string; email: string; name: string; createdAt: string };
type SessionPayload = { user: SessionUser; session: { id: string; expiresAt: string } } | null;

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
  session: { id: string; expiresAt: string } | null;
  isLoading: boolean;
  premium: PremiumState;
  /** Re-reads the session cookie's session, e.g. after signing in. */
  refreshSession: () => Promise<void>;
  /** Asks the server again whether the user has premium access. */
  refreshAccess: () => Promise<boolean>;
  /** Clears local state, ends the server session, then reloads (or goes to `redirectTo`). */
  signOut: (redirectTo?: string) => Promise<void>;
};

const SESSION_KEY = ['auth', 'session'] as const;
const accessKey = (userId: string | undefined) => ['auth', 'access', userId] as const;

const AuthContext = createContext<AuthState | null>(null);

const fetchSession = () => api<SessionPayload>('/api/auth/get-session');
const fetchAccess = () => api<{ hasAccess: boolean }>('/api/access').then((result) => result.hasAccess);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const sessionQuery = useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000 });
  const user = sessionQuery.data?.user ?? null;

  // On sign-in access goes back to unknown and is checked shortly after (spec §4: about 100 ms).
  const [armedFor, setArmedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!user) return;
    const timer = setTimeout(() => setArmedFor(user.id), ACCESS_CHECK_AFTER_SIGN_IN_MS);
    return () => clearTimeout(timer);
  }, [user]);

  const accessQuery = useQuery({
    queryKey: accessKey(user?.id),
    queryFn: fetchAccess,
    enabled: Boolean(user) && armedFor === user?.id,
    retry: ACCESS_CHECK_ATTEMPTS - 1,
    retryDelay: (attempt) => accessRpcDelay(attempt + 1),
    staleTime: 30_000,
  });

  // With no user, drop whatever was cached for the previous one.
  useEffect(() => {
    if (sessionQuery.isSuccess && !user) queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
  }, [sessionQuery.isSuccess, user, queryClient]);

  const premium = useMemo<PremiumState>(() => {
    if (sessionQuery.isPending) return { ...UNKNOWN, isLoading: true };
    if (!user) return NON_PREMIUM;
    if (accessQuery.isError) return { ...NON_PREMIUM, isSecurityValid: false, error: accessQuery.error.message, lastSecurityCheck: new Date() };
    if (accessQuery.data === undefined) return { ...UNKNOWN, isLoading: true };
    return {
      isLoading: false,
      isPremium: accessQuery.data,
      hasAccess: accessQuery.data,
      isSecurityValid: true,
      lastSecurityCheck: new Date(accessQuery.dataUpdatedAt),
      error: null,
    };
  }, [sessionQuery.isPending, user, accessQuery.isError, accessQuery.error, accessQuery.data, accessQuery.dataUpdatedAt]);

  const refreshSession = useCallback(async () => {
    queryClient.removeQueries({ queryKey: ['auth', 'access'] });
    await queryClient.refetchQueries({ queryKey: SESSION_KEY });
  }, [queryClient]);

  const refreshAccess = useCallback(async () => {
    const current = queryClient.getQueryData<SessionPayload>(SESSION_KEY)?.user;
    if (!current) return false;
    return queryClient.fetchQuery({ queryKey: accessKey(current.id), queryFn: fetchAccess, staleTime: 0 });
  }, [queryClient]);

  const signOut = useCallback(
    async (redirectTo?: string) => {
      queryClient.clear();
      await api('/api/auth/sign-out', { method: 'POST', body: {} }).catch(() => undefined);
      if (redirectTo) window.location.assign(redirectTo);
      else window.location.reload();
    },
    [queryClient],
  );

  const value = useMemo<AuthState>(
    () => ({
      user,
      session: sessionQuery.data?.session ?? null,
      isLoading: sessionQuery.isPending,
      premium,
      refreshSession,
      refreshAccess,
      signOut,
    }),
    [user, sessionQuery.data, sessionQuery.isPending, premium, refreshSession, refreshAccess, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

const UNKNOWN: PremiumState = { isLoading: true, isPremium: false, hasAccess: 'unknown', isSecurityValid: true, lastSecurityCheck: null, error: null };
const NON_PREMIUM: PremiumState = { isLoading: false, isPremium: false, hasAccess: false, isSecurityValid: true, lastSecurityCheck: null, error: null };

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs <AuthProvider>');
  return state;
}
