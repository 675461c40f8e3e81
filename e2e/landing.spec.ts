import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { scrollIntoView } from './fixtures';

// Landing and EU landing, pricing, legal pages, chat, header and footer.
// The e2e server runs with SALE_ENDS_AT in 2099, no CHAT_URL and no META_PIXEL_ID.

// The landing page's own journeys see its motion as most visitors do (the carousel moving by
// itself, smooth scrolling); the other journeys pass it as a visitor who asked for less
// (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

const HEADLINE = 'Boost Your Trading with Next-Gen Indicators';
const EU_OFFER = 'This special offer is only available through the ad you saw.';

async function openLanding(page: Page, path = '/') {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: HEADLINE })).toBeVisible();
}

/** Testimonial cards wholly inside the carousel's window. */
const shownTestimonials = (page: Page) =>
  page.getByRole('region', { name: 'Testimonials' }).evaluate((region) => {
    const frame = region.getBoundingClientRect();
    return [...region.querySelectorAll('figure')].filter((card) => {
      const box = card.getBoundingClientRect();
      return box.left >= frame.left - 1 && box.right <= frame.right + 1;
    }).length;
  });

const firstCardX = (page: Page) =>
  page.getByTestId('carousel-track').locator('article').first().evaluate((card) => card.getBoundingClientRect().left);

/**
 * Resolves once the page has drawn `count` more frames. The carousel moves a step a frame, so
 * this waits on what it could have done (18 frames: 300 ms at 60 fps), not on a time that a busy
 * machine fills with fewer frames.
 */
const framesDrawn = (page: Page, count: number) =>
  page.evaluate(
    (frames) =>
      new Promise<void>((resolve) => {
        const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
        next(frames);
      }),
    count,
  );

