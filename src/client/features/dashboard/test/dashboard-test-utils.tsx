import { vi } from 'vitest';
import { AuthProvider } from '@client/lib/auth-state';
import { renderRoutes } from '@client/test/render';
import { DashboardLayout } from '../dashboard-layout';
import { DiscordPage } from '../discord-page';

export type Answer = { status?: number; body: unknown } | 'hang';
export type Handler = Answer | ((init: RequestInit | undefined, call: number) => Answer);

export const MEMBER = { id: '11111111-1111-4111-8111-111111111111', email: 'member@example.com', name: 'member', createdAt: '2025-01-01T00:00:00.000Z' };
export const SESSION = { user: MEMBER, session: { id: 'session-1', expiresAt: '2099-01-01T00:00:00.000Z' } };

/**
 * fetch at the network boundary, answering by "METHOD /path". 'hang' never answers (until the
 * request is aborted), like a server that accepted the connection and went silent.
 */
export function stubFetch(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = [];
  const counts = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const call = (counts.get(key) ?? 0) + 1;
    counts.set(key, call);
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const handler = handlers[key];
    const answer: Answer = typeof handler === 'function' ? handler(init, call) : (handler ?? { status: 404, body: { error: { code: 'not_found', message: `no stub for ${key}` } } });
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, count: (key: string) => counts.get(key) ?? 0 };
}

/** The dashboard routes as the app registers them, with stand-ins for the other screens. */
export function renderDashboard(path: string) {
  return renderRoutes(
    [
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { path: 'guides', element: <h1>Guides content</h1> },
          { path: 'strategies', element: <h1>Strategies content</h1> },
          { path: 'discord', element: <DiscordPage /> },
          { path: 'settings', element: <h1>Settings content</h1> },
        ],
      },
      { path: '/auth', element: <h1>Sign in page</h1> },
      { path: '/premium-access-required', element: <h1>Premium required page</h1> },
    ],
    { path, wrap: (node) => <AuthProvider>{node}</AuthProvider> },
  );
}
