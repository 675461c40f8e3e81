import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_SUBSCRIPTION } from '@client/test/fixtures';
import { deferredReply, errorReply, resetAfterTest } from '@client/test/render';
import { mockApi, renderSettings, subscriptionDto, tradingviewStatus } from './settings-test-kit';

afterEach(resetAfterTest);

const accountCard = () => screen.findByRole('region', { name: 'My Account' });

/** The value shown beside a row label. */
function rowValue(card: HTMLElement, label: string) {
  const term = within(card).getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
  return value;
}

/** Opens the username form on the card, types `username` over the current one and saves; returns the input. */
async function submitNewUsername(user: ReturnType<typeof userEvent.setup>, card: HTMLElement, username: string) {
  await user.click(await within(card).findByRole('button', { name: 'Change' }));
  const input = within(card).getByLabelText('New TradingView username');
  await user.clear(input);
  await user.type(input, username);
  await user.click(within(card).getByRole('button', { name: 'Save Username' }));
  return input;
}

describe('My Account card', () => {
  it('shows Loading... in the subscription rows until the subscription arrives', async () => {
    const subscription = deferredReply();
    const tradingview = deferredReply();
    mockApi({ 'GET /api/subscription': subscription.route, 'GET /api/tradingview/status': tradingview.route });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await within(card).findByText('jane@example.com');

    for (const label of ['TradingView Username', 'Purchase Date', 'Plan']) {
      expect(rowValue(card, label)).toHaveTextContent('Loading...');
    }
    expect(rowValue(card, 'Member Since')).toHaveTextContent('March 4, 2025');

    subscription.resolve({ body: subscriptionDto({ tradingviewUsername: 'trader_jane' }) });
    tradingview.resolve({ body: tradingviewStatus('trader_jane', 'granted') });
    expect(await within(card).findByText('Monthly')).toBeInTheDocument();
    expect(within(card).queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('shows email, TradingView username, purchase date, plan and member since', async () => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ planType: 'quarterly', purchaseDate: '2025-06-15T12:00:00.000Z' }) } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await within(card).findByText('Quarterly');

    expect(rowValue(card, 'Email Address')).toHaveTextContent('jane@example.com');
    expect(rowValue(card, 'TradingView Username')).toHaveTextContent('trader_jane');
    expect(rowValue(card, 'TradingView Username')).toHaveTextContent('Access granted');
    // what the access holds, by script name; "Access granted" is said once (issue 46)
    expect(within(card).getByTestId('tradingview-delivery')).toHaveTextContent(
      '2 scripts: Candlewise Pro V2 and Candlewise Smart Money Concepts on trader_jane. In TradingView, open a chart, then Indicators → Invite-only scripts.',
    );
    expect(within(card).getAllByText(/Access granted/)).toHaveLength(1);
    expect(card).not.toHaveTextContent('PUB;');
    expect(rowValue(card, 'Purchase Date')).toHaveTextContent('June 15, 2025');
    expect(rowValue(card, 'Plan')).toHaveTextContent('Quarterly');
    expect(rowValue(card, 'Member Since')).toHaveTextContent('March 4, 2025');
  });

  it("shows 'Not provided' when the member has no TradingView username", async () => {
    mockApi({
      'GET /api/subscription': { body: subscriptionDto({ tradingviewUsername: null }) },
      'GET /api/tradingview/status': { body: tradingviewStatus(null, 'none') },
    });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await within(card).findByText('Monthly');
    expect(rowValue(card, 'TradingView Username')).toHaveTextContent('Not provided');
    expect(await within(card).findByTestId('tradingview-delivery')).toHaveTextContent(
      'Add your TradingView username so we can give you access to the indicators.',
    );
    expect(within(card).getByRole('button', { name: 'Add' })).toBeInTheDocument();
  });

  it('falls back to the username on the subscription when the TradingView status cannot be read', async () => {
    mockApi({
      'GET /api/subscription': { body: subscriptionDto({ tradingviewUsername: 'from_subscription' }) },
      'GET /api/tradingview/status': errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'),
    });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByText('from_subscription')).toBeInTheDocument();
  });

  it('warns that a wrong username blocks access and offers Discord and e-mail support', async () => {
    mockApi({ 'GET /api/subscription': { body: NO_SUBSCRIPTION }, 'GET /api/tradingview/status': { body: tradingviewStatus('trader_jane', 'pending') } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    const warning = within(card).getByRole('note');
    expect(warning).toHaveTextContent('If it is wrong, you will not get access to the indicators.');
    expect(within(warning).getByRole('link', { name: 'Discord' })).toHaveAttribute('href', 'https://discord.gg/candlewise');
    expect(within(warning).getByRole('link', { name: 'support@candlewise.test' })).toHaveAttribute(
      'href',
      'mailto:support@candlewise.test',
    );
    expect(await within(card).findByText('No plan')).toBeInTheDocument();
  });
});

