import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LOGIN_TEXTS, NETWORK_ERROR, SIGN_UP_TEXTS, UNEXPECTED_ERROR } from '@shared/error-messages';
import { VALIDATION_MESSAGES } from '@shared/validation';
import { deferredReply, findToast, resetAfterTest, type ApiCall } from '@client/test/render';
import { AUTH_PAGE_TEXTS, AuthPage } from './auth-page';
import { mockApi, renderAt, sessionBody } from './auth-test-kit';

afterEach(resetAfterTest);

const renderAuth = (url = '/auth') => renderAt('/auth', <AuthPage />, url);

const emailField = () => screen.getByLabelText('Email');
const passwordField = () => screen.getByLabelText('Password');
const submit = (name: 'Sign In' | 'Sign Up' | RegExp = 'Sign In') => screen.getByRole('button', { name });

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(emailField(), email);
  if (password) await user.type(passwordField(), password);
  return user;
}

/** The server signs in: the next get-session answers the new session. */
function signsIn(api: ReturnType<typeof mockApi>, hasAccess: boolean) {
  return (call: ApiCall) => {
    api.set('GET /api/auth/get-session', { body: sessionBody('s-new') });
    api.set('GET /api/access', { body: { hasAccess } });
    return { body: { token: 'tok', user: { id: 'u-1', email: (call.body as { email: string }).email } } };
  };
}

describe('/auth: the form', () => {
  it('shows a centred card with the brand, labelled fields and the ways out', async () => {
    mockApi({});
    renderAuth();
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getByText('Candlewise')).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('type', 'email');
    expect(emailField()).toHaveAttribute('maxlength', '254');
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
  });

  it("goes 'Back to Homepage' to the redirect value, and never off-site", async () => {
    mockApi({});
    renderAuth('/auth?redirect=%2Feu');
    expect(await screen.findByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/eu');
    resetAfterTest();
    mockApi({});
    renderAuth('/auth?redirect=%2F%2Fevil.example%2Fphish');
    expect(await screen.findByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
  });

  it('pre-fills the e-mail from the email query parameter', async () => {
    mockApi({});
    renderAuth('/auth?email=jane%40example.com');
    expect(await screen.findByLabelText('Email')).toHaveValue('jane@example.com');
  });

  it('keeps submit disabled until both fields are filled', async () => {
    mockApi({});
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(submit()).toBeDisabled();
    const user = await fill('ada@example.com', '');
    expect(submit()).toBeDisabled();
    await user.type(passwordField(), 'x');
    expect(submit()).toBeEnabled();
    await user.clear(emailField());
    expect(submit()).toBeDisabled();
  });

  it('shows and hides the password', async () => {
    mockApi({});
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(passwordField()).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordField()).toHaveAttribute('type', 'password');
  });

  it('refuses an invalid e-mail with the spec message, marks the field, and clears the error on edit', async () => {
    const api = mockApi({});
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('not-an-email', 'secret');
    await user.click(submit());
    expect(await screen.findByText(VALIDATION_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/auth/sign-in/email')).toHaveLength(0);
    await user.type(emailField(), 'x');
    expect(screen.queryByText(VALIDATION_MESSAGES.emailInvalid)).not.toBeInTheDocument();
    expect(emailField()).not.toHaveAttribute('aria-invalid');
  });

  it('sends the e-mail trimmed and without < >', async () => {
    const api = mockApi({ 'POST /api/auth/sign-in/email': { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } } });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('  <ada@example.com>  ', 'whatever');
    await user.click(submit());
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/sign-in/email')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/auth/sign-in/email')[0]!.body).toEqual({ email: 'ada@example.com', password: 'whatever' });
  });
});

