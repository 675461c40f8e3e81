import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MailSettingsView } from '@shared/member-mails-contract';
import { errorReply, renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { MailsCard } from './mails-card';

const SAVED: MailSettingsView = {
  switches: { checkout_recovery: true, winback: false, setup_tradingview: true, setup_discord: true, setup_telegram: true },
  winbackDays: 14,
  winbackCode: null,
  winbackCodes: ['BACK20'],
  mails: [
    { name: 'checkout_recovery', label: 'Checkout recovery', offered: true },
    { name: 'winback', label: 'Win-back offer', offered: true },
    { name: 'setup_tradingview', label: 'Reminder: add your TradingView username', offered: true },
    { name: 'setup_discord', label: 'Reminder: link Discord', offered: true },
    { name: 'setup_telegram', label: 'Reminder: link Telegram', offered: false },
  ],
};

afterEach(resetAfterTest);

describe('the console Mails card', () => {
  it('shows the switches of the integrations in use, sends the choices together and shows the server’s refusal as it is', async () => {
    let puts = 0;
    const api = stubApi({
      'GET /api/admin/mail-settings': { body: SAVED },
      'PUT /api/admin/mail-settings': (call) => {
        puts += 1;
        return puts === 1 ? errorReply(400, 'validation_failed', 'Days after access ends must be a whole number from 1 to 365.') : { body: { ...SAVED, ...(call.body as object) } };
      },
    });
    renderRoutes([{ path: '/', element: <MailsCard /> }]);
    expect(await screen.findByRole('heading', { name: 'Mails' })).toBeVisible();
    expect(screen.getByLabelText('Checkout recovery')).toBeChecked();
    expect(screen.getByLabelText('Reminder: link Discord')).toBeChecked();
    expect(screen.queryByLabelText('Reminder: link Telegram')).toBeNull();

    await userEvent.click(screen.getByLabelText('Checkout recovery'));
    await userEvent.click(screen.getByLabelText('Win-back offer'));
    await userEvent.selectOptions(screen.getByLabelText('Win-back code'), 'BACK20');
    await userEvent.clear(screen.getByLabelText('Win-back: days after access ends'));
    await userEvent.type(screen.getByLabelText('Win-back: days after access ends'), '400');
    await userEvent.click(screen.getByRole('button', { name: 'Save mails' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Days after access ends must be a whole number from 1 to 365.');
    expect(api.callsTo('PUT', '/api/admin/mail-settings')[0]!.body).toEqual({
      switches: { checkout_recovery: false, winback: true, setup_tradingview: true, setup_discord: true, setup_telegram: true },
      winbackDays: 400,
      winbackCode: 'BACK20',
    });

    await userEvent.clear(screen.getByLabelText('Win-back: days after access ends'));
    await userEvent.type(screen.getByLabelText('Win-back: days after access ends'), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save mails' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Mail settings saved.');
  });
});