describe('correcting the TradingView username', () => {
  it('refuses an invalid username without calling the server', async () => {
    const api = mockApi();
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    const input = await submitNewUsername(user, card, 'not valid!');

    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).',
    );
    await user.clear(input);
    await user.click(within(card).getByRole('button', { name: 'Save Username' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Please enter your TradingView username.');
    expect(api.callsTo('PUT', '/api/tradingview/username')).toHaveLength(0);
  });

  it('saves the new username, confirms with a toast and shows it after a refetch', async () => {
    const api = mockApi({
      'PUT /api/tradingview/username': { body: { success: true, verifiedUsername: 'Trader_Joe' } },
    });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await user.click(await within(card).findByRole('button', { name: 'Change' }));
    const input = within(card).getByLabelText('New TradingView username');
    expect(input).toHaveValue('trader_jane');

    api.set('GET /api/tradingview/status', { body: tradingviewStatus('Trader_Joe', 'pending') });
    api.set('GET /api/subscription', { body: subscriptionDto({ tradingviewUsername: 'Trader_Joe' }) });
    await user.clear(input);
    await user.type(input, '  @trader_joe ');
    await user.click(within(card).getByRole('button', { name: 'Save Username' }));

    expect(await screen.findByText('TradingView Username Updated')).toBeInTheDocument();
    expect(screen.getByText(/Indicator access now goes to Trader_Joe/)).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/tradingview/username')[0]?.body).toEqual({ tv_username: 'trader_joe' });
    expect(await within(card).findByText('Trader_Joe')).toBeInTheDocument();
    expect(within(card).getByText('Access pending')).toBeInTheDocument();
    expect(within(card).queryByLabelText('New TradingView username')).not.toBeInTheDocument();
  });

  it.each([
    [
      errorReply(422, 'tv_username_not_found', 'This TradingView username does not exist.'),
      'This TradingView username does not exist. Please check your username and try again.',
    ],
    [
      errorReply(502, 'tv_unverifiable', 'Unable to verify TradingView username.'),
      'Unable to verify TradingView username. Please check the username and try again.',
    ],
    [errorReply(401, 'unauthorized', 'Please sign in to continue.'), 'Session expired. Please sign in again.'],
  ])('shows the activation error for %j and keeps the form open', async (reply, description) => {
    mockApi({ 'PUT /api/tradingview/username': reply });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await submitNewUsername(user, card, 'ghost_trader');

    expect(await screen.findByText('TradingView Activation Failed')).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(within(card).getByLabelText('New TradingView username')).toHaveValue('ghost_trader');
    expect(rowValue(card, 'TradingView Username')).toHaveTextContent('trader_jane');
  });
});

describe('Discord on My Account', () => {
  it('shows the linked Discord username and a way to manage it', async () => {
    mockApi({ 'GET /api/discord': { body: { connected: true, username: 'jane.trades', roles: [{ id: 'r1', name: 'VIP' }], status: 'synced', lastError: null } } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByText('jane.trades')).toBeInTheDocument();
    expect(rowValue(card, 'Discord')).toHaveTextContent('jane.trades');
    expect(within(rowValue(card, 'Discord')).getByRole('link', { name: 'Manage' })).toHaveAttribute('href', '/dashboard/discord');
  });

  it("shows 'Not connected' without a linked account", async () => {
    mockApi({ 'GET /api/discord': { body: { connected: false } } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByText('Not connected')).toBeInTheDocument();
    expect(within(rowValue(card, 'Discord')).getByRole('link', { name: 'Connect' })).toHaveAttribute('href', '/dashboard/discord');
  });

  it("shows 'Loading...' until the link is known, and 'Unavailable' when it cannot be read", async () => {
    const discord = deferredReply();
    mockApi({ 'GET /api/discord': discord.route });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(rowValue(card, 'Discord')).toHaveTextContent('Loading...');
    discord.resolve(errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'));
    expect(await within(rowValue(card, 'Discord')).findByText('Unavailable')).toBeInTheDocument();
  });
});

describe('TradingView delivery in My Account (issue 46)', () => {
  it('once access is granted: the scripts by name, "Access granted" once, and no "check your username" warning', async () => {
    mockApi();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByTestId('tradingview-delivery')).toHaveTextContent('2 scripts: Candlewise Pro V2 and Candlewise Smart Money Concepts');
    expect(await within(card).findAllByText(/Access granted/)).toHaveLength(1);
    expect(within(card).queryByRole('note')).not.toBeInTheDocument();
    expect(card).not.toHaveTextContent('Check your TradingView username');
  });

  it('while pending: what is being granted, and the warning to check the username', async () => {
    mockApi({ 'GET /api/tradingview/status': { body: tradingviewStatus('trader_jane', 'pending') } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByTestId('tradingview-delivery')).toHaveTextContent(
      'Granting 2 scripts: Candlewise Pro V2 and Candlewise Smart Money Concepts on trader_jane. This usually takes a few minutes.',
    );
    expect(await within(card).findByText('Access pending')).toBeInTheDocument();
    expect(within(card).getByRole('note')).toHaveTextContent('Check your TradingView username');
  });

  it('failed: the reason and what to do, with a button that opens the correction', async () => {
    mockApi({ 'GET /api/tradingview/status': { body: tradingviewStatus('trader_jane', 'failed') } });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByTestId('tradingview-delivery')).toHaveTextContent('TradingView did not accept this username. Please check it and correct it if needed.');
    expect(await within(card).findByText('Access failed')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Correct your TradingView username' }));
    expect(within(card).getByLabelText('New TradingView username')).toHaveValue('trader_jane');
    expect(within(card).getByText(/You can change it once every 7 days\./)).toBeInTheDocument();
  });

  it('after a recent change: no Change button, the day the next change is possible', async () => {
    mockApi({ 'GET /api/tradingview/status': { body: { ...tradingviewStatus('trader_jane', 'granted'), nextChangeAt: '2099-03-10T12:00:00.000Z' } } });
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    expect(await within(card).findByTestId('tradingview-next-change')).toHaveTextContent('you can change it again on March 10, 2099');
    expect(within(card).queryByRole('button', { name: 'Change' })).not.toBeInTheDocument();
  });

  it('a name another member holds: the shared message', async () => {
    mockApi({
      'PUT /api/tradingview/username': errorReply(409, 'tv_username_taken', 'This TradingView username is already linked to another account. Contact support if it is yours.'),
    });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=account');
    const card = await accountCard();
    await submitNewUsername(user, card, 'someone_else');
    expect(await screen.findByText('This TradingView username is already linked to another account. Contact support if it is yours.')).toBeInTheDocument();
  });
});
