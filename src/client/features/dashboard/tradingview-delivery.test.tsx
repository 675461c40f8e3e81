// Issue 46: the dashboard tells the member what TradingView access they have now.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION, renderDashboard, stubFetch } from './test/dashboard-test-utils';

const NO_ALERTS = { body: { score: 100, colour: 'green', alerts: [] } };
const SCRIPTS = [
  { id: 'PUB;candlewise-pro-v2', name: 'Candlewise Pro V2' },
  { id: 'PUB;candlewise-volatility-index', name: 'Candlewise Volatility Index' },
];

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function member(status: Record<string, unknown>) {
  stubFetch({
    'GET /api/auth/get-session': { body: SESSION },
    'GET /api/access': { body: { hasAccess: true } },
    'GET /api/security/alerts': NO_ALERTS,
    'GET /api/tradingview/status': { body: { username: 'trader_jane', expiresAt: null, scripts: SCRIPTS, nextChangeAt: null, changeDays: 7, ...status } },
  });
  renderDashboard('/dashboard/guides');
}

describe('TradingView delivery on the dashboard', () => {
  it('pending: the scripts being granted, by name', async () => {
    member({ status: 'pending', message: 'We are granting access to your TradingView account. This usually takes a few minutes.' });
    const notice = await screen.findByTestId('tradingview-delivery');
    expect(notice).toHaveTextContent('Access pending');
    expect(notice).toHaveTextContent('Granting 2 scripts: Candlewise Pro V2 and Candlewise Volatility Index on trader_jane.');
    expect(notice).not.toHaveTextContent('PUB;');
  });

  it('failed: the reason and a way to correct the username in Settings', async () => {
    member({ status: 'failed', message: 'TradingView did not accept this username. Please check it and correct it if needed.' });
    const notice = await screen.findByTestId('tradingview-delivery');
    expect(notice).toHaveTextContent('Access failed');
    expect(notice).toHaveTextContent('TradingView did not accept this username.');
    expect(screen.getByRole('link', { name: 'Correct your TradingView username in Settings' })).toHaveAttribute('href', '/dashboard/settings?section=account');
  });

  it('a failure TradingView keeps retrying: what to do is to write to support', async () => {
    member({ status: 'failed', message: 'We could not grant access yet and keep retrying automatically. If your indicators do not appear within a few hours, please contact support.' });
    expect(await screen.findByRole('link', { name: /Contact support at/ })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });

  it('"Access granted" is shown once: the next visit shows no notice', async () => {
    member({ status: 'granted', message: 'In TradingView, open a chart, then Indicators → Invite-only scripts.' });
    const notice = await screen.findByTestId('tradingview-delivery');
    expect(notice).toHaveTextContent('Access granted');
    expect(notice).toHaveTextContent('2 scripts: Candlewise Pro V2 and Candlewise Volatility Index on trader_jane.');
    cleanup();

    member({ status: 'granted', message: 'In TradingView, open a chart, then Indicators → Invite-only scripts.' });
    expect(await screen.findByRole('heading', { name: 'Guides content' })).toBeInTheDocument();
    expect(screen.queryByTestId('tradingview-delivery')).not.toBeInTheDocument();
  });
});
