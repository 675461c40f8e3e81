// Issue 46 §1: a TradingView username belongs to one member; the member sees what TradingView
// access they have now, with the scripts by name (desktop 1440 and phone 390); the operator moves
// a name between members and reads the history on the member page.
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember, uniqueEmail } from './member';
import { readLatestMail } from './fixtures';
import { becomeOperator } from './operator';

const TAKEN = 'This TradingView username is already linked to another account. Contact support if it is yours.';
const SCRIPT_NAMES = ['Candlewise Pro V2', 'Candlewise Smart Money Concepts', 'Candlewise Volatility Index'] as const;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The value shown beside a label in a settings card. */
const rowValue = (card: Locator, label: string) => card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

/** A paying member in a browser of their own (an address of their own for the sign-up limits). */
async function memberPage(browser: Browser, prefix: string, address: string, viewport = DESKTOP): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'x-forwarded-for': address } });
  const page = await context.newPage();
  const { email } = await createMember(page, uniqueEmail(prefix));
  return { page, email };
}

async function activate(page: Page, username: string): Promise<void> {
  const response = await page.request.post('/api/tradingview/activate', { data: { tv_username: username } });
  expect(response.status(), await response.text()).toBe(200);
}

test('a member adds a username and watches access arrive, by script name; another member cannot claim the same name', async ({ browser }) => {
  test.slow();
  const name = `Owner_${Date.now().toString(36)}`;
  const { page, email } = await memberPage(browser, 'tv-owner', '198.51.100.211');
  await page.goto('/dashboard/settings?section=account');
  const account = page.getByRole('region', { name: 'My Account' });
  await expect(account.getByTestId('tradingview-delivery')).toContainText('Add your TradingView username so we can give you access to the indicators.');
  await expect(account.getByRole('note')).toContainText('Check your TradingView username');

  await account.getByRole('button', { name: 'Add', exact: true }).click();
  await account.getByLabel('New TradingView username').fill(name);
  await account.getByRole('button', { name: 'Save Username' }).click();
  await expect(rowValue(account, 'TradingView Username')).toContainText(name);

  // the reconciler grants within seconds on the sandbox; the page reads it again while pending
  await expect(rowValue(account, 'TradingView Username')).toContainText('Access granted', { timeout: 30_000 });
  const delivery = account.getByTestId('tradingview-delivery');
  await expect(delivery).toContainText(`3 scripts: ${SCRIPT_NAMES[0]}, ${SCRIPT_NAMES[1]} and ${SCRIPT_NAMES[2]} on ${name}.`);
  await expect(account.getByText('Access granted', { exact: false })).toHaveCount(1);
  await expect(account).not.toContainText('PUB;');
  // the yellow "check your username" warning is gone once access is granted
  await expect(account.getByRole('note')).toHaveCount(0);

  // the dashboard says it once, then no more
  await page.goto('/dashboard/guides');
  const notice = page.getByTestId('tradingview-delivery');
  await expect(notice).toContainText('Access granted');
  await expect(notice).toContainText(SCRIPT_NAMES[0]);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByTestId('tradingview-delivery')).toHaveCount(0);

  // another member tries the same name in another case: refused with the one message
  const { page: other } = await memberPage(browser, 'tv-claimer', '198.51.100.212');
  await other.goto('/dashboard/settings?section=account');
  const otherAccount = other.getByRole('region', { name: 'My Account' });
  await otherAccount.getByRole('button', { name: 'Add', exact: true }).click();
  await otherAccount.getByLabel('New TradingView username').fill(name.toUpperCase());
  await otherAccount.getByRole('button', { name: 'Save Username' }).click();
  await expect(other.getByText(TAKEN)).toBeVisible();
  await expect(rowValue(otherAccount, 'TradingView Username')).toContainText('Not provided');
  // the mail names the scripts too, never by their ids
  const mail = await readLatestMail(page.request, email, { subject: 'Your TradingView access is active' });
  for (const script of SCRIPT_NAMES) expect(mail.text).toContain(script);
  expect(mail.text).not.toContain('PUB;');
  await page.context().close();
  await other.context().close();
});

