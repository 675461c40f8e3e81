import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { ReminderMailsCard } from './reminder-mails-card';

afterEach(resetAfterTest);

const MAILS = [
  { kind: 'winback', label: 'Win-back offer', on: true },
  { kind: 'setup_tradingview', label: 'Reminder: add your TradingView username', on: true },
];

describe('the member’s reminders and offers card', () => {
  it('lists the mails the shop sends and turns one off', async () => {
    const api = stubApi({
      'GET /api/mail-preferences': { body: { mails: MAILS } },
      'PUT /api/mail-preferences': { body: { mails: [MAILS[0], { ...MAILS[1], on: false }] } },
    });
    renderRoutes([{ path: '/', element: <ReminderMailsCard /> }]);
    const reminder = await screen.findByLabelText('Reminder: add your TradingView username');
    expect(reminder).toBeChecked();
    await userEvent.click(reminder);
    await waitFor(() => expect(screen.getByLabelText('Reminder: add your TradingView username')).not.toBeChecked());
    expect(screen.getByLabelText('Win-back offer')).toBeChecked();
    expect(api.callsTo('PUT', '/api/mail-preferences').map((call) => call.body)).toEqual([{ kind: 'setup_tradingview', on: false }]);
  });

  it('shows nothing when the shop sends none of these mails', async () => {
    const api = stubApi({ 'GET /api/mail-preferences': { body: { mails: [] } } });
    renderRoutes([{ path: '/', element: <ReminderMailsCard /> }]);
    await waitFor(() => expect(api.callsTo('GET', '/api/mail-preferences')).toHaveLength(1));
    expect(screen.queryByText('Reminders and offers')).toBeNull();
  });
});
