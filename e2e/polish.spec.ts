import { expect, test } from './test';
import { actAsNewVisitor, uniqueEmail } from './fixtures';
import { signUp } from './member';

// Issue #46, sections 3 and 4 as a buyer and a member see them: unknown pages, the phone menu and the
// support chat at 390 px, a wrong password beside the form, and the guides' table of contents.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

test('an unknown page answers HTTP 404 with the not-found page, pricing and, for a member, the dashboard', async ({ page }) => {
  await actAsNewVisitor(page);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveCount(0);
  await page.getByRole('link', { name: 'See pricing' }).click();
  await expect(page.locator('#prices')).toBeInViewport();

  await signUp(page, uniqueEmail('lost-member'));
  expect((await page.goto('/pricing'))?.status()).toBe(404);
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/(dashboard|premium-access-required)/);
});

test.describe('a phone (390 px)', () => {
  test.use({ viewport: PHONE });

  test('the menu closes on Escape, a tap outside, a scroll and navigation', async ({ page }) => {
    await actAsNewVisitor(page);
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator('#mobile-menu');

    await toggle.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();

    await toggle.click();
    await expect(menu).toBeVisible();
    // the page's left margin, below the header: nothing there to press
    await page.mouse.click(4, 780);
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(menu).toBeVisible();
    await page.mouse.wheel(0, 400);
    await expect(menu).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 0));
    await toggle.click();
    await menu.getByRole('link', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/auth/);
    await expect(menu).toBeHidden();
  });

  test('no floating chat button covers the page: the chat opens from the menu', async ({ page }) => {
    await actAsNewVisitor(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open support chat' })).toBeHidden();
    // every call to action of the pricing cards is the topmost element where it is drawn
    const ctas = page.locator('#prices').getByRole('button', { name: 'Start now' });
    await ctas.first().scrollIntoViewIfNeeded();
    for (const cta of await ctas.all()) {
      await cta.evaluate((element) => element.scrollIntoView({ block: 'end' }));
      const covered = await cta.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const points = [
          [box.right - 4, box.bottom - 4],
          [box.left + box.width / 2, box.top + box.height / 2],
        ];
        return points.some(([x, y]) => {
          const top = document.elementFromPoint(x!, y!);
          return top !== null && !element.contains(top);
        });
      });
      expect(covered).toBe(false);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByRole('button', { name: 'Support chat' }).click();
    await expect(page.getByRole('dialog', { name: 'Support chat' })).toBeVisible();
    await expect(page.locator('#mobile-menu')).toBeHidden();
  });

  test('a wrong password is said beside the form', async ({ page }) => {
    await actAsNewVisitor(page);
    const { email } = await signUp(page, uniqueEmail('forgetful'));
    await page.context().clearCookies();
    await page.goto('/auth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Not-my-password-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    const form = page.getByRole('form', { name: 'Sign In' });
    await expect(form.getByRole('alert')).toContainText('Invalid email or password. Please check your credentials and try again.');
    await expect(form.getByRole('alert')).toBeInViewport();
  });
});

test.describe('a desktop (1440 px)', () => {
  test.use({ viewport: DESKTOP });

  test('the floating chat button is there', async ({ page }) => {
    await actAsNewVisitor(page);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Open support chat' })).toBeVisible();
  });
});

test.describe('a member reading a guide (1440 px)', () => {
  test.use({ viewport: DESKTOP, signedInAsWorkerMember: true });

  test('the table of contents follows the section being read', async ({ page }) => {
    const guide = (await (await page.request.get('/api/content/guides/technical-analysis')).json()) as { sections: { id: string; title: string }[] };
    expect(guide.sections.length).toBeGreaterThanOrEqual(4);
    await page.goto('/dashboard/guides?guide=technical-analysis');
    const toc = page.getByRole('navigation', { name: 'Table of Contents' });
    await expect(toc.getByRole('button').first()).toHaveAttribute('aria-current', 'location');
    for (const index of [2, 3, 1]) {
      await page.evaluate((id) => document.getElementById(id)?.scrollIntoView({ block: 'start' }), `section-${guide.sections[index]!.id}`);
      await expect(toc.getByRole('button', { name: guide.sections[index]!.title })).toHaveAttribute('aria-current', 'location');
    }
    // a jump from the table is kept when its section is near the page's end
    const last = toc.getByRole('button').last();
    await last.click();
    await expect(last).toHaveAttribute('aria-current', 'location');
  });
});
