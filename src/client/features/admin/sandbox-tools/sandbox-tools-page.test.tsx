import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxTools } from '@shared/admin-ops-contract';
import { errorReply, renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { SandboxToolsPage } from './sandbox-tools-page';

const TOOLS: SandboxTools = { tradingViewOutage: false, subscriptions: [], memberMailsAhead: true };

afterEach(resetAfterTest);

describe('the sandbox tools: member mails, days ahead', () => {
  it('runs the pass the days typed ahead and says what it wrote; a refusal is shown as the server words it', async () => {
    let runs = 0;
    const api = stubApi({
      'GET /api/admin/sandbox': { body: TOOLS },
      'POST /api/admin/sandbox/member-mails': () => {
        runs += 1;
        return runs === 1 ? errorReply(400, 'validation_failed', 'days: A whole number of days from 1 to 365.') : { body: { asOf: '2030-01-08T12:00:00.000Z', winback: 1, reminders: 2 } };
      },
    });
    renderRoutes([{ path: '/', element: <SandboxToolsPage /> }]);
    const days = await screen.findByLabelText('Days ahead');
    await userEvent.clear(days);
    await userEvent.type(days, '400');
    await userEvent.click(screen.getByRole('button', { name: 'Run member mails' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('days: A whole number of days from 1 to 365.');

    await userEvent.clear(days);
    await userEvent.type(days, '8');
    await userEvent.click(screen.getByRole('button', { name: 'Run member mails' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^1 win-back mail and 2 set-up reminders written, as of .*2030/);
    expect(api.callsTo('POST', '/api/admin/sandbox/member-mails').map((call) => call.body)).toEqual([{ days: 400 }, { days: 8 }]);
  });

  it('is not offered where mails or payments are live', async () => {
    stubApi({ 'GET /api/admin/sandbox': { body: { ...TOOLS, memberMailsAhead: false } } });
    renderRoutes([{ path: '/', element: <SandboxToolsPage /> }]);
    expect(await screen.findByRole('heading', { name: 'Simulate a renewal' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Member mails, days ahead' })).toBeNull();
  });
});
