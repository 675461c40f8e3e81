import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, resetAfterTest } from '@client/test/render';
import { mockApi, renderSettings } from './settings-test-kit';

afterEach(resetAfterTest);

describe('Security card', () => {
  it('asks for confirmation, revokes every session, then signs this browser out', async () => {
    const api = mockApi({ 'POST /api/auth/revoke-sessions': { body: { status: true } } });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=all');
    const card = await screen.findByRole('region', { name: 'Security' });

    await user.click(within(card).getByRole('button', { name: 'Sign Out of All Devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' });
    expect(api.callsTo('POST', '/api/auth/revoke-sessions')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    // Signing out ends with a full page load of /auth, which jsdom cannot perform; the calls show it.
    await expect.poll(() => api.callsTo('POST', '/api/auth/sign-out').length).toBe(1);
    const paths = api.calls.filter((call) => call.method === 'POST').map((call) => call.path);
    expect(paths).toEqual(['/api/auth/revoke-sessions', '/api/auth/sign-out']);
  });

  it('does nothing when the member cancels', async () => {
    const api = mockApi();
    const user = userEvent.setup();
    renderSettings('/dashboard/settings');
    const card = await screen.findByRole('region', { name: 'Security' });
    await user.click(within(card).getByRole('button', { name: 'Sign Out of All Devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('keeps the member signed in and says so when revoking fails', async () => {
    const api = mockApi({ 'POST /api/auth/revoke-sessions': errorReply(500, 'internal', 'Internal Server Error') });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings');
    const card = await screen.findByRole('region', { name: 'Security' });
    await user.click(within(card).getByRole('button', { name: 'Sign Out of All Devices' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign Out Everywhere' }));
    expect(await screen.findByText('Could not sign out of all devices. Please try again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/sign-out')).toHaveLength(0);
  });

  it('changes the password with the current one and signs out the other devices (#46)', async () => {
    const api = mockApi({ 'POST /api/auth/change-password': { body: { token: 'new', user: { id: 'u1' } } } });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=all');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current Password'), 'Old-Secret1');
    await user.type(within(form).getByLabelText('New Password'), 'N3w-Secret!');
    await user.type(within(form).getByLabelText('Confirm New Password'), 'N3w-Secret!');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Your other devices were signed out.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/change-password')[0]?.body).toEqual({ currentPassword: 'Old-Secret1', newPassword: 'N3w-Secret!', revokeOtherSessions: true });
    expect(within(form).getByLabelText('Current Password')).toHaveValue('');
  });

  it('a wrong current password is said beside the form; a mismatch never reaches the server (#46)', async () => {
    const api = mockApi({ 'POST /api/auth/change-password': { status: 400, body: { code: 'INVALID_PASSWORD', message: 'Invalid password' } } });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=all');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current Password'), 'Not-it-1');
    await user.type(within(form).getByLabelText('New Password'), 'N3w-Secret!');
    await user.type(within(form).getByLabelText('Confirm New Password'), 'N3w-Secret?');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/change-password')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Confirm New Password'));
    await user.type(within(form).getByLabelText('Confirm New Password'), 'N3w-Secret!');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Your current password is not right.');
  });
});
