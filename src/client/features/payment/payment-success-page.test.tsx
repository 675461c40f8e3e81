import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GetPaymentDetailsResponse } from '@shared/api-contract';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { deferredReply, errorReply, stubLocation, TEST_SITE_SETTINGS, type ApiReply } from '@client/test/render';
import { PaymentSuccessPage } from './payment-success-page';
import { BUYER, mockApi, renderPage, resetPaymentTest, signedIn } from './payment-test-kit';

const SESSION = 'cs_sbx_123';

const detailsOf = (userStatus: GetPaymentDetailsResponse['userStatus'], overrides: Partial<GetPaymentDetailsResponse> = {}): ApiReply => ({
  body: { email: BUYER.email, planType: 'monthly', amountTotal: 3600, currency: 'usd', userStatus, emailProven: true, ...overrides },
});

function renderSuccess(path = `/payment-success?session_id=${SESSION}`, settings = TEST_SITE_SETTINGS) {
  return renderPage([{ path: '/payment-success', element: <PaymentSuccessPage /> }], [path], settings);
}

/** Fake clock that still moves on its own, so Testing Library's waitFor keeps working. */
function fakeClock() {
  vi.useFakeTimers();
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

const landed = () => screen.findByTestId('landed');

afterEach(resetPaymentTest);

describe('/payment-success before the details arrive', () => {
  it('without session_id: the Invalid Payment Session screen and toast, and no call', async () => {
    const api = mockApi({});
    renderSuccess('/payment-success');
    expect(await screen.findByRole('heading', { name: 'Invalid Payment Session' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('No payment session found. Please try again.')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/get-payment-details')).toHaveLength(0);
  });

  it("shows 'Loading authentication...' then 'Loading payment details...', then the details", async () => {
    const session = deferredReply();
    const details = deferredReply();
    mockApi({ 'GET /api/auth/get-session': session.route, 'POST /api/get-payment-details': details.route });
    renderSuccess();
    expect(await screen.findByText('Loading authentication...')).toBeInTheDocument();
    await act(async () => session.resolve({ body: null }));
    expect(await screen.findByText('Loading payment details...')).toBeInTheDocument();
    await act(async () => details.resolve(detailsOf('new')));
    expect(await screen.findByRole('heading', { name: 'Create your account password to get started' })).toBeInTheDocument();
  });

  it("after 15 s without details: the 'Processing Taking Too Long' toast and the timeout screen, whose Retry reloads", async () => {
    const user = fakeClock();
    const location = stubLocation();
    const details = deferredReply();
    mockApi({ 'POST /api/get-payment-details': details.route });
    renderSuccess();
    expect(await screen.findByText('Loading payment details...')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(14_500));
    expect(screen.queryByText('Processing Timeout')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(await screen.findByRole('heading', { name: 'Processing Timeout' })).toBeInTheDocument();
    expect(await screen.findByText('Processing Taking Too Long')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(location.reload).toHaveBeenCalledTimes(1);
    location.restore();
  });

  it('shows the server message when the details cannot be loaded', async () => {
    mockApi({ 'POST /api/get-payment-details': errorReply(404, 'session_not_found', 'Payment session not found.') });
    renderSuccess();
    expect(await screen.findByRole('heading', { name: 'Error loading payment details' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Payment session not found.')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('explains a second payment that was refunded instead of activating it', async () => {
    const message = SERVER_ERROR_MESSAGES.duplicate_payment;
    const api = mockApi({ 'POST /api/get-payment-details': errorReply(409, 'duplicate_payment', message) });
    renderSuccess();
    expect(await screen.findByRole('heading', { name: 'Payment Refunded' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Homepage' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/verify-payment')).toHaveLength(0);
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(0);
  });

  it('falls back to the default text on a server failure, and says so when no data came back', async () => {
    mockApi({ 'POST /api/get-payment-details': errorReply(500, 'internal', 'Something went wrong on our side. Please try again.') });
    renderSuccess();
    await waitFor(() => expect(screen.getAllByText('There was a problem loading your payment information.')).toHaveLength(2));
    resetPaymentTest();

    mockApi({ 'POST /api/get-payment-details': { body: null } });
    renderSuccess();
    await waitFor(() => expect(screen.getAllByText('No payment data received')).toHaveLength(2));
  });

  it('keeps asking while the provider has not confirmed the payment yet', async () => {
    fakeClock();
    let asked = 0;
    mockApi({
      'POST /api/get-payment-details': () => (++asked < 3 ? errorReply(409, 'session_not_paid', 'This payment has not been completed.') : detailsOf('new')),
    });
    renderSuccess();
    await act(() => vi.advanceTimersByTimeAsync(4_500));
    expect(await screen.findByRole('heading', { name: 'Create your account password to get started' })).toBeInTheDocument();
    expect(asked).toBe(3);
  });
});

describe('/payment-success for a new buyer', () => {
  it('shows the order summary and what happens next', async () => {
    mockApi({ 'POST /api/get-payment-details': detailsOf('new') });
    renderSuccess();
    const summary = await screen.findByRole('region', { name: 'Order Summary' });
    expect(within(summary).getByText('Monthly subscription')).toBeInTheDocument();
    expect(within(summary).getByText('$36.00')).toBeInTheDocument();
    expect(within(summary).getByText(BUYER.email)).toBeInTheDocument();
    const next = screen.getByRole('region', { name: 'What happens next' });
    expect(next).toHaveTextContent('usually granted within minutes, but it can take up to 1–2 hours');
    expect(next).toHaveTextContent('Invite-only scripts');
  });

  it('checks the password locally: empty disables, short and mismatching are refused without a call, the toggle shows both', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'POST /api/get-payment-details': detailsOf('new') });
    renderSuccess();
    const password = await screen.findByLabelText('Password');
    const confirm = screen.getByLabelText('Confirm Password');
    const submit = screen.getByRole('button', { name: 'Create Account' });
    expect(submit).toBeDisabled();

    await user.type(password, 'short');
    await user.type(confirm, 'short');
    await user.click(submit);
    expect(await screen.findByText('Invalid Password')).toBeInTheDocument();
    expect(screen.getAllByText('Password must be at least 8 characters long').length).toBeGreaterThan(0);

    await user.clear(password);
    await user.type(password, 'long-enough-1');
    await user.click(submit);
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/verify-payment')).toHaveLength(0);

    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(confirm).toHaveAttribute('type', 'text');
  });

  it('creates the account, signs in, asks for the username, activates and goes to the dashboard after 1.5 s', async () => {
    const user = fakeClock();
    const api = mockApi({
      'POST /api/get-payment-details': detailsOf('new'),
      'POST /api/verify-payment': () => {
        api.set('GET /api/auth/get-session', signedIn());
        return { body: { email: BUYER.email, signedIn: true } };
      },
      'POST /api/activate-existing-subscription': () => {
        api.set('GET /api/access', { body: { hasAccess: true } });
        return { body: { success: true, signedIn: true } };
      },
    });
    renderSuccess();
    await user.type(await screen.findByLabelText('Password'), 'my-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'my-new-password');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/verify-payment')[0]?.body).toEqual({ sessionId: SESSION, password: 'my-new-password' });
    expect(await screen.findByRole('heading', { name: 'Activate Premium Access' })).toBeInTheDocument();

    // Empty username: the new-account wording of the toast.
    await user.click(screen.getByRole('button', { name: 'Activate Premium Access' }));
    expect(await screen.findByText('Username Required')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(0);

    await user.type(screen.getByLabelText('TradingView Username'), '  chart_wizard ');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Access' }));
    expect(await screen.findByText('TradingView Access Activated!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')[0]?.body).toEqual({ sessionId: SESSION, tradingviewUsername: 'chart_wizard' });
    expect(api.callsTo('POST', '/api/post-payment-cleanup')).toHaveLength(0);

    await act(() => vi.advanceTimersByTimeAsync(1_400));
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(await landed()).toHaveTextContent('Dashboard page /dashboard');
    // Access was asked again after the purchase was linked, so the dashboard guard lets them in.
    expect(api.callsTo('GET', '/api/access').length).toBeGreaterThan(0);
  });

  it('when the automatic sign-in fails: tells the buyer to log in and goes to /auth?email=… after 2 s', async () => {
    fakeClock();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    mockApi({ 'POST /api/get-payment-details': detailsOf('new'), 'POST /api/verify-payment': { body: { email: BUYER.email, signedIn: false } } });
    renderSuccess();
    await user.type(await screen.findByLabelText('Password'), 'my-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'my-new-password');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    await waitFor(() => expect(screen.getAllByText('Account created successfully! Please log in manually to activate your access.').length).toBeGreaterThan(0));
    await act(() => vi.advanceTimersByTimeAsync(1_900));
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    const target = new URL((await landed()).textContent!.replace('Sign-in page ', ''), 'http://x');
    expect(target.pathname).toBe('/auth');
    expect(target.searchParams.get('email')).toBe(BUYER.email);
    expect(target.searchParams.get('redirect')).toBe(`/payment-success?session_id=${SESSION}`);
  });

  it.each([
    ['network-error' as const, 'Unable to connect to our servers. Please check your internet connection and try again.'],
    [errorReply(503, 'provider_unavailable', 'The payment provider is temporarily unavailable. Please try again.'), 'Account creation service is temporarily unavailable. Please contact support.'],
    [errorReply(409, 'session_claimed', 'This payment has already been used to activate an account. Please log in.'), 'This payment has already been used to activate an account. Please log in.'],
    [errorReply(500, 'internal', 'boom'), 'There was a problem creating your account. Please try again.'],
  ])('shows the account-creation failure %#', async (reply, description) => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/get-payment-details': detailsOf('new'), 'POST /api/verify-payment': reply });
    renderSuccess();
    await user.type(await screen.findByLabelText('Password'), 'my-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'my-new-password');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account Creation Failed')).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });
});

describe('/payment-success in a browser that did not pay', () => {
  it.each(['new', 'existing_needs_login'] as const)('%s, unproven: the "use the mailed link" message, the masked e-mail and no form', async (userStatus) => {
    const api = mockApi({ 'POST /api/get-payment-details': detailsOf(userStatus, { email: 'b***@example.com', emailProven: false }) });
    renderSuccess();
    expect(await screen.findByRole('heading', { name: 'Continue from your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/Open the "Finish setting up your access" e-mail/)).toBeInTheDocument();
    expect(screen.getAllByText('b***@example.com').length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/verify-payment')).toHaveLength(0);
  });

  it('opened from the mailed link: sends its proof with the details and with the account creation', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'POST /api/get-payment-details': detailsOf('new'),
      'POST /api/verify-payment': { body: { email: BUYER.email, signedIn: false } },
    });
    renderSuccess(`/payment-success?session_id=${SESSION}&proof=123.abc`);
    await user.type(await screen.findByLabelText('Password'), 'my-new-password');
    await user.type(screen.getByLabelText('Confirm Password'), 'my-new-password');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/verify-payment')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/get-payment-details')[0]?.body).toEqual({ sessionId: SESSION, proof: '123.abc' });
    expect(api.callsTo('POST', '/api/verify-payment')[0]?.body).toEqual({ sessionId: SESSION, password: 'my-new-password', proof: '123.abc' });
  });

  it('opened from the mailed link and signed in: the activation with the username carries the proof too', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_needs_tv'),
      'POST /api/activate-existing-subscription': { body: { success: true, signedIn: true } },
    });
    renderSuccess(`/payment-success?session_id=${SESSION}&proof=123.abc`);
    await user.type(await screen.findByLabelText('TradingView Username'), 'mailed_trader');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/activate-existing-subscription')[0]?.body).toEqual({ sessionId: SESSION, proof: '123.abc', tradingviewUsername: 'mailed_trader' });
  });

  it('opened from the mailed link with a username on file: the automatic activation carries the proof', async () => {
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_complete'),
      'POST /api/activate-existing-subscription': { body: { success: true, signedIn: true } },
    });
    renderSuccess(`/payment-success?session_id=${SESSION}&proof=123.abc`);
    expect(await screen.findByText('Subscription activated successfully!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toEqual([expect.objectContaining({ body: { sessionId: SESSION, proof: '123.abc' } })]);
  });

  it('signed in as the paid e-mail but without the proof: the refusal says to use the mailed link', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_needs_tv'),
      'POST /api/activate-existing-subscription': errorReply(403, 'purchase_unproven', SERVER_ERROR_MESSAGES.purchase_unproven),
    });
    renderSuccess();
    await user.type(await screen.findByLabelText('TradingView Username'), 'some_trader');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    await waitFor(() => expect(screen.getAllByText(SERVER_ERROR_MESSAGES.purchase_unproven)).toHaveLength(2));
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });
});

