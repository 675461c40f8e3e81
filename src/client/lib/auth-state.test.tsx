import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGN_IN_ACCESS_CHECK_DELAY_MS } from '@shared/timing';
import { sessionRetryDelay } from '@shared/timing';
import { AuthProvider, useAuth, type AuthState } from './auth-state';
import { createQueryClient } from './query-client';

type Reply = { status?: number; body?: unknown } | (() => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>);
type Call = { method: string; path: string; at: number };

const USER = { id: 'u-1', email: 'ada@example.com', name: 'ada', createdAt: '2025-01-01T00:00:00.000Z' };
const sessionOf = (id: string) => ({ user: USER, session: { id, expiresAt: '2099-01-01T00:00:00.000Z' } });

let routes: Record<string, Reply>;
let calls: Call[];

beforeEach(() => {
  accessHistory = [];
  calls = [];
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = new URL(String(input), 'http://localhost').pathname;
      calls.push({ method, path, at: Date.now() });
      const route = routes[`${method} ${path}`];
      const reply = typeof route === 'function' ? await route() : (route ?? { status: 404, body: { error: { code: 'not_found', message: 'nope' } } });
      return new Response(JSON.stringify(reply.body ?? null), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

let latest: AuthState;
/** Every access value rendered, in order, so that short-lived states are seen too. */
let accessHistory: string[];
function Probe() {
  const state = useAuth();
  useEffect(() => {
    latest = state;
    if (accessHistory.at(-1) !== String(state.premium.hasAccess)) accessHistory.push(String(state.premium.hasAccess));
  });
  const { user, isLoading, premium } = state;
  return (
    <dl>
      <dt>user</dt>
      <dd data-testid="user">{user?.email ?? 'none'}</dd>
      <dd data-testid="loading">{String(isLoading)}</dd>
      <dd data-testid="access">{String(premium.hasAccess)}</dd>
      <dd data-testid="premium-loading">{String(premium.isLoading)}</dd>
      <dd data-testid="premium">{String(premium.isPremium)}</dd>
      <dd data-testid="security">{String(premium.isSecurityValid)}</dd>
    </dl>
  );
}

function CachedUserData() {
  const query = useQuery({ queryKey: ['subscription', 'u-1'], queryFn: async () => 'lifetime', enabled: false, initialData: 'lifetime' });
  return <span data-testid="cached">{query.data}</span>;
}

function renderProvider(extra?: React.ReactNode) {
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <Probe />
        {extra}
      </AuthProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

const text = (id: string) => screen.getByTestId(id).textContent;
const accessCalls = () => calls.filter((call) => call.path === '/api/access');

describe('AuthProvider', () => {
  it('is loading, with access unknown, until the session is known', async () => {
    let answer!: (reply: { body: unknown }) => void;
    routes['GET /api/auth/get-session'] = () => new Promise((resolve) => (answer = resolve));
    renderProvider();
    expect(text('loading')).toBe('true');
    expect(text('access')).toBe('unknown');
    expect(text('premium-loading')).toBe('true');
    await act(async () => answer({ body: null }));
    await waitFor(() => expect(text('loading')).toBe('false'));
  });

  it('without a user: non-premium, not loading, and no access check', async () => {
    vi.useFakeTimers();
    routes['GET /api/auth/get-session'] = { body: null };
    renderProvider();
    await waitFor(() => expect(text('loading')).toBe('false'));
    expect(text('user')).toBe('none');
    expect(text('access')).toBe('false');
    expect(text('premium-loading')).toBe('false');
    // well past the moment a signed-in user's check would start
    await act(() => vi.advanceTimersByTimeAsync(10 * SIGN_IN_ACCESS_CHECK_DELAY_MS));
    expect(accessCalls()).toHaveLength(0);
    await expect(latest.refreshAccess()).resolves.toBe(false);
    expect(accessCalls()).toHaveLength(0);
  });

  it('with a premium user: access unknown at first, checked about 100 ms after sign-in, then premium', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { body: { hasAccess: true } };
    renderProvider();
    await waitFor(() => expect(text('user')).toBe('ada@example.com'));
    const sessionAt = calls.find((call) => call.path === '/api/auth/get-session')!.at;
    expect(text('access')).toBe('unknown');
    await waitFor(() => expect(text('access')).toBe('true'));
    expect(text('premium')).toBe('true');
    expect(text('premium-loading')).toBe('false');
    expect(text('security')).toBe('true');
    expect(accessCalls()).toHaveLength(1);
    expect(accessCalls()[0]!.at - sessionAt).toBeGreaterThanOrEqual(90);
  });

  it('with a user without access: non-premium', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { body: { hasAccess: false } };
    renderProvider();
    await waitFor(() => expect(text('access')).toBe('false'));
    expect(text('premium')).toBe('false');
    expect(text('security')).toBe('true');
  });

  it('when the check fails: non-premium and invalid security', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { status: 403, body: { error: { code: 'forbidden', message: 'nope' } } };
    renderProvider();
    await waitFor(() => expect(text('security')).toBe('false'));
    expect(text('access')).toBe('false');
    expect(text('premium')).toBe('false');
    expect(text('premium-loading')).toBe('false');
  });

  it('retries a check that failed on the server side, with the spec back-off', async () => {
    vi.useFakeTimers();
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    let attempts = 0;
    routes['GET /api/access'] = () => {
      attempts += 1;
      return attempts === 1 ? { status: 503, body: { error: { code: 'internal', message: 'down' } } } : { body: { hasAccess: true } };
    };
    renderProvider();
    await waitFor(() => expect(attempts).toBe(1));
    expect(text('access')).toBe('unknown');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    await waitFor(() => expect(text('access')).toBe('true'));
    expect(attempts).toBe(2);
  });

  it('a new sign-in puts access back to unknown and checks it again', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { body: { hasAccess: false } };
    renderProvider();
    await waitFor(() => expect(text('access')).toBe('false'));

    routes['GET /api/auth/get-session'] = { body: sessionOf('s-2') };
    routes['GET /api/access'] = { body: { hasAccess: true } };
    await act(async () => latest.refreshSession());
    await waitFor(() => expect(text('access')).toBe('true'));
    expect(accessHistory).toEqual(['unknown', 'false', 'unknown', 'true']);
    expect(accessCalls()).toHaveLength(2);
  });

  it('refreshAccess asks the server again', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { body: { hasAccess: false } };
    renderProvider();
    await waitFor(() => expect(text('access')).toBe('false'));
    routes['GET /api/access'] = { body: { hasAccess: true } };
    let result: boolean | undefined;
    await act(async () => {
      result = await latest.refreshAccess();
    });
    expect(result).toBe(true);
    await waitFor(() => expect(text('access')).toBe('true'));
  });

  it('when the session ends, clears what was cached for the user', async () => {
    routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
    routes['GET /api/access'] = { body: { hasAccess: true } };
    const queryClient = renderProvider(<CachedUserData />);
    await waitFor(() => expect(text('access')).toBe('true'));
    expect(queryClient.getQueryData(['subscription', 'u-1'])).toBe('lifetime');

    routes['GET /api/auth/get-session'] = { body: null };
    await act(async () => latest.refreshSession());
    await waitFor(() => expect(text('user')).toBe('none'));
    expect(text('access')).toBe('false');
    expect(queryClient.getQueryData(['subscription', 'u-1'])).toBeUndefined();
    expect(queryClient.getQueryData(['auth', 'access', 'u-1'])).toBeUndefined();
  });

  describe('when the session check fails without an answer', () => {
    const sessionCalls = () => calls.filter((call) => call.path === '/api/auth/get-session');
    const busy = { status: 429, body: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests' } };
    const down = { status: 503, body: { error: { code: 'internal', message: 'down' } } };
    /** Lets the answer render and the access check, due 100 ms after it, run. */
    const settle = async () => {
      for (let step = 0; step < 5; step++) await act(() => vi.advanceTimersByTimeAsync(SIGN_IN_ACCESS_CHECK_DELAY_MS));
    };

    it('waits 1 s, 2 s, 4 s … at most 30 s between tries', () => {
      expect([0, 1, 2, 3, 4, 5, 6, 20].map(sessionRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    });

    it('a 429, a 503 and no answer at all leave a first visit loading, not signed out, until a real answer', async () => {
      vi.useFakeTimers();
      const failures: Array<() => { status?: number; body?: unknown }> = [
        () => busy,
        () => down,
        () => {
          throw new TypeError('Failed to fetch');
        },
      ];
      routes['GET /api/auth/get-session'] = () => (failures.shift() ?? (() => ({ body: sessionOf('s-1') })))();
      routes['GET /api/access'] = { body: { hasAccess: true } };
      const startedAt = Date.now();
      renderProvider();
      await act(() => vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 - 1));
      expect(sessionCalls().map((call) => call.at - startedAt)).toEqual([0, 1000, 3000]);
      expect(text('loading')).toBe('true');
      expect(text('user')).toBe('none');
      expect(text('access')).toBe('unknown');

      await settle();
      expect(sessionCalls()).toHaveLength(4);
      expect(text('user')).toBe('ada@example.com');
      expect(text('access')).toBe('true');
    });

    it('keeps the member signed in while a later check answers 429, until the server says there is no session', async () => {
      vi.useFakeTimers();
      routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
      routes['GET /api/access'] = { body: { hasAccess: true } };
      renderProvider(<CachedUserData />);
      await settle();
      expect(text('access')).toBe('true');

      routes['GET /api/auth/get-session'] = busy;
      let refreshed = false;
      act(() => void latest.refreshSession().then(() => (refreshed = true)));
      await act(() => vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000));
      // the first check, then the refresh and its retries after 1 s, 2 s, 4 s and 8 s
      expect(sessionCalls()).toHaveLength(6);
      expect(refreshed).toBe(false);
      expect(text('user')).toBe('ada@example.com');
      expect(text('loading')).toBe('false');
      expect(text('access')).toBe('true');

      routes['GET /api/auth/get-session'] = { body: null };
      await act(() => vi.advanceTimersByTimeAsync(16_000));
      await settle();
      expect(refreshed).toBe(true);
      expect(text('user')).toBe('none');
      expect(text('access')).toBe('false');
    });

    it('reads a 401 as signed out at once, without retrying', async () => {
      vi.useFakeTimers();
      routes['GET /api/auth/get-session'] = { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } };
      renderProvider();
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(text('loading')).toBe('false');
      expect(text('user')).toBe('none');
      expect(text('access')).toBe('false');
      expect(sessionCalls()).toHaveLength(1);
    });
  });

  describe('sign-out', () => {
    const original = window.location;
    let reload: ReturnType<typeof vi.fn>;
    let assign: ReturnType<typeof vi.fn>;
    beforeEach(() => {
      reload = vi.fn();
      assign = vi.fn();
      Object.defineProperty(window, 'location', { configurable: true, value: { ...original, href: original.href, reload, assign } });
    });
    afterEach(() => {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    });

    it('clears the state first, then calls the server, then reloads the page', async () => {
      routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
      routes['GET /api/access'] = { body: { hasAccess: true } };
      let finishSignOut!: () => void;
      routes['POST /api/auth/sign-out'] = () => new Promise((resolve) => (finishSignOut = () => resolve({ body: { success: true } })));
      renderProvider();
      await waitFor(() => expect(text('access')).toBe('true'));

      let done!: Promise<void>;
      act(() => {
        done = latest.signOut();
      });
      await waitFor(() => expect(text('user')).toBe('none'));
      expect(text('access')).toBe('false');
      await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.path === '/api/auth/sign-out')).toBe(true));
      expect(reload).not.toHaveBeenCalled();
      await act(async () => {
        finishSignOut();
        await done;
      });
      expect(reload).toHaveBeenCalledTimes(1);
      expect(assign).not.toHaveBeenCalled();
    });

    it('goes to the given page instead of reloading, even when the server had forgotten the session', async () => {
      routes['GET /api/auth/get-session'] = { body: sessionOf('s-1') };
      routes['GET /api/access'] = { body: { hasAccess: true } };
      routes['POST /api/auth/sign-out'] = { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } };
      renderProvider();
      await waitFor(() => expect(text('user')).toBe('ada@example.com'));
      await act(async () => latest.signOut('/'));
      expect(assign).toHaveBeenCalledWith('/');
      expect(reload).not.toHaveBeenCalled();
    });
  });
});
