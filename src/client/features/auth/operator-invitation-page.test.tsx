import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetAfterTest } from '@client/test/render';
import { mockApi, renderAt, sessionBody } from './auth-test-kit';
import { OperatorInvitationPage } from './operator-invitation-page';

afterEach(resetAfterTest);

const TOKEN = 'A'.repeat(43);
const renderInvitation = (token = TOKEN) => renderAt('/operator-invitation', <OperatorInvitationPage />, `/operator-invitation?token=${token}`);

describe('/operator-invitation', () => {
  it('names the invited address, checks the password rule, then sets it, signs in and opens the console', async () => {
    const api = mockApi({
      [`GET /api/operator-invitations/${TOKEN}`]: { body: { email: 'new-op@example.com', accountExists: false, expiresAt: '2099-01-01T00:00:00.000Z' } },
    });
    api.set('POST /api/operator-invitations/accept', () => {
      api.set('GET /api/auth/get-session', { body: sessionBody('s-op') });
      return { body: { email: 'new-op@example.com', signedIn: true } };
    });
    renderInvitation();
    expect(await screen.findByRole('heading', { name: 'Become an operator' })).toBeVisible();
    expect(screen.getByText('Choose the password of new-op@example.com to open the Candlewise operator console.')).toBeVisible();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'weak');
    await user.click(screen.getByRole('button', { name: 'Set password and open the console' }));
    // (#46) only the rules not met, not the sign-up form's whole sentence
    expect(await screen.findByText('Password needs at least 8 characters, an uppercase letter and a number.')).toBeVisible();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'weakpassword1');
    await user.click(screen.getByRole('button', { name: 'Set password and open the console' }));
    expect(await screen.findByText('Password needs an uppercase letter.')).toBeVisible();
    expect(api.callsTo('POST', '/api/operator-invitations/accept')).toEqual([]);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Str0ng-enough');
    await user.click(screen.getByRole('button', { name: 'Set password and open the console' }));
    expect(await screen.findByTestId('destination')).toHaveTextContent('Operator console');
    expect(api.callsTo('POST', '/api/operator-invitations/accept').map((call) => call.body)).toEqual([{ token: TOKEN, password: 'Str0ng-enough' }]);
  });

  it('says plainly when the link is used up, expired or not one of ours', async () => {
    mockApi({});
    renderInvitation();
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('The link is invalid, expired or already used. Ask an operator for a new one.');
  });
});
