import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { FunnelReport } from '@shared/funnel';
import { renderWithAuth, resetAfterTest, stubApi } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from '../admin-layout';

afterEach(resetAfterTest);

const PATH = '/api/admin/funnel';

const steps = { visits: 200, checkoutsStarted: 40, paid: 10, accountsCreated: 9, accessGranted: 8, communityLinked: 4 };
const REPORT: FunnelReport = {
  days: 30,
  from: '2026-10-31',
  to: '2026-11-29',
  ...steps,
  visitors: 150,
  byDay: [{ day: '2026-11-29', ...steps }],
  bySource: [{ kind: 'utm', value: 'newsletter', visits: 120, checkoutsStarted: 30, paid: 8 }],
};

function renderPage() {
  const api = stubApi({
    ...OPERATOR_CONSOLE_ROUTES,
    [`GET ${PATH}`]: { body: REPORT },
  });
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/funnel' });
  return api;
}

describe('the Funnel page', () => {
  it('shows the last 30 days first, and asks for the window the operator picks', async () => {
    const api = renderPage();
    expect(await screen.findByText('Steps, 2026-10-31 – 2026-11-29')).toBeVisible();
    expect(api.callsTo('GET', PATH).map((call) => call.search)).toEqual(['?days=30']);
    const window = screen.getByRole('combobox', { name: /Window/ });
    expect(within(window).getAllByRole('option').map((option) => option.textContent)).toEqual(['Last 7 days', 'Last 30 days', 'Last 90 days']);

    await userEvent.selectOptions(window, 'Last 7 days');
    await expect.poll(() => api.callsTo('GET', PATH).map((call) => call.search)).toContain('?days=7');
  });
});