describe('/payment-success for a buyer with an account, signed out (existing_needs_login)', () => {
  it("shows 'Welcome Back' with the paid e-mail locked, and asks for the password", async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'POST /api/get-payment-details': detailsOf('existing_needs_login') });
    renderSuccess();
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toBeDisabled();
    expect(email).toHaveValue(BUYER.email);
    await user.click(screen.getByRole('button', { name: 'Log In & Activate Access' }));
    expect(await screen.findByText('Password Required')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password to continue.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/sign-in/email')).toHaveLength(0);
  });

  it.each([
    [{ status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } }, 'Login Failed', 'Incorrect password. Please try again.'],
    ['network-error' as const, 'Login Error', 'There was a problem logging you in. Please try again.'],
    [{ status: 500, body: null }, 'Login Error', 'There was a problem logging you in. Please try again.'],
  ])('maps a failed login %#', async (reply, title, description) => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/get-payment-details': detailsOf('existing_needs_login'), 'POST /api/auth/sign-in/email': reply });
    renderSuccess();
    await user.type(await screen.findByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log In & Activate Access' }));
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
  });

  it('logs in, clears the status, and re-reads the details 1 s later (then asks for the username)', async () => {
    const user = fakeClock();
    const api = mockApi({
      'POST /api/get-payment-details': detailsOf('existing_needs_login'),
      'POST /api/auth/sign-in/email': () => {
        api.set('GET /api/auth/get-session', signedIn());
        api.set('POST /api/get-payment-details', detailsOf('existing_needs_tv'));
        return { body: { token: 't', user: BUYER } };
      },
    });
    renderSuccess();
    await user.type(await screen.findByLabelText('Password'), 'Returning1!');
    await user.click(screen.getByRole('button', { name: 'Log In & Activate Access' }));

    expect(await screen.findByText('Login Successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back! Processing your purchase...')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/sign-in/email')[0]?.body).toEqual({ email: BUYER.email, password: 'Returning1!' });
    expect(await screen.findByText('Processing your payment...')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/get-payment-details')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByRole('heading', { name: 'Activate Your Subscription' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/get-payment-details')).toHaveLength(2);
  });
});

