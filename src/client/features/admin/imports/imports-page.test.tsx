import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportsOverview } from '@shared/imports-contract';
import { renderWithAuth, resetAfterTest, stubApi } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from '../admin-layout';


const OVERVIEW: ImportsOverview = {
  runs: [
    {
      id: 'run-2',
      source: 'tradingview',
      dryRun: false,
      startedAt: '2026-11-26T10:05:00.000Z',
      finishedAt: '2026-11-26T10:06:00.000Z',
      report: {
        read: 3,
        created: [{ subject: 'Ada_Charts on PUB;one', detail: 'no expiry → monthly until 2026-12-25' }],
        unchanged: 0,
        matched: [],
        unmatched: [{ subject: 'Dee_Waves on PUB;one', detail: 'until 2030-01-01; no member uses this username: left alone' }],
        conflicts: [],
        error: 'TradingView answered 503',
      },
    },
    { id: 'run-1', source: 'stripe', dryRun: true, startedAt: '2026-11-26T10:00:00.000Z', finishedAt: '2026-11-26T10:01:00.000Z', report: { read: 300, created: [], unchanged: 300, matched: [], unmatched: [], conflicts: [], error: null } },
  ],
  members: [{ userId: '22222222-2222-4222-8222-222222222222', email: 'ada@example.com', source: 'stripe', sourceRef: 'sub_123', detail: 'monthly until 2026-12-25', importedAt: '2026-11-26T09:00:00.000Z' }],
};

afterEach(resetAfterTest);

describe('ImportsPage', () => {
  it('shows the latest report with why it stopped, every run, and the imported members', async () => {
    stubApi({
      ...OPERATOR_CONSOLE_ROUTES,
      'GET /api/admin/imports': { body: OVERVIEW },
    });
    renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/imports' });
    expect(await screen.findByRole('heading', { name: 'Import', level: 1 })).toBeVisible();
    expect(await screen.findByRole('alert')).toHaveTextContent('Stopped: TradingView answered 503. What is listed was done; run the same command again to continue.');
    await userEvent.click(screen.getByText('Unmatched access (left alone) (1)'));
    expect(screen.getByText(/no member uses this username: left alone/)).toBeVisible();
    const [runs, members] = screen.getAllByRole('table');
    expect(within(runs!).getAllByRole('row')).toHaveLength(3);
    expect(within(runs!).getAllByRole('row')[2]).toHaveTextContent(/Stripe\s*dry run\s*300\s*0\s*300/);
    expect(within(members!).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', '/admin/members/22222222-2222-4222-8222-222222222222');
  });
});