test('on a phone the member area tells the member what TradingView access they have, by script name', async ({ browser }) => {
  const { page } = await memberPage(browser, 'tv-phone', '198.51.100.213', PHONE);
  await activate(page, `Phone_${Date.now().toString(36)}`);
  await page.goto('/dashboard/guides');
  await expect(page.getByRole('heading', { name: 'Desktop Required' })).toBeVisible();
  const notice = page.getByTestId('tradingview-delivery');
  await expect(notice).toContainText(/Access (pending|granted)/);
  for (const script of SCRIPT_NAMES) await expect(notice).toContainText(script);
  await expect(notice).not.toContainText('PUB;');
  // the notice fits the phone's width
  const box = await notice.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  await page.context().close();
});

test('a member changes their username in Settings: access moves to the new one, and the next change waits 7 days', async ({ browser }) => {
  test.slow();
  const first = `First_${Date.now().toString(36)}`;
  const second = `Second_${Date.now().toString(36)}`;
  const { page } = await memberPage(browser, 'tv-changer', '198.51.100.216');
  await activate(page, first);
  await page.goto('/dashboard/settings?section=account');
  const account = page.getByRole('region', { name: 'My Account' });
  await expect(rowValue(account, 'TradingView Username')).toContainText('Access granted', { timeout: 30_000 });

  await account.getByRole('button', { name: 'Change', exact: true }).click();
  await expect(account.getByRole('form', { name: 'Change TradingView username' })).toContainText('You can change it once every 7 days.');
  await account.getByLabel('New TradingView username').fill(second);
  await account.getByRole('button', { name: 'Save Username' }).click();
  await expect(rowValue(account, 'TradingView Username')).toContainText(second);
  // the new name is granted the scripts (tradingview-usernames.test.ts proves the old one's are taken away)
  await expect(account.getByTestId('tradingview-delivery')).toContainText(`on ${second}.`, { timeout: 30_000 });
  await expect
    .poll(async () => ((await (await page.request.get('/api/tradingview/status')).json()) as { username: string; status: string }).status, { timeout: 30_000 })
    .toBe('granted');

  // a second change within the week: no Change button, the day it opens again instead
  await page.reload();
  await expect(account.getByTestId('tradingview-next-change')).toContainText('You changed your username recently: you can change it again on');
  await expect(account.getByRole('button', { name: 'Change', exact: true })).toHaveCount(0);
  const refused = await page.request.put('/api/tradingview/username', { data: { tv_username: first } });
  expect(refused.status()).toBe(429);
  expect(await refused.text()).toContain('You can change your TradingView username once every 7 days.');
  await page.context().close();
});

test("an operator moves a username from one member to another; both member pages keep the history", async ({ page, browser }) => {
  test.slow();
  const name = `Moved_${Date.now().toString(36)}`;
  const from = await memberPage(browser, 'tv-from', '198.51.100.214');
  await activate(from.page, name);
  const to = await memberPage(browser, 'tv-to', '198.51.100.215');
  await from.page.context().close();
  await to.page.context().close();

  await page.setViewportSize(DESKTOP);
  await becomeOperator(page, 'ops-usernames@example.com');
  await page.goto(`/admin/members?q=${encodeURIComponent(to.email)}`);
  await page.getByRole('link', { name: to.email }).click();
  await page.getByRole('button', { name: 'Move a username from another member' }).click();
  await page.getByLabel('TradingView username', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Move username' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} moved from ${from.email} to ${to.email}` })).toBeVisible();
  await page.keyboard.press('Escape');

  // the history, on the member page: the name and how it came
  const moved = page.getByRole('row').filter({ hasText: `${name} (current)` });
  await expect(moved).toContainText('transferred by an operator');

  await page.goto(`/admin/members?q=${encodeURIComponent(from.email)}`);
  await page.getByRole('link', { name: from.email }).click();
  await expect(page.getByRole('heading', { name: 'TradingView usernames' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'transferred to another member' })).toContainText(name);
});