describe('/payment-success for a signed-in owner without a username (existing_needs_tv)', () => {
  it("refuses an empty username with 'Missing TradingView Username'", async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/auth/get-session': signedIn(), 'POST /api/get-payment-details': detailsOf('existing_needs_tv') });
    renderSuccess();
    await user.click(await screen.findByRole('button', { name: 'Activate Subscription' }));
    expect(await screen.findByText('Missing TradingView Username')).toBeInTheDocument();
    expect(screen.getAllByText('Please provide your TradingView username.').length).toBeGreaterThan(0);
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(0);
  });

  it('refuses a username TradingView could never have, without a call', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/auth/get-session': signedIn(), 'POST /api/get-payment-details': detailsOf('existing_needs_tv') });
    renderSuccess();
    await user.type(await screen.findByLabelText('TradingView Username'), 'not a name!');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    expect(await screen.findByText('TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(0);
  });

  it.each([
    [errorReply(422, 'tv_username_not_found', 'This TradingView username does not exist.'), 'This TradingView username does not exist. Please check your username and try again.'],
    [errorReply(502, 'tv_unverifiable', 'Unable to verify TradingView username.'), 'Unable to verify TradingView username. Please check the username and try again.'],
    [errorReply(503, 'tv_session_expired', 'The TradingView session used to grant access has expired.'), 'Your session has expired. Please refresh the page and try again.'],
    ['network-error' as const, 'Connection error. Please check your internet connection and try again.'],
    [errorReply(401, 'unauthorized', 'Please sign in to continue.'), 'Session expired. Please sign in again.'],
    [errorReply(403, 'email_mismatch', 'This payment belongs to a different email address.'), 'This payment belongs to a different email address.'],
  ])('shows the activation failure %# in a toast and under the field', async (reply, description) => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/auth/get-session': signedIn(), 'POST /api/get-payment-details': detailsOf('existing_needs_tv'), 'POST /api/activate-existing-subscription': reply });
    renderSuccess();
    await user.type(await screen.findByLabelText('TradingView Username'), 'ghost_trader');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    expect(await screen.findByText('TradingView Activation Failed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText(description)).toHaveLength(2));
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('a failure told again (a second attempt) shows once, not as a second toast (#46)', async () => {
    const user = userEvent.setup();
    const description = 'This TradingView username does not exist. Please check your username and try again.';
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_needs_tv'),
      'POST /api/activate-existing-subscription': errorReply(422, 'tv_username_not_found', 'This TradingView username does not exist.'),
    });
    renderSuccess();
    await user.type(await screen.findByLabelText('TradingView Username'), 'ghost_trader');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    await waitFor(() => expect(screen.getAllByText(description)).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/activate-existing-subscription')).toHaveLength(2));
    // the second attempt has ended when its button is back
    await waitFor(() => expect(screen.getByRole('button', { name: 'Activate Subscription' })).toBeEnabled());
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    // the toast and the text under the field: one each
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1);
    expect(screen.getAllByText(description)).toHaveLength(2);
  });

  it('activates with the username and goes to the dashboard after 1.5 s', async () => {
    const user = fakeClock();
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_needs_tv'),
      'POST /api/activate-existing-subscription': { body: { success: true, signedIn: true } },
    });
    renderSuccess();
    await user.type(await screen.findByLabelText('TradingView Username'), 'returning_trader');
    await user.click(screen.getByRole('button', { name: 'Activate Subscription' }));
    expect(await screen.findByText('TradingView Access Activated!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')[0]?.body).toEqual({ sessionId: SESSION, tradingviewUsername: 'returning_trader' });
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(await landed()).toHaveTextContent('Dashboard page /dashboard');
  });
});