describe('/auth: signing in', () => {
  it('does not check the password length on sign-in', async () => {
    const api = mockApi({});
    api.set('POST /api/auth/sign-in/email', signsIn(api, true));
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'short');
    await user.click(submit());
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/sign-in/email')).toHaveLength(1));
  });

  it('is disabled and says so while signing in', async () => {
    const answer = deferredReply();
    mockApi({ 'POST /api/auth/sign-in/email': answer.route });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(await screen.findByRole('button', { name: 'Signing In...' })).toBeDisabled();
    answer.resolve({ status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('goes to /dashboard with premium access', async () => {
    const api = mockApi({});
    api.set('POST /api/auth/sign-in/email', signsIn(api, true));
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(await screen.findByTestId('destination')).toHaveTextContent('Dashboard /dashboard');
    expect(api.callsTo('GET', '/api/access').length).toBeGreaterThanOrEqual(1);
  });

  it('goes to the redirect value with premium access', async () => {
    const api = mockApi({});
    api.set('POST /api/auth/sign-in/email', signsIn(api, true));
    renderAuth('/auth?redirect=%2Feu');
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(await screen.findByTestId('destination')).toHaveTextContent('EU home page /eu');
  });

  it('goes to /premium-access-required without access', async () => {
    const api = mockApi({});
    api.set('POST /api/auth/sign-in/email', signsIn(api, false));
    renderAuth('/auth?redirect=%2Feu');
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(await screen.findByTestId('destination')).toHaveTextContent('Premium access required /premium-access-required');
  });

  it('tells when the browser did not keep the session cookie', async () => {
    mockApi({ 'POST /api/auth/sign-in/email': { body: { token: 'tok', user: { id: 'u-1', email: 'ada@example.com' } } } });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(await screen.findByText(AUTH_PAGE_TEXTS.cookiesBlocked.description)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });

  it('sends a signed-in visitor on at once', async () => {
    mockApi({ 'GET /api/auth/get-session': { body: sessionBody() }, 'GET /api/access': { body: { hasAccess: true } } });
    renderAuth('/auth?redirect=%2Fdashboard%2Fsettings');
    expect(await screen.findByTestId('destination')).toHaveTextContent('Dashboard /dashboard/settings');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it.each([
    ['wrong e-mail or password', { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } }, LOGIN_TEXTS.invalidCredentials],
    ['too many attempts', { status: 429, body: { message: 'Too many requests. Please try again later.' } }, LOGIN_TEXTS.tooManyAttempts],
    ['unconfirmed e-mail', { status: 403, body: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' } }, LOGIN_TEXTS.emailNotConfirmed],
    ['network failure', 'network-error' as const, { title: 'Login Failed', description: NETWORK_ERROR }],
    ['server failure', { status: 500, body: { message: 'boom' } }, { title: 'Login Failed', description: UNEXPECTED_ERROR }],
  ])('tells about %s', async (_case, reply, expected) => {
    mockApi({ 'POST /api/auth/sign-in/email': reply });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    expect(within(await findToast(expected.title)).getByText(expected.description)).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Sign In' })).getByRole('alert')).toHaveTextContent(expected.title);
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });

  it('says a wrong password beside the form, not only in a toast, until the member edits (#46)', async () => {
    mockApi({ 'POST /api/auth/sign-in/email': { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } } });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit());
    const form = screen.getByRole('form', { name: 'Sign In' });
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(LOGIN_TEXTS.invalidCredentials.title);
    expect(alert).toHaveTextContent(LOGIN_TEXTS.invalidCredentials.description);
    await user.type(screen.getByLabelText('Password'), '4');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('/auth: signing up', () => {
  async function toSignUp() {
    await screen.findByRole('heading', { name: 'Welcome back' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  }

  it('checks the sign-up password rule with its full message', async () => {
    const api = mockApi({});
    renderAuth();
    await toSignUp();
    const user = await fill('ada@example.com', 'abcdefgh');
    await user.click(submit('Sign Up'));
    expect(await screen.findByText(VALIDATION_MESSAGES.signUpPassword)).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/auth/sign-up/email')).toHaveLength(0);
    await user.type(passwordField(), 'A');
    expect(screen.queryByText(VALIDATION_MESSAGES.signUpPassword)).not.toBeInTheDocument();
  });

  it('signs the new user in when a session is returned and sends them on', async () => {
    const api = mockApi({});
    api.set('POST /api/auth/sign-up/email', (call) => {
      api.set('GET /api/auth/get-session', { body: sessionBody('s-new') });
      api.set('GET /api/access', { body: { hasAccess: false } });
      return { body: { token: 'tok', user: { id: 'u-1', email: (call.body as { email: string }).email } } };
    });
    renderAuth();
    await toSignUp();
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit('Sign Up'));
    expect(await screen.findByTestId('destination')).toHaveTextContent('Premium access required');
    expect(screen.getByText(SIGN_UP_TEXTS.welcome.title)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/sign-up/email')[0]!.body).toMatchObject({ email: 'ada@example.com', password: 'Secret123', name: 'ada' });
  });

  it("says 'please log in' and switches to sign-in when no session is returned", async () => {
    mockApi({ 'POST /api/auth/sign-up/email': { body: { token: null, user: { id: 'u-1', email: 'ada@example.com' } } } });
    renderAuth();
    await toSignUp();
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit('Sign Up'));
    expect(await screen.findByText(SIGN_UP_TEXTS.pleaseLogIn.description)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(emailField()).toHaveValue('ada@example.com');
    expect(passwordField()).toHaveValue('');
  });

  it('switches to sign-in when the account already exists', async () => {
    mockApi({ 'POST /api/auth/sign-up/email': { status: 422, body: { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'User already exists. Use another email.' } } });
    renderAuth();
    await toSignUp();
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit('Sign Up'));
    expect(within(await findToast(SIGN_UP_TEXTS.userExists.title)).getByText(SIGN_UP_TEXTS.userExists.description)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(emailField()).toHaveValue('ada@example.com');
  });

  it.each([
    ['registration is disabled', { status: 403, body: { error: { code: 'registration_disabled', message: 'User registration is currently disabled.' } } }, SIGN_UP_TEXTS.failedTitle, SIGN_UP_TEXTS.registrationDisabled],
    ['the password is too weak for the server', { status: 400, body: { code: 'PASSWORD_TOO_SHORT', message: 'Password too short' } }, SIGN_UP_TEXTS.failedTitle, SIGN_UP_TEXTS.weakPassword],
    ['there were too many attempts', { status: 429, body: { message: 'Too many requests. Please try again later.' } }, LOGIN_TEXTS.tooManyAttempts.title, LOGIN_TEXTS.tooManyAttempts.description],
    ['the network failed', 'network-error' as const, SIGN_UP_TEXTS.failedTitle, NETWORK_ERROR],
    ['the server failed', { status: 500, body: { message: 'boom' } }, SIGN_UP_TEXTS.failedTitle, UNEXPECTED_ERROR],
    ['anything else went wrong', { status: 400, body: { code: 'FAILED_TO_CREATE_USER', message: 'Failed to create user' } }, SIGN_UP_TEXTS.failedTitle, SIGN_UP_TEXTS.registrationError],
  ])('tells when %s and stays on sign-up', async (_case, reply, title, description) => {
    mockApi({ 'POST /api/auth/sign-up/email': reply });
    renderAuth();
    await toSignUp();
    const user = await fill('ada@example.com', 'Secret123');
    await user.click(submit('Sign Up'));
    expect(within(await findToast(title)).getByText(description)).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Sign Up' })).getByRole('alert')).toHaveTextContent(description);
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });

  it('goes back to sign-in from the link under the card', async () => {
    mockApi({});
    renderAuth();
    await toSignUp();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });
});

describe('/auth: two-factor', () => {
  it('asks an account with two-factor for its code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const api = mockApi({ 'POST /api/auth/sign-in/email': { body: { twoFactorRedirect: true, twoFactorMethods: ['totp'] } } });
    let tries = 0;
    api.set('POST /api/auth/two-factor/verify-totp', () => {
      tries += 1;
      if (tries === 1) return { status: 401, body: { code: 'INVALID_CODE', message: 'Invalid code' } };
      api.set('GET /api/auth/get-session', { body: sessionBody('s-2fa') });
      api.set('GET /api/access', { body: { hasAccess: false } });
      return { body: { token: 'tok' } };
    });
    renderAuth('/auth?redirect=%2Fadmin');
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ops@example.com', 'Sup3rSecret!');
    await user.click(submit());

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
    await user.type(screen.getByLabelText('Authentication code'), '000 000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid. Check the time on your phone and try again.')).toBeVisible();

    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    // the console decides for itself: an operator without a subscription still goes there
    expect(await screen.findByTestId('destination')).toHaveTextContent('Operator console');
    expect(api.callsTo('POST', '/api/auth/two-factor/verify-totp').map((call) => call.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('takes a backup code instead of the app', async () => {
    const api = mockApi({
      'POST /api/auth/sign-in/email': { body: { twoFactorRedirect: true } },
      'POST /api/auth/two-factor/verify-backup-code': { status: 401, body: { code: 'INVALID_BACKUP_CODE', message: 'Invalid backup code' } },
    });
    renderAuth();
    await screen.findByRole('heading', { name: 'Welcome back' });
    const user = await fill('ops@example.com', 'Sup3rSecret!');
    await user.click(submit());
    await user.click(await screen.findByRole('button', { name: 'Use a backup code instead' }));
    await user.type(screen.getByLabelText('Backup code'), 'abcd-1234');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid. Check the time on your phone and try again.')).toBeVisible();
    expect(api.callsTo('POST', '/api/auth/two-factor/verify-backup-code').map((call) => call.body)).toEqual([{ code: 'abcd-1234' }]);
  });
});