test.describe('desktop (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the header links: Guide opens the docs in a new tab, Prices and Testimonials scroll, Log In goes to /auth', async ({ page }) => {
    await openLanding(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Guide' })).toHaveAttribute('target', '_blank');
    await expect(nav.getByRole('link', { name: 'Guide' })).toHaveAttribute('href', /^https?:\/\//);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

    await nav.getByRole('link', { name: 'Prices' }).click();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
    await nav.getByRole('link', { name: 'Testimonials' }).click();
    await expect(page.getByRole('heading', { name: 'What Traders Say' })).toBeInViewport();
    // the header stays on screen while scrolling
    await expect(nav).toBeInViewport();

    await nav.getByRole('link', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the default page has a ticking sale countdown and the Black Friday cards', async ({ page }) => {
    await openLanding(page);
    const countdown = page.getByTestId('sale-countdown');
    await expect(countdown).toBeVisible();
    await expect(page.getByText(EU_OFFER)).toHaveCount(0);
    const before = await page.getByRole('timer').getAttribute('aria-label');
    await expect.poll(() => page.getByRole('timer').getAttribute('aria-label')).not.toBe(before);

    const prices = page.locator('#prices');
    for (const [name, price, savings] of [
      ['Monthly', '$36', 'Save 23%'],
      ['Quarterly', '$24', 'Save 49%'],
      ['Yearly', '$17', 'Save 64%'],
    ] as const) {
      const card = prices.getByRole('article', { name });
      await expect(card).toContainText(price);
      await expect(card).toContainText('$47');
      await expect(card).toContainText(savings);
      await expect(card).toContainText('Black Friday');
      await expect(card.getByRole('listitem')).toHaveCount(7);
      await expect(card.getByRole('button', { name: 'Start now' })).toBeEnabled();
    }
  });

  test('/eu shows the EU offer, EU pricing and no countdown; Log In returns to /eu', async ({ page }) => {
    await openLanding(page, '/eu');
    await expect(page.getByText(EU_OFFER)).toBeVisible();
    await expect(page.getByTestId('sale-countdown')).toHaveCount(0);
    const prices = page.locator('#prices');
    await expect(prices.getByRole('article', { name: 'Monthly' })).toContainText('$29.99');
    await expect(prices.getByRole('article', { name: 'Quarterly' })).toContainText('$59.99');
    await expect(prices.getByRole('article', { name: 'Quarterly' })).toContainText('Save 33%');
    await expect(prices.getByRole('article', { name: 'Lifetime' })).toContainText('$549.99');
    await expect(prices.getByRole('article', { name: 'Lifetime' })).toContainText('$1,699.99');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth?redirect=/eu');
  });

  test('from=eu on / also shows the EU offer', async ({ page }) => {
    await openLanding(page, '/?from=eu');
    await expect(page.getByText(EU_OFFER)).toBeVisible();
    await expect(page.locator('#prices').getByRole('article', { name: 'Lifetime' })).toBeVisible();
  });

  test('arriving at /#prices scrolls to the pricing cards', async ({ page }) => {
    await page.goto('/eu#prices');
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
  });

  test('Unlock Access and Start Risk-Free Today scroll to pricing', async ({ page }) => {
    await openLanding(page);
    await page.getByRole('button', { name: 'Unlock Access' }).nth(1).click();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.getByRole('button', { name: /Start Risk-Free Today/ }).click();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
  });

  test('the features carousel scrolls by itself, follows a drag and resumes afterwards', async ({ page }) => {
    await openLanding(page);
    const carousel = page.getByTestId('features-carousel');
    await scrollIntoView(carousel);
    await expect(carousel.locator('article h3').first()).toHaveText('Order Blocks');
    await expect(carousel.locator('article')).toHaveCount(20);
    // the server renders the phone's width; the page hydrated on a desktop makes it 400 px (waits
    // on that state: hydration starts once the first paint is reported, decision 020)
    await expect.poll(() => carousel.locator('article').first().evaluate((card) => card.getBoundingClientRect().width)).toBe(400);

    // auto-scroll moves the cards to the left
    const start = await firstCardX(page);
    await expect.poll(() => firstCardX(page)).toBeLessThan(start - 20);

    // while the pointer is held the cards follow it exactly
    const box = (await carousel.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 700, y);
    await page.mouse.down();
    const grabbed = await firstCardX(page);
    await page.mouse.move(box.x + 400, y, { steps: 10 });
    const loop = 10 * (400 + 24);
    // the track follows the pointer on the frames after the last move: wait for them (a busy machine draws late)
    await expect.poll(async () => Math.abs(((((await firstCardX(page)) - grabbed) % loop) + loop) % loop - (loop - 300))).toBeLessThan(2);
    await framesDrawn(page, 18);
    const held = await firstCardX(page);
    expect(Math.abs((((held - grabbed) % loop) + loop) % loop - (loop - 300))).toBeLessThan(2);
    await page.mouse.up();

    // and it scrolls on by itself again after the pause
    await expect.poll(() => firstCardX(page)).not.toBe(held);
  });

  test('the FAQ has seven questions, the first open', async ({ page }) => {
    await openLanding(page);
    const faq = page.locator('#faq');
    const questions = faq.getByRole('button');
    await expect(questions).toHaveCount(7);
    await expect(questions.first()).toHaveAttribute('aria-expanded', 'true');
    await expect(faq.getByText(/Every plan includes everything/)).toBeVisible();
    await faq.getByRole('button', { name: 'How do I get access after paying?' }).click();
    await expect(faq.getByText(/choosing a password, then enter your TradingView username/)).toBeVisible();
    await expect(faq.getByText(/Every plan includes everything/)).toBeHidden();
    await faq.getByRole('button', { name: 'Can I cancel at any time?' }).click();
    await expect(faq.getByText(/no cancellation fee\. You keep full access until the end of the period/)).toBeVisible();
  });

  test('the testimonials show three cards at a time from verified users', async ({ page }) => {
    await openLanding(page);
    const region = page.getByRole('region', { name: 'Testimonials' });
    await scrollIntoView(region);
    await expect.poll(() => shownTestimonials(page)).toBe(3);
    await expect(region.getByText('Verified User')).toHaveCount(6);
  });

  test('the chat toggle opens a 500 px support panel with e-mail and Discord (no chat URL configured)', async ({ page }) => {
    await openLanding(page);
    await expect(page.locator('iframe')).toHaveCount(0);
    await page.getByRole('button', { name: 'Open support chat' }).click();
    const panel = page.getByRole('dialog', { name: 'Support chat' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: /Email us/ })).toHaveAttribute('href', /^mailto:/);
    await expect(panel.getByRole('link', { name: /Join our Discord/ })).toBeVisible();
    expect((await panel.boundingBox())!.height).toBe(500);
    await page.getByRole('button', { name: 'Close support chat' }).click();
    await expect(panel).toBeHidden();
  });

  test('footer links keep from=eu on /eu, scroll to the top, and the legal page leads back to /eu', async ({ page }) => {
    await openLanding(page, '/eu');
    const legal = page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' });
    await scrollIntoView(legal);
    await legal.getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms-of-service\?from=eu$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.getByRole('link', { name: 'Back to Homepage' }).click();
    await expect(page).toHaveURL(/\/eu$/);
    await expect(page.getByText(EU_OFFER)).toBeVisible();
  });

  test('footer links on / have no from=eu', async ({ page }) => {
    await openLanding(page);
    const legal = page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' });
    await expect(legal.getByRole('link', { name: 'Disclaimer' })).toHaveAttribute('href', '/disclaimer');
    await expect(legal.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  });

  for (const [path, title, phrase] of [
    ['/disclaimer', 'Disclaimer', 'not financial, investment, tax or legal advice'],
    ['/terms-of-service', 'Terms of Service', 'Effective date: June 13, 2025'],
    ['/privacy-policy', 'Privacy Policy', 'Effective date: June 30, 2025'],
    ['/contact', 'Contact', 'We reply within 24 hours on business days'],
  ] as const) {
    test(`${path} is readable and leads back home`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText(phrase).first()).toBeVisible();
      await expect(page.getByText('New Mexico').first()).toBeVisible();
      await page.getByRole('link', { name: 'Back to Homepage' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: HEADLINE })).toBeVisible();
    });
  }

  test('Start now starts a checkout and leads to the checkout page', async ({ page }) => {
    await openLanding(page);
    const request = page.waitForRequest((req) => req.url().endsWith('/api/create-checkout') && req.method() === 'POST');
    await page.locator('#prices').getByRole('article', { name: 'Quarterly' }).getByRole('button', { name: 'Start now' }).click();
    const body = (await request).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ planType: 'quarterly', customerEmail: null, originPage: '/' });
    await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  });

  test('on /eu Start now buys the EU plan', async ({ page }) => {
    await openLanding(page, '/eu');
    const request = page.waitForRequest((req) => req.url().endsWith('/api/create-checkout') && req.method() === 'POST');
    await page.locator('#prices').getByRole('article', { name: 'Monthly' }).getByRole('button', { name: 'Start now' }).click();
    expect((await request).postDataJSON()).toMatchObject({ planType: 'euMonthly', originPage: '/eu' });
    await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  });
});

