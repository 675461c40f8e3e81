import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_QUERY_KEY } from '@client/lib/auth-state';
import { resetAfterTest } from '@client/test/render';
import { SESSION, renderDashboard, stubFetch, type Answer } from './test/dashboard-test-utils';

// A rate limit or an outage on the session check is no answer about the session: a member must
// not be sent to the sign-in page by it.

const NO_ALERTS = { body: { score: 100, colour: 'green', alerts: [] } };
const TOO_MANY = { status: 429, body: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests' } };
const DOWN = { status: 503, body: { error: { code: 'internal', message: 'down' } } };

afterEach(resetAfterTest);

/** Runs the fake clock in steps, so that answers render between them. */
async function pass(ms: number) {
  for (let left = ms; left > 0; left -= 100) await act(() => vi.advanceTimersByTimeAsync(Math.min(100, left)));
}

describe('dashboard when the session check fails without an answer', () => {
  it('a member whose first checks get 429 and 503 sees a loader, never /auth, then the dashboard', async () => {
    vi.useFakeTimers();
    const answers: Answer[] = [TOO_MANY, DOWN];
    const network = stubFetch({
      'GET /api/auth/get-session': () => answers.shift() ?? { body: SESSION },
      'GET /api/access': { body: { hasAccess: true } },
      'GET /api/security/alerts': NO_ALERTS,
    });
    const { router } = renderDashboard('/dashboard/guides');
    const paths: string[] = [];
    router.subscribe((state) => paths.push(state.location.pathname));

    await pass(2900);
    expect(network.count('GET /api/auth/get-session')).toBe(2);
    expect(screen.getByText('Loading...')).toBeInTheDocument();

    await pass(1000);
    expect(network.count('GET /api/auth/get-session')).toBe(3);
    expect(screen.getByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
    expect(paths).not.toContain('/auth');
  });

  it('a member on the dashboard stays there when a later check gets 429 or 503', async () => {
    vi.useFakeTimers();
    let answer: Answer = { body: SESSION };
    stubFetch({
      'GET /api/auth/get-session': () => answer,
      'GET /api/access': { body: { hasAccess: true } },
      'GET /api/security/alerts': NO_ALERTS,
    });
    const { router, queryClient } = renderDashboard('/dashboard/guides');
    await pass(500);
    expect(screen.getByRole('heading', { name: 'Guides content' })).toBeInTheDocument();

    for (const failure of [TOO_MANY, DOWN]) {
      answer = failure;
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      await pass(8000);
      expect(router.state.location.pathname).toBe('/dashboard/guides');
      expect(screen.getByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
      answer = { body: SESSION };
      await pass(8000);
    }
  });

  it('when the server forgot the session but the session check is rate limited, waits for an answer before /auth', async () => {
    vi.useFakeTimers();
    const network = stubFetch({
      'GET /api/auth/get-session': (_init, call) => (call === 1 ? { body: SESSION } : TOO_MANY),
      'GET /api/access': { status: 401, body: { error: { code: 'unauthorized', message: 'Sign in first.' } } },
    });
    const { router } = renderDashboard('/dashboard/guides');
    await pass(10_000);
    expect(network.count('GET /api/auth/get-session')).toBeGreaterThan(2);
    expect(router.state.location.pathname).toBe('/dashboard/guides');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
  });

  it('a visitor whose check answers 200 with no session goes to /auth', async () => {
    stubFetch({ 'GET /api/auth/get-session': { body: null } });
    const { router } = renderDashboard('/dashboard/guides');
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('a check answering 401 reads as signed out too', async () => {
    const network = stubFetch({ 'GET /api/auth/get-session': { status: 401, body: { code: 'UNAUTHORIZED', message: 'Unauthorized' } } });
    const { router } = renderDashboard('/dashboard/guides');
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(network.count('GET /api/auth/get-session')).toBe(1);
  });
});