describe('/payment-success for a signed-in owner with a username on file (existing_complete)', () => {
  it('activates on its own, without a username, and goes to the dashboard after 1.5 s', async () => {
    fakeClock();
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_complete'),
      'POST /api/activate-existing-subscription': { body: { success: true, signedIn: true } },
    });
    renderSuccess();
    expect(await screen.findByText('Subscription activated successfully!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/activate-existing-subscription')).toEqual([expect.objectContaining({ body: { sessionId: SESSION } })]);
    await act(() => vi.advanceTimersByTimeAsync(1_400));
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(await landed()).toHaveTextContent('Dashboard page /dashboard');
  });

  it("shows 'Error activating subscription' and lets the buyer try again", async () => {
    const user = userEvent.setup();
    let attempts = 0;
    mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_complete'),
      'POST /api/activate-existing-subscription': () => (++attempts === 1 ? errorReply(500, 'internal', 'boom') : { body: { success: true, signedIn: true } }),
    });
    renderSuccess();
    expect(await screen.findByRole('heading', { name: 'Error activating subscription' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('There was a problem activating your subscription. Please try again.')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Subscription activated successfully!')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('after a lifetime purchase asks the server to end the replaced plan, and goes on when that fails', async () => {
    fakeClock();
    const api = mockApi({
      'GET /api/auth/get-session': signedIn(),
      'POST /api/get-payment-details': detailsOf('existing_complete', { planType: 'lifetime', amountTotal: 54999 }),
      'POST /api/activate-existing-subscription': { body: { success: true, signedIn: true } },
      'POST /api/post-payment-cleanup': errorReply(500, 'internal', 'boom'),
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderSuccess();
    expect(await screen.findByText('Subscription activated successfully!')).toBeInTheDocument();
    expect(screen.getByText('Lifetime access')).toBeInTheDocument();
    expect(screen.getByText('$549.99')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST', '/api/post-payment-cleanup')).toEqual([expect.objectContaining({ body: { email: BUYER.email, newPlanType: 'lifetime' } })]));
    await act(() => vi.advanceTimersByTimeAsync(1_600));
    expect(await landed()).toHaveTextContent('Dashboard page /dashboard');
    expect(warn).toHaveBeenCalled();
  });
});

describe('purchase conversion', () => {
  it('is reported to the pixel once per payment session, with the amount in major units', async () => {
    const settings = { ...TEST_SITE_SETTINGS, metaPixelId: '1234567890' };
    mockApi({ 'POST /api/get-payment-details': detailsOf('new') });
    const purchases = () => (window.fbq?.queue ?? []).filter((args) => args[0] === 'track' && args[1] === 'Purchase');

    const first = renderSuccess(undefined, settings);
    await screen.findByRole('heading', { name: 'Create your account password to get started' });
    await waitFor(() => expect(purchases()).toEqual([['track', 'Purchase', { value: 36, currency: 'USD' }, { eventID: SESSION }]]));
    first.unmount();

    // A reload of the same page does not count the purchase again.
    renderSuccess(undefined, settings);
    await screen.findByRole('heading', { name: 'Create your account password to get started' });
    expect(purchases()).toHaveLength(1);
  });
});
