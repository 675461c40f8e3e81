import { expect, test } from './test';
import { createMember, uniqueEmail } from './member';
import { becomeOperator, searchMembers } from './operator';

// The operator console in Chromium: the operator named by ADMIN_EMAILS (playwright.config.ts)
// finds a paying member by TradingView username, grants complimentary access, sees it on the
// member's page and in the audit log. Members never see the console.

const OPERATOR = 'operator@example.com';

test('an operator finds a member by TradingView username, grants comp access and sees it in the audit log', async ({ page, browser }) => {
  test.slow();
  // The member: pays for monthly and sets a TradingView username.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const { email } = await createMember(memberPage, uniqueEmail('console-member'));
  const username = `console_${Date.now().toString(36)}`;
  const activation = await memberPage.request.post('/api/tradingview/activate', { data: { tv_username: username } });
  expect(activation.status(), await activation.text()).toBe(200);

  // A member who opens /admin gets the ordinary 404 page.
  await memberPage.goto('/admin');
  await expect(memberPage.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await memberContext.close();

  // The operator (the e-mail is in ADMIN_EMAILS) proves the address, enrols two-factor and opens the console.
  await becomeOperator(page, OPERATOR);
  await expect(page.getByRole('link', { name: /Active members/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /Daily revenue and active members/ })).toBeVisible();

  // The charting library loads with the pages that draw charts (vite.config.ts): a tab opened on
  // Members fetches none of it until the operator opens the Overview and its chart.
  const tab = await page.context().newPage();
  const chartChunks: string[] = [];
  tab.on('request', (request) => {
    if (/\/assets\/charts-[\w-]+\.js$/.test(request.url())) chartChunks.push(request.url());
  });
  await tab.goto('/admin/members');
  await expect(tab.getByLabel('Search members')).toBeVisible();
  expect(chartChunks).toEqual([]);
  await tab.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Overview' }).click();
  await expect(tab.getByRole('img', { name: /Daily revenue and active members/ })).toBeVisible();
  expect(chartChunks).toHaveLength(1);
  await tab.close();

  await searchMembers(page, username.toUpperCase());
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Active');
  await row.getByRole('link', { name: email }).click();

  await expect(page.getByRole('heading', { name: email })).toBeVisible();
  // the username on the subscription and its TradingView grant
  await expect(page.getByRole('cell', { name: username, exact: true })).toHaveCount(2);
  const until = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  await page.getByRole('button', { name: 'Grant comp access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grant complimentary access' });
  await dialog.getByLabel('Access until').fill(until);
  await dialog.getByRole('button', { name: 'Grant access' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Complimentary access until ${until} (end of day, UTC).`);
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(page.getByRole('cell', { name: 'Comp', exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Audit log' }).click();
  const entry = page.getByRole('row').filter({ hasText: 'grant comp' });
  await expect(entry.first()).toContainText(OPERATOR);
  await expect(entry.first()).toContainText(email);
  await expect(entry.first()).toContainText(`until: ${until}`);
});
