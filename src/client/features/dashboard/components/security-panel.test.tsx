import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECURITY_REFRESH_MS } from '@shared/security';
import { renderRoutes } from '@client/test/render';
import { stubFetch, type Handler } from '../test/dashboard-test-utils';
import { SecurityPanel } from './security-panel';

const USER_ID = 'user-1';
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

const ALERTS = [
  { id: 'unauthorized-3', type: 'critical', message: 'Someone tried to reach a page.', timestamp: at(1) },
  { id: 'auth-failures-2', type: 'warning', message: '3 failed sign-in attempts in the last 15 minutes.', timestamp: at(5) },
  { id: 'subscription-changes-1', type: 'info', message: 'Your subscription was changed 2 times in the last hour.', timestamp: at(20) },
  { id: 'suspicious-0', type: 'warning', message: 'We noticed unusual activity on your account.', timestamp: at(60) },
];

function renderPanel(alerts: Handler) {
  const network = stubFetch({ 'GET /api/security/alerts': alerts });
  const view = renderRoutes([{ path: '/', element: <SecurityPanel userId={USER_ID} /> }]);
  return { ...view, network };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('security panel', () => {
  it.each([
    { score: 100, colour: 'green' },
    { score: 80, colour: 'green' },
    { score: 79, colour: 'yellow' },
    { score: 60, colour: 'yellow' },
    { score: 59, colour: 'red' },
  ])('shows a score of $score out of 100 in $colour', async ({ score, colour }) => {
    renderPanel({ body: { score, colour, alerts: [] } });
    const value = await screen.findByTestId('security-score');
    expect(value).toHaveTextContent(`${score}/100`);
    expect(value).toHaveAttribute('data-colour', colour);
    expect(screen.getByText('Security Score')).toBeInTheDocument();
  });

  it('shows at most 3 alerts, newest first', async () => {
    renderPanel({ body: { score: 55, alerts: ALERTS } });
    const list = await screen.findByRole('list', { name: 'Security alerts' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Someone tried to reach a page.');
    expect(items[0]).toHaveTextContent('Critical');
    expect(screen.queryByText('We noticed unusual activity on your account.')).not.toBeInTheDocument();
  });

  it('dismisses an alert, shows the next one and remembers the dismissal for this user', async () => {
    const user = userEvent.setup();
    const first = renderPanel({ body: { score: 55, alerts: ALERTS } });
    const list = await screen.findByRole('list', { name: 'Security alerts' });
    await user.click(within(list).getAllByRole('button', { name: 'Dismiss alert' })[0]!);
    expect(screen.queryByText('Someone tried to reach a page.')).not.toBeInTheDocument();
    expect(screen.getByText('We noticed unusual activity on your account.')).toBeInTheDocument();
    first.unmount();

    // Reloaded: still dismissed.
    renderPanel({ body: { score: 55, alerts: ALERTS } });
    await screen.findByRole('list', { name: 'Security alerts' });
    expect(screen.queryByText('Someone tried to reach a page.')).not.toBeInTheDocument();
  });

  it('forgets dismissals of alerts the server no longer reports', async () => {
    window.localStorage.setItem(`candlewise.security.dismissed.${USER_ID}`, JSON.stringify(['gone-alert', 'auth-failures-2']));
    renderPanel({ body: { score: 55, alerts: ALERTS } });
    await screen.findByRole('list', { name: 'Security alerts' });
    await waitFor(() => expect(JSON.parse(window.localStorage.getItem(`candlewise.security.dismissed.${USER_ID}`) ?? '[]')).toEqual(['auth-failures-2']));
    expect(screen.queryByText('3 failed sign-in attempts in the last 15 minutes.')).not.toBeInTheDocument();
  });

  it('folds the alert list away and keeps it folded after a reload, for this user', async () => {
    const user = userEvent.setup();
    const first = renderPanel({ body: { score: 55, alerts: ALERTS } });
    await screen.findByRole('list', { name: 'Security alerts' });
    await user.click(screen.getByRole('button', { name: 'Hide security alerts' }));
    expect(screen.queryByRole('list', { name: 'Security alerts' })).not.toBeInTheDocument();
    // Folded, the score stays and the button says how many alerts wait.
    expect(screen.getByTestId('security-score')).toHaveTextContent('55/100');
    expect(screen.getByRole('button', { name: 'Show security alerts (3)' })).toHaveAttribute('aria-expanded', 'false');
    first.unmount();

    const second = renderPanel({ body: { score: 55, alerts: ALERTS } });
    await screen.findByTestId('security-score');
    expect(screen.queryByRole('list', { name: 'Security alerts' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show security alerts (3)' }));
    expect(screen.getByRole('list', { name: 'Security alerts' })).toBeInTheDocument();
    second.unmount();

    renderPanel({ body: { score: 55, alerts: ALERTS } });
    expect(await screen.findByRole('list', { name: 'Security alerts' })).toBeInTheDocument();
  });

  it('is part of the page flow, never a floating layer over the content', async () => {
    renderPanel({ body: { score: 100, alerts: [] } });
    await screen.findByTestId('security-score');
    const panel = screen.getByRole('complementary', { name: 'Security' });
    expect(panel.className).not.toMatch(/\b(fixed|absolute|sticky)\b/);
  });

  it('refreshes every 30 s', async () => {
    vi.useFakeTimers();
    const { network } = renderPanel((_init, call) => ({ body: { score: call === 1 ? 100 : 85, alerts: [] } }));
    expect(await screen.findByText('100/100')).toBeInTheDocument();
    expect(network.count('GET /api/security/alerts')).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(SECURITY_REFRESH_MS));
    await waitFor(() => expect(screen.getByText('85/100')).toBeInTheDocument());
    expect(network.count('GET /api/security/alerts')).toBe(2);
  });

  it('stays out of the way when the score cannot be loaded', async () => {
    const { network } = renderPanel({ status: 500, body: { error: { code: 'internal', message: 'down' } } });
    await waitFor(() => expect(network.count('GET /api/security/alerts')).toBeGreaterThan(0));
    expect(screen.queryByText('Security Score')).not.toBeInTheDocument();
  });
});
