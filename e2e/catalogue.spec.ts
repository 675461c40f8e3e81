import { expect, test } from './test';
import { actAsNewVisitor, uniqueEmail } from './fixtures';
import { createMember } from './member';
import { becomeOperator } from './operator';

// The storefront is the vendor's (issue 43): an operator renames the Monthly plan and raises its
// regular price in the console, sees the card change in the live preview before saving, saves, and
// a new visitor's landing page shows the new card. On the server-wide server, whose landing page
// no other journey reads.
const OPERATOR = 'ops-catalogue@example.com';
const PRICING_SECTION = { timeout: 60_000 };

test('an operator edits a plan in the console: the preview and then the landing card change', async ({ browser, page }) => {
  test.slow();
  await becomeOperator(page, OPERATOR);
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Plans', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible();

  const preview = page.getByLabel('Live preview');
  await expect(preview.getByRole('article', { name: 'Preview Monthly' })).toBeVisible();
  await page.getByLabel('Name of monthly').fill('Monthly Plus');
  await page.getByLabel('Price of monthly').fill('40');
  // the draft, before it is saved: the sale's $36 against the new regular $40
  const card = preview.getByRole('article', { name: 'Preview Monthly Plus' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('$40');
  await expect(card).toContainText('Save 10%');

  await page.getByRole('form', { name: 'Plan monthly' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('monthly saved.')).toBeVisible();

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await actAsNewVisitor(shop);
  await shop.goto('/');
  const monthly = shop.getByRole('article', { name: 'Monthly Plus' });
  await expect(monthly).toBeVisible(PRICING_SECTION);
  await expect(monthly.getByLabel('was $40')).toBeVisible();
  await expect(monthly.getByText('Save 10%')).toBeVisible();
  await visitor.close();
});

// A vendor's own price list (decision record 054): added in the console with its address, currency,
// header and plans, refused with the reason when the address or a price is wrong, and served at
// /{slug} to a new visitor with only its plans in its currency, pre-rendered by the server like /
// (its first HTML has the header and the cards, before any script runs); an address that is no list stays 404.
// A member who bought there changes plans in Settings between its plans, at its prices (decision record 058).
test('an operator adds a price list: its page sells only its plans, in its currency, under its header', async ({ browser, page }) => {
  test.slow();
  await becomeOperator(page, 'ops-pricelists@example.com');
  const consoleNav = page.getByRole('navigation', { name: 'Operator console' });
  await consoleNav.getByRole('link', { name: 'Price lists', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Price lists', level: 1 })).toBeVisible();
  // each page has its own part and the live preview; the plans are on their own page
  await expect(page.getByLabel('Live preview')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Plan monthly' })).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Price list new' });
  await form.getByLabel('Address of the new list').fill('admin');
  await form.getByLabel('Currency of new').fill('EUR');
  await form.getByLabel('Header of new').fill('Partner prices, this month only');
  await form.getByLabel('new sells quarterly').check();
  await form.getByLabel('quarterly price on new', { exact: true }).fill('29.999');
  await form.getByRole('button', { name: 'Add price list' }).click();
  await expect(form.getByRole('alert')).toHaveText('Quarterly (quarterly): EUR has 2 decimals at most: "29.999" has 3.');
  await form.getByLabel('quarterly price on new', { exact: true }).fill('€60');
  await form.getByRole('button', { name: 'Add price list' }).click();
  await expect(form.getByRole('alert')).toHaveText('/admin is a page of the shop already: choose another address.');
  await form.getByLabel('Address of the new list').fill('partners');
  await form.getByLabel('new sells lifetime').check();
  await form.getByLabel('lifetime price on new', { exact: true }).fill('499');
  await form.getByRole('button', { name: 'Add price list' }).click();
  await expect(page.getByText('/partners added: its page is live.')).toBeVisible();
  // a sale price typed in another currency than its list's is refused with the reason
  await consoleNav.getByRole('link', { name: 'Sales', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sales', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Live preview')).toBeVisible();
  const sales = page.getByLabel('Sales', { exact: true });
  await sales.getByLabel('Sale label').fill('Cyber Monday');
  await sales.getByLabel('monthly sale price', { exact: true }).fill('€30');
  await sales.getByRole('button', { name: 'Save sale' }).click();
  await expect(sales.getByRole('alert')).toHaveText('Sale price of monthly: "€30" is not in USD: this price list charges in USD (USD, $).');

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await actAsNewVisitor(shop);
  expect((await shop.goto('/partners'))?.status()).toBe(200);
  await expect(shop.getByTestId('list-header')).toHaveText('Partner prices, this month only');
  const quarterly = shop.getByRole('article', { name: 'Quarterly' });
  await expect(quarterly).toBeVisible(PRICING_SECTION);
  await expect(quarterly).toContainText('€20');
  await expect(quarterly).toContainText('€60 billed every 3 months');
  await expect(shop.getByRole('article', { name: 'Lifetime' })).toContainText('€499');
  await expect(shop.getByRole('article', { name: 'Yearly' })).toHaveCount(0);
  // no countdown of the default page's sale on the vendor's own list
  await expect(shop.getByText('Sale ends in')).toHaveCount(0);

  // the server's first HTML already has the header and the cards (pre-rendered, no restart after the list was added)
  const html = await (await shop.request.get('/partners')).text();
  expect(html).toContain('Partner prices, this month only');
  expect(html).toContain('aria-labelledby="plan-quarterly"');
  expect(html).toContain('€60 billed every 3 months');
  expect(html).not.toContain('aria-labelledby="plan-yearly"');
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const firstView = await noScript.newPage();
  await actAsNewVisitor(firstView);
  await firstView.goto('/partners');
  await expect(firstView.getByTestId('list-header')).toHaveText('Partner prices, this month only');
  await expect(firstView.getByRole('article', { name: 'Lifetime' })).toContainText('€499');
  await noScript.close();

  expect((await shop.goto('/partnerz'))?.status()).toBe(404);
  await expect(shop.getByText('Oops! Page not found')).toBeVisible();
  await visitor.close();

  // a member who bought Quarterly on /partners sees its plans in euros in Settings, not the default page's in dollars
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await actAsNewVisitor(member);
  await createMember(member, uniqueEmail('partner'), { planType: 'quarterly', originPage: '/partners' });
  await member.goto('/dashboard/settings?section=upgrade');
  const plans = member.getByRole('region', { name: 'Change Plan' });
  const ownPlan = plans.getByRole('article', { name: 'Quarterly plan' });
  await expect(ownPlan.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(ownPlan).toContainText('€20');
  await expect(plans.getByRole('article', { name: 'Lifetime plan' })).toContainText('€499');
  await expect(plans.getByRole('article')).toHaveCount(2);
  await expect(plans).not.toContainText('$');
  await memberContext.close();
});
