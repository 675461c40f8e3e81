import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR, RESET_TEXTS, UNEXPECTED_ERROR } from '@shared/error-messages';
import { VALIDATION_MESSAGES } from '@shared/validation';
import { deferredReply, resetAfterTest } from '@client/test/render';
import { mockApi, renderAt, sessionBody } from './auth-test-kit';
import { ResetPasswordPage } from './reset-password-page';

afterEach(resetAfterTest);

const TOKEN = 'abcDEF123ghiJKL456mnoPQR';
const renderPage = (url = `/reset-password?token=${TOKEN}`) => renderAt('/reset-password', <ResetPasswordPage />, url);
const validToken = { 'GET /api/auth/reset-token-status': { body: { valid: true } } };

async function fillPasswords(password: string, confirm: string) {
  const user = userEvent.setup();
  if (password) await user.type(await screen.findByLabelText('New Password'), password);
  if (confirm) await user.type(screen.getByLabelText('Confirm Password'), confirm);
  return user;
}

describe('/reset-password', () => {
  it("shows 'Invalid Reset Link' and goes to /forgot-password when the link has no token", async () => {
    const api = mockApi({});
    renderPage('/reset-password');
    expect(await screen.findByText(RESET_TEXTS.invalidLink.title)).toBeInTheDocument();
    expect(await screen.findByTestId('destination')).toHaveTextContent('Forgot password page /forgot-password');
    expect(api.callsTo('GET', '/api/auth/reset-token-status')).toHaveLength(0);
  });

  it("does the same for a link that better-auth marked as invalid", async () => {
    mockApi({});
    renderPage('/reset-password?error=INVALID_TOKEN');
    expect(await screen.findByText(RESET_TEXTS.invalidLink.title)).toBeInTheDocument();
    expect(await screen.findByTestId('destination')).toHaveTextContent('/forgot-password');
  });

  it('does the same for an expired or used token, before anything is typed', async () => {
    const api = mockApi({ 'GET /api/auth/reset-token-status': { body: { valid: false } } });
    renderPage();
    expect(await screen.findByText(RESET_TEXTS.invalidLink.title)).toBeInTheDocument();
    expect(await screen.findByTestId('destination')).toHaveTextContent('/forgot-password');
    expect(api.callsTo('GET', '/api/auth/reset-token-status')[0]!.search).toBe(`?token=${TOKEN}`);
  });

  it('reads the token from the hash too', async () => {
    const api = mockApi(validToken);
    renderPage(`/reset-password#token=${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Update Password' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/auth/reset-token-status')[0]!.search).toBe(`?token=${TOKEN}`);
  });

  it("keeps 'Update Password' disabled until both fields are filled, and shows and hides each", async () => {
    mockApi(validToken);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Update Password' })).toBeDisabled();
    const user = await fillPasswords('Brand-New-Pass1', '');
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeDisabled();
    await user.type(screen.getByLabelText('Confirm Password'), 'x');
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(screen.getByLabelText('New Password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('type', 'password');
  });

  it("says 'Passwords do not match' and clears it on edit", async () => {
    const api = mockApi(validToken);
    renderPage();
    const user = await fillPasswords('Brand-New-Pass1', 'Brand-New-Pass2');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(VALIDATION_MESSAGES.passwordsDoNotMatch)).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/auth/reset-password')).toHaveLength(0);
    await user.type(screen.getByLabelText('Confirm Password'), 'x');
    expect(screen.queryByText(VALIDATION_MESSAGES.passwordsDoNotMatch)).not.toBeInTheDocument();
  });

  it('asks for at least 8 characters', async () => {
    mockApi(validToken);
    renderPage();
    const user = await fillPasswords('short', 'short');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(VALIDATION_MESSAGES.newPasswordTooShort)).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it("sets the password, shows 'Password Updated', then goes to /dashboard after 1 s signed in", async () => {
    const answer = deferredReply();
    const api = mockApi({ ...validToken, 'POST /api/auth/reset-password': answer.route });
    renderPage();
    const user = await fillPasswords('Brand-New-Pass1', 'Brand-New-Pass1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();

    vi.useFakeTimers();
    // the server signed the user in (auth.ts after-hook)
    api.set('GET /api/auth/get-session', { body: sessionBody('s-after-reset') });
    answer.resolve({ body: { status: true } });
    expect(await screen.findByRole('heading', { name: 'Password Updated' })).toBeInTheDocument();
    expect(screen.getAllByText(RESET_TEXTS.passwordUpdated.title).length).toBeGreaterThanOrEqual(1);
    expect(api.callsTo('POST', '/api/auth/reset-password')[0]!.body).toEqual({ token: TOKEN, newPassword: 'Brand-New-Pass1' });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(screen.queryByTestId('destination')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    await waitFor(() => expect(screen.getByTestId('destination')).toHaveTextContent('Dashboard /dashboard'));
    expect(api.callsTo('GET', '/api/auth/get-session').length).toBeGreaterThanOrEqual(2);
  });

  it("shows 'Reset Link Error' and goes to /forgot-password when the token expired meanwhile", async () => {
    mockApi({ ...validToken, 'POST /api/auth/reset-password': { status: 400, body: { code: 'INVALID_TOKEN', message: 'Invalid token' } } });
    renderPage();
    const user = await fillPasswords('Brand-New-Pass1', 'Brand-New-Pass1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(RESET_TEXTS.linkError.title)).toBeInTheDocument();
    expect(await screen.findByTestId('destination')).toHaveTextContent('/forgot-password');
  });

  it.each([
    ['the network fails', 'network-error' as const, NETWORK_ERROR],
    ['the server fails', { status: 500, body: { message: 'boom' } }, UNEXPECTED_ERROR],
  ])("shows 'Failed to update password' when %s and keeps the form", async (_case, reply, description) => {
    mockApi({ ...validToken, 'POST /api/auth/reset-password': reply });
    renderPage();
    const user = await fillPasswords('Brand-New-Pass1', 'Brand-New-Pass1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(RESET_TEXTS.updateFailedTitle)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeEnabled();
  });
});
