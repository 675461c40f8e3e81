import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AccessResponse } from '@shared/api-contract';
import {
  ACCESS_REFRESH_ATTEMPTS,
  ACCESS_REFRESH_RETRY_MS,
  ACCESS_RPC_MAX_ATTEMPTS,
  SIGN_IN_ACCESS_CHECK_DELAY_MS,
  accessRpcDelay,
  sessionRetryDelay,
} from '@shared/timing';
import { ApiRequestError, api } from './api/api-client';
import { AuthContext, NON_PREMIUM, type AuthState, type PremiumState, type SessionInfo, type SessionUser } from './auth-context';
import { isRetriableFailure, shouldRetry } from './query-client';

// The state's types and useAuth live in auth-context.ts, which the landing page's first download
// can import without react-query.
export { useAuth, type AuthState, type PremiumState, type SessionInfo, type SessionUser } from './auth-context';

type SessionPayload = { user: SessionUser; session: SessionInfo } | null;

export const SESSION_QUERY_KEY = ['auth', 'session'] as const;
const ACCESS_QUERY_ROOT = ['auth', 'access'] as const;
const accessKey = (userId: string | undefined) => [...ACCESS_QUERY_ROOT, userId] as const;

const isSessionQuery = (query: Query) => query.queryKey[0] === SESSION_QUERY_KEY[0] && query.queryKey[1] === SESSION_QUERY_KEY[1];

/** A 401 is the server's answer that there is no session, like a 200 with null. */
const fetchSession = () =>
  api<SessionPayload>('/api/auth/get-session').catch((error: unknown) => {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  });

/**
 * Failures that say nothing about the session: no answer, a time-out, rate limiting or a server
 * error. Reading them as "signed out" would send a member to /auth during a short outage.
 */
function isSessionCheckTransient(error: unknown): boolean {
  return isRetriableFailure(error) || (error instanceof ApiRequestError && (error.status === 408 || error.status === 429));
}
// Checked by hand rather than with the zod schema: this runs on every page, and zod would add
// ~24 kB to the first download of the landing page.
const fetchAccess = () =>
  api<AccessResponse>('/api/access').then((result) => {
    if (typeof result?.hasAccess !== 'boolean') throw new Error('Unexpected answer from the access check.');
    return result.hasAccess;
  });

const UNKNOWN: PremiumState = { isLoading: true, isPremium: false, hasAccess: 'unknown', isSecurityValid: true, lastSecurityCheck: null, error: null };

/**
 * The one source of the signed-in user, the session and the premium state: premium is
 * loading, then premium or non-premium; a failed check means non-premium with invalid security.
 * Every new session (a sign-in) puts access back to unknown and checks it about 100 ms later.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Transient failures are retried without a limit: until a real answer arrives the query keeps the
  // last known session, or stays pending (loading) when there is none yet, instead of erring into
  // "signed out". Retries pause while the tab is hidden or the browser offline.
  const sessionQuery = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    staleTime: 60_000,
    retry: (_failures, error) => isSessionCheckTransient(error),
    retryDelay: sessionRetryDelay,
  });
  const user = sessionQuery.data?.user ?? null;
  const sessionId = sessionQuery.data?.session.id ?? null;

  // Keyed by session, not user: signing in again as the same person is a sign-in too.
  const [checkedSession, setCheckedSession] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    queryClient.removeQueries({ queryKey: ACCESS_QUERY_ROOT });
    const timer = setTimeout(() => setCheckedSession(sessionId), SIGN_IN_ACCESS_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [sessionId, queryClient]);
  const accessArmed = sessionId !== null && checkedSession === sessionId;

  const accessQuery = useQuery({
    queryKey: accessKey(user?.id),
    queryFn: fetchAccess,
    enabled: Boolean(user) && accessArmed,
    retry: (failures, error) => shouldRetry(failures, error, ACCESS_RPC_MAX_ATTEMPTS - 1),
    retryDelay: (failures) => accessRpcDelay(failures + 1),
    staleTime: 30_000,
  });

  // With no user, nothing of the previous user's may stay cached.
  const previousUserId = useRef<string | null>(null);
  useEffect(() => {
    if (!sessionQuery.isSuccess) return;
    if (previousUserId.current !== null && user === null) {
      queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
    }
    previousUserId.current = user?.id ?? null;
  }, [sessionQuery.isSuccess, user, queryClient]);

  const premium = useMemo<PremiumState>(() => {
    if (sessionQuery.isPending) return UNKNOWN;
    if (!user) return NON_PREMIUM;
    if (!accessArmed) return UNKNOWN;
    if (accessQuery.isError) {
      return { ...NON_PREMIUM, isSecurityValid: false, error: accessQuery.error.message, lastSecurityCheck: new Date(accessQuery.errorUpdatedAt) };
    }
    if (accessQuery.data === undefined) return UNKNOWN;
    return {
      isLoading: false,
      isPremium: accessQuery.data,
      hasAccess: accessQuery.data,
      isSecurityValid: true,
      lastSecurityCheck: new Date(accessQuery.dataUpdatedAt),
      error: null,
    };
  }, [sessionQuery.isPending, user, accessArmed, accessQuery.isError, accessQuery.error, accessQuery.errorUpdatedAt, accessQuery.data, accessQuery.dataUpdatedAt]);

  const refreshSession = useCallback(async () => {
    await queryClient.refetchQueries({ queryKey: SESSION_QUERY_KEY, exact: true });
  }, [queryClient]);

  const refreshAccess = useCallback(async () => {
    const current = queryClient.getQueryData<SessionPayload>(SESSION_QUERY_KEY)?.user;
    if (!current) return false;
    return queryClient.fetchQuery({
      queryKey: accessKey(current.id),
      queryFn: fetchAccess,
      staleTime: 0,
      // access refresh after actions: 3 tries 1 s apart
      retry: (failures, error) => shouldRetry(failures, error, ACCESS_REFRESH_ATTEMPTS - 1),
      retryDelay: ACCESS_REFRESH_RETRY_MS,
    });
  }, [queryClient]);

  const signOut = useCallback(
    async (redirectTo?: string) => {
      // Remember where we are: guards react to the cleared state and may navigate meanwhile.
      const here = window.location.href;
      await queryClient.cancelQueries();
      queryClient.setQueryData<SessionPayload>(SESSION_QUERY_KEY, null);
      queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
      // The server may already have forgotten the session (401/403/404); that is still signed out.
      await api('/api/auth/sign-out', { method: 'POST', body: {} }).catch(() => undefined);
      if (redirectTo) window.location.assign(redirectTo);
      else if (window.location.href === here) window.location.reload();
      else window.location.assign(here);
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
