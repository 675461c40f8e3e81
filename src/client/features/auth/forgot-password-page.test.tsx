import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { NETWORK_ERROR, RESET_TEXTS, UNEXPECTED_ERROR } from '@shared/error-messages';
import { VALIDATION_MESSAGES } from '@shared/validation';
import { deferredReply, resetAfterTest } from '@client/test/render';
import { mockApi, renderAt } from './auth-test-kit';
import { ForgotPasswordPage } from './forgot-password-page';

afterEach(resetAfterTest);

const renderPage = (url = '/forgot-password') => renderAt('/forgot-password', <ForgotPasswordPage />, url);
const SENT = { body: { status: true, message: 'If this email exists in our system, check your email for the reset link' } };

describe('/forgot-password', () => {
  it("asks for the e-mail, with 'Send Reset Link' disabled while it is empty and 'Back to Sign In'", async () => {
    mockApi({});
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('maxlength', '254');
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/auth');
    await userEvent.setup().type(screen.getByLabelText('Email'), 'a');
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
  });

  it('refuses an invalid address with the spec message and clears it on edit', async () => {
    const api = mockApi({});
    renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(VALIDATION_MESSAGES.forgotEmailInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/auth/request-password-reset')).toHaveLength(0);
    await user.type(screen.getByLabelText('Email'), '@example.com');
    expect(screen.queryByText(VALIDATION_MESSAGES.forgotEmailInvalid)).not.toBeInTheDocument();
  });

  it("sends the sanitised address and shows 'Check Your Email' with the 10-minute lifetime", async () => {
    const answer = deferredReply();
    const api = mockApi({ 'POST /api/auth/request-password-reset': answer.route });
    renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), ' <ada@example.com> ');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    answer.resolve(SENT);
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText(/we have sent it a link/)).toHaveTextContent('The link expires in 10 minutes.');
    expect(screen.getByText(RESET_TEXTS.linkSent.title)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/request-password-reset')[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/auth?email=ada%40example.com');
  });

  it('can ask again for another address', async () => {
    mockApi({ 'POST /api/auth/request-password-reset': SENT });
    renderPage('/forgot-password?email=ada%40example.com');
    const user = userEvent.setup();
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    await user.click(await screen.findByRole('button', { name: 'Use a different e-mail address' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it.each([
    ['the network fails', 'network-error' as const, NETWORK_ERROR],
    ['the server fails', { status: 500, body: { message: 'boom' } }, UNEXPECTED_ERROR],
    ['there were too many requests', { status: 429, body: { message: 'Too many requests. Please try again later.' } }, 'Please wait a moment before trying again.'],
  ])("shows 'Failed to send reset email' when %s", async (_case, reply, description) => {
    mockApi({ 'POST /api/auth/request-password-reset': reply });
    renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(RESET_TEXTS.sendFailedTitle)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled());
    expect(screen.queryByRole('heading', { name: 'Check Your Email' })).not.toBeInTheDocument();
  });
});
