import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { actAsNewVisitor, isMailPreviewScriptBlock, uniqueEmail } from './fixtures';
import { createMember } from './member';
import { becomeOperator } from './operator';

// Issue #46's walk: the four journeys (visitor, buyer, member, operator) at 390 px and 1440 px in
// Chromium. On every page: nothing wider than the window, no floating chat button over a button or
// link, and no error in the browser's console.

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

/** Errors the page logs or throws from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (isMailPreviewScriptBlock(message)) return;
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/** What is wrong with the page as drawn now (empty: nothing). */
async function defects(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      // name the outermost elements that reach past the window's edge, to say where to look
      const clipped = (element: Element) => element.parentElement?.closest('*:not(body):not(html)') !== null && [...ancestors(element)].some((up) => getComputedStyle(up).overflowX !== 'visible');
      const ancestors = function* (element: Element) {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) yield up;
      };
      // an element past the edge, or one whose text runs past it (a word wider than its box)
      const pastTheEdge = (element: Element) => Math.max(element.getBoundingClientRect().right, element.getBoundingClientRect().left + element.scrollWidth) > root.clientWidth + 0.5;
      const wide = [...document.body.querySelectorAll('*')].filter((element) => pastTheEdge(element) && !clipped(element) && ![...element.children].some(pastTheEdge));
      found.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window: ${wide.map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`).join(', ')}`);
    }
    const chat = document.querySelector('button[aria-label="Open support chat"]');
    const box = chat?.getBoundingClientRect();
    if (chat && box && box.width > 0) {
      for (const action of document.querySelectorAll('a[href], button')) {
        if (action === chat || chat.contains(action)) continue;
        const other = action.getBoundingClientRect();
        if (other.width === 0 || other.height === 0) continue;
        const overlaps = other.left < box.right && other.right > box.left && other.top < box.bottom && other.bottom > box.top;
        if (overlaps) found.push(`the chat button covers "${(action.textContent ?? '').trim().slice(0, 40)}"`);
      }
    }
    return found;
  });
}

/** Visits each path at both widths, scrolled to the top and to the end, and expects no defect and no console error. */
async function walk(page: Page, paths: readonly string[], ready: (page: Page, path: string) => Promise<void>, widths = WIDTHS) {
  const errors = collectErrors(page);
  for (const size of widths) {
    await page.setViewportSize(size);
    for (const path of paths) {
      await page.goto(path);
      await ready(page, path);
      for (const end of [false, true]) {
        await page.evaluate((bottom) => window.scrollTo(0, bottom ? document.documentElement.scrollHeight : 0), end);
        expect(await defects(page), `${path} at ${size.width} px${end ? ', scrolled to the end' : ''}`).toEqual([]);
      }
    }
  }
  expect(errors).toEqual([]);
}

const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

test('a visitor: the landing page, the EU prices, the legal pages and sign-in', async ({ page }) => {
  await actAsNewVisitor(page);
  await walk(page, ['/', '/eu', '/terms-of-service', '/privacy-policy', '/auth'], async (p) => heading(p));
});

test('a buyer: the checkout page and the payment that follows', async ({ page }) => {
  test.slow();
  await actAsNewVisitor(page);
  const errors = collectErrors(page);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/');
    await page.locator('#prices').getByRole('button', { name: 'Start now' }).first().click();
    await page.waitForURL(/\/sandbox\/checkout\//);
    await expect(page.getByLabel('Card number')).toBeVisible();
    expect(await defects(page), `checkout at ${size.width} px`).toEqual([]);
  }
  expect(errors).toEqual([]);
});

test('a member: dashboard, guides, strategies and settings', async ({ page }) => {
  test.slow();
  await createMember(page, uniqueEmail('walker'));
  await walk(page, ['/dashboard', '/dashboard/guides', '/dashboard/strategies', '/dashboard/settings'], async (p) => heading(p));
});

test('an operator: every page of the console, a member and a new guide', async ({ page, browser }) => {
  test.slow();
  const others = await browser.newContext();
  const { email } = await createMember(await others.newPage(), uniqueEmail('walked-member-with-a-rather-long-address'));
  await others.close();
  await becomeOperator(page, 'ops-walk@example.com');
  await page.goto(`/admin/members?q=${encodeURIComponent(email)}`);
  const memberPath = await page.getByRole('link', { name: email }).getAttribute('href');
  // every page the console's navigation links to, as it lists them
  const pages = await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')!).filter((href) => href.startsWith('/admin')));
  expect(pages).toContain('/admin/retention');
  // drawn only once what the page loads is in: nothing still says "Loading"
  const loaded = async (p: Page) => {
    await heading(p);
    await expect(p.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  };
  await walk(page, [...pages, memberPath!, '/admin/content/new'], loaded);

  // a per-plan commission's amount field beside its choice fits a phone (unsaved: the terms stay as they are)
  await page.setViewportSize(WIDTHS[0]!);
  await page.goto('/admin/affiliates');
  await page.getByLabel('Lifetime commission').selectOption('fixed');
  await expect(page.getByLabel('Lifetime amount')).toBeVisible();
  expect(await defects(page), '/admin/affiliates at 390 px with a per-plan amount').toEqual([]);
});