test.describe('a paying member', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('is sent from / and /eu to the dashboard once the payment has gone through', async ({ page }) => {
    await openLanding(page);
    await page.locator('#prices').getByRole('article', { name: 'Monthly' }).getByRole('button', { name: 'Start now' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
    const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    // Pays through the sandbox provider's API with Stripe's always-succeeding test card (the same
    // call its checkout page makes, with the billing country it asks for while tax is on), then
    // creates the account as the payment page does.
    const email = `member-${Date.now()}@example.com`;
    const paid = await page.request.post(`/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`, {
      data: { email, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Test Member', billingCountry: 'US' },
    });
    expect(paid.ok()).toBe(true);
    const account = await page.request.post('/api/verify-payment', { data: { sessionId, password: 'Sup3r-secret-pass' } });
    expect(account.ok()).toBe(true);

    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto('/eu');
    await expect(page).toHaveURL(/\/dashboard/);
  });
});

test.describe('mobile (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the mobile menu opens, scrolls to a section and closes', async ({ page }) => {
    await openLanding(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Prices' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'Guide' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Log In' })).toBeVisible();
    await menu.getByRole('link', { name: 'Prices' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
    // a tap on the menu while the page glides (here back to the top) stops the glide where it is,
    // and the menu stays open through what would have been the glide's remaining frames (#46)
    await page.evaluate(() => {
      window.scrollTo({ top: 0, behavior: 'smooth' });
      document.querySelector<HTMLElement>('[aria-controls="mobile-menu"]')!.click();
    });
    await expect(menu).toBeVisible();
    let lastY = -1;
    await expect
      .poll(async () => {
        const y = await page.evaluate(() => window.scrollY);
        const still = y === lastY;
        lastY = y;
        return still;
      })
      .toBe(true);
    expect(lastY).toBeGreaterThan(0);
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Testimonials' }).click();
    await expect(page.getByRole('heading', { name: 'What Traders Say' })).toBeInViewport();
  });

  test('the page fits the screen: no horizontal scrolling', async ({ page }) => {
    await openLanding(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await openLanding(page, '/eu');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test('carousel cards are 320 px wide and can be dragged with touch-sized steps', async ({ page }) => {
    await openLanding(page);
    const carousel = page.getByTestId('features-carousel');
    await scrollIntoView(carousel);
    expect(await carousel.locator('article').first().evaluate((card) => card.getBoundingClientRect().width)).toBe(320);
    // a press on the server's HTML before the carousel has hydrated moves nothing: wait until its
    // code has placed the track (the page hydrates after the paint, later on a busy machine)
    await expect(page.getByTestId('carousel-track')).toHaveAttribute('style', /translate3d/);
    const box = (await carousel.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 300, y);
    await page.mouse.down();
    const grabbed = await firstCardX(page);
    await page.mouse.move(box.x + 100, y, { steps: 8 });
    const loop = 10 * (320 + 16);
    // the track follows the pointer on the frames after the last move: wait for them (a busy machine draws late)
    await expect.poll(async () => Math.abs(((((await firstCardX(page)) - grabbed) % loop) + loop) % loop - (loop - 200))).toBeLessThan(2);
    await page.mouse.up();
  });

  test('the chat panel takes 70% of the screen height', async ({ page }) => {
    await openLanding(page);
    // on a phone the chat opens from the menu: no floating button over the page (#46)
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByRole('button', { name: 'Support chat' }).click();
    const panel = page.getByRole('dialog', { name: 'Support chat' });
    expect(Math.round((await panel.boundingBox())!.height)).toBe(Math.round(740 * 0.7));
  });

  test('a footer link scrolls to the top instantly and testimonials show one at a time', async ({ page }) => {
    await openLanding(page);
    const region = page.getByRole('region', { name: 'Testimonials' });
    await scrollIntoView(region);
    await expect.poll(() => shownTestimonials(page)).toBe(1);
    const legal = page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' });
    await scrollIntoView(legal);
    await legal.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
