import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { asNewVisitor } from './fixtures';
import { TEST_PASSWORD, signUp } from './member';

// The member area (Dashboard, Strategies, Guides, Discord; the security panel and difficulty colours)
// against the production build with the real content/ tree and sandbox adapters.

type GuideSummary = { id: string; title: string; type: string; featureCount: number; difficulty: string };
type Guide = GuideSummary & { layout: string; features: { id: string; title: string }[]; sections: { id: string; title: string }[] };
type StrategySummary = { id: string; title: string };

const cleanTitle = (title: string) => title.replace(/^\s*\u{1F9ED}\u{FE0F}?\s*/u, '').replace(/[\s\-–—:]*\bBlueprint\s*$/i, '').trim();

/**
 * Every image of the page is served to the member (content images come from the members-only
 * API), and the ones on screen have rendered. Lazy images further down load when scrolled to.
 */
async function expectImagesLoaded(page: Page) {
  const sources = await page.evaluate(() => [...new Set([...document.querySelectorAll('main img')].map((img) => img.getAttribute('src') ?? ''))]);
  for (const src of sources) {
    const response = await page.request.get(src);
    expect(response.status(), src).toBe(200);
    expect(response.headers()['content-type'], src).toMatch(/^image\//);
  }
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('main img')]
          .filter((img) => {
            const box = img.getBoundingClientRect();
            return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
          })
          .every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
      ),
    )
    .toBe(true);
}

/**
 * The time limit of a test that opens `visits` pages: the loops over every guide and feature grow
 * with the content, and one page can take several seconds on a busy machine. Each step still
 * waits on what the page shows; this only bounds how long a page that never shows it may take.
 */
const pageVisits = (visits: number) => 30_000 + visits * 15_000;

/** The product guides of the content tree (front matter `type: product`): counted when the tests are listed. */
const guidesDir = join('content', 'guides');
const productGuideFiles = readdirSync(guidesDir)
  .filter((file) => file.endsWith('.md') && /^type: product$/m.test(readFileSync(join(guidesDir, file), 'utf8')))
  .sort();

test.describe('guard', () => {
  test('a visitor is sent to sign in, with a way back', async ({ page }) => {
    await page.goto('/dashboard/strategies');
    await expect(page).toHaveURL(/\/auth\?redirect=%2Fdashboard%2Fstrategies$/);
  });

  test('a signed-in user without access is sent to /premium-access-required, and the content API refuses them', async ({ page }) => {
    await signUp(page);
    await page.goto('/dashboard/guides');
    await expect(page).toHaveURL(/\/premium-access-required$/);

    for (const path of ['/api/content/guides', '/api/content/strategies', '/api/content/images/pro-v2-preview.svg']) {
      expect((await page.request.get(path)).status()).toBe(403);
    }
    // The turned-away visit was recorded for this user and lowers their score.
    const alerts = (await (await page.request.get('/api/security/alerts')).json()) as { score: number; alerts: { type: string }[] };
    expect(alerts.score).toBe(85);
    expect(alerts.alerts.map((alert) => alert.type)).toContain('critical');
  });

  test('nothing premium ships in the public bundle', async ({ request }) => {
    expect((await request.get('/api/content/guides')).status()).toBe(401);
    const assets = join(process.env.CLIENT_DIR ?? 'dist/client', 'assets');
    const bundles = readdirSync(assets).filter((file) => /\.(js|css|html)$/.test(file));
    expect(bundles.length).toBeGreaterThan(0);
    for (const file of bundles) {
      const body = readFileSync(join(assets, file), 'utf8');
      // Phrases from the guides and strategies: they must only ever come from the API.
      expect(body, file).not.toContain('Every decision is a yes-or-no check');
      expect(body, file).not.toContain("Think of the Midline as the market's equilibrium");
      expect(body, file).not.toContain('Indicators and settings.');
    }
  });
});

// The member area reads what one paying member sees: a member per worker (test.ts), a fresh
// signed-in page per test, so these tests run side by side.
test.describe('member area', () => {
  test.use({ signedInAsWorkerMember: true });

  test('the dashboard opens on Guides with the sidebar, user menu, support address and security score', async ({ page, member }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/guides$/);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link')).toHaveText(['Guides', 'Strategies', 'Discord', 'Refer & earn']);
    await expect(nav.getByRole('link', { name: 'Guides' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: /^support@/ })).toBeVisible();
    await expect(page.getByTestId('security-score')).toHaveText('100/100');

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText(member.email);
    await expect(menu).toContainText('Premium');
    await menu.getByRole('menuitem', { name: 'Subscription' }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings\?section=subscription$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My Account' }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings\?section=account$/);
  });

  test('every guide, in its layout, from the overview', async ({ page }) => {
    const { guides } = (await (await page.request.get('/api/content/guides')).json()) as { guides: GuideSummary[] };
    expect(guides.length).toBeGreaterThanOrEqual(8);
    test.setTimeout(pageVisits(guides.length));

    // one load, then in-app navigation only: each guide is opened from the overview and left by its back link
    await page.goto('/dashboard/guides');
    for (const summary of guides) {
      await expect(page.getByRole('heading', { level: 1, name: 'Trading Guides' })).toBeVisible();
      await expect(page.getByText('More Guides Coming Soon')).toBeVisible();
      const card = page.getByRole('link', { name: summary.title, exact: true });
      await expect(card).toContainText(summary.type === 'product' ? 'Explore Features' : 'Start Reading');
      await card.click();

      const guide = (await (await page.request.get(`/api/content/guides/${summary.id}`)).json()) as Guide;
      if (summary.type === 'product') {
        await expect(page).toHaveURL(new RegExp(`\\?product=${summary.id}$`));
        await expect(page.getByRole('heading', { level: 1, name: summary.title })).toBeVisible();
        await expect(page.getByRole('heading', { level: 2, name: 'Features' })).toBeVisible();
        await expect(page.getByText('Learn More →')).toHaveCount(guide.features.length);
      } else {
        await expect(page).toHaveURL(new RegExp(`\\?guide=${summary.id}$`));
        await expect(page.getByRole('heading', { level: 1, name: summary.title })).toBeVisible();
        if (guide.layout === 'long-form') {
          const toc = page.getByRole('navigation', { name: 'Table of Contents' });
          await expect(toc.getByRole('button')).toHaveCount(guide.sections.length);
          await expect(toc.getByRole('button').first()).toHaveAttribute('aria-current', 'location');
          const last = toc.getByRole('button').last();
          await last.click();
          await expect(last).toHaveAttribute('aria-current', 'location');
          await expect(page.getByRole('heading', { level: 2, name: guide.sections.at(-1)!.title, exact: true })).toBeInViewport();
        } else {
          await expect(page.getByTestId('guide-document')).toBeVisible();
        }
      }
      await expectImagesLoaded(page);
      await page.getByRole('link', { name: 'Back to Guides' }).click();
      await expect(page).toHaveURL(/\/dashboard\/guides$/);
    }
  });

  test('the Pro V2 guide in its feature-list layout', async ({ page }) => {
    const { guides } = (await (await page.request.get('/api/content/guides')).json()) as { guides: GuideSummary[] };
    const pro = guides.find((guide) => guide.id.endsWith('-pro-v2'))!;
    await page.goto(`/dashboard/guides?guide=${pro.id}`);
    await expect(page.getByRole('heading', { level: 1, name: pro.title })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Features' })).toBeVisible();
  });

  // one test a product guide, so that the products' many pages are walked side by side
  for (let index = 0; index < productGuideFiles.length; index += 1) {
    test(`every feature of product guide ${index + 1} of ${productGuideFiles.length}, and switching through Other Features`, async ({ page }) => {
      const { guides } = (await (await page.request.get('/api/content/guides')).json()) as { guides: GuideSummary[] };
      const products = guides.filter((guide) => guide.type === 'product');
      // every product guide the API lists is one of these tests
      expect(products).toHaveLength(productGuideFiles.length);
      const product = products[index]!;
      test.setTimeout(pageVisits(product.featureCount + 3));
      const guide = (await (await page.request.get(`/api/content/guides/${product.id}`)).json()) as Guide;
      expect(guide.features.length).toBe(product.featureCount);
      await page.goto(`/dashboard/guides?product=${product.id}`);
      for (const feature of guide.features) {
        await expect(page.getByRole('heading', { level: 2, name: 'Features' })).toBeVisible();
        await page.getByRole('link', { name: feature.title, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`\\?product=${product.id}&feature=${feature.id}$`));
        await expect(page.getByRole('heading', { level: 1, name: feature.title })).toBeVisible();
        await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(`${product.title}/${feature.title}`);
        await expect(page.getByRole('heading', { name: 'Documentation' })).toBeVisible();
        await expect(page.getByRole('table', { name: `${feature.title} settings` })).toBeVisible();
        await expect(page.getByRole('table').first().getByRole('columnheader')).toHaveText(['Setting', 'Description']);
        await expect(page.getByText('Feature Not Found')).toHaveCount(0);
        await expectImagesLoaded(page);
        await page.getByRole('link', { name: 'Back to Features' }).click();
        await expect(page).toHaveURL(new RegExp(`\\?product=${product.id}$`));
      }

      // 'Other Features' rewrites only the address bar, and the page follows it.
      const [first, second] = guide.features;
      await page.goto(`/dashboard/guides?product=${product.id}&feature=${first!.id}`);
      await expect(page.getByRole('heading', { level: 1, name: first!.title })).toBeVisible();
      await page.getByRole('heading', { name: 'Other Features' }).locator('..').getByRole('link', { name: second!.title }).click();
      await expect(page).toHaveURL(new RegExp(`&feature=${second!.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: second!.title })).toBeVisible();
      await page.goBack();
      await expect(page.getByRole('heading', { level: 1, name: first!.title })).toBeVisible();
      await page.getByRole('link', { name: 'Back to Features' }).click();
      await expect(page).toHaveURL(new RegExp(`\\?product=${product.id}$`));
    });
  }

  test("an unknown feature says 'Feature Not Found'", async ({ page }) => {
    const { guides } = (await (await page.request.get('/api/content/guides')).json()) as { guides: GuideSummary[] };
    const product = guides.find((guide) => guide.type === 'product')!;
    await page.goto(`/dashboard/guides?product=${product.id}&feature=no-such-feature`);
    await expect(page.getByRole('heading', { name: 'Feature Not Found' })).toBeVisible();
    await expect(page.getByText('The requested feature documentation could not be found.')).toBeVisible();
  });

  test('every strategy opens in place from the grid', async ({ page }) => {
    const { strategies } = (await (await page.request.get('/api/content/strategies')).json()) as { strategies: StrategySummary[] };
    expect(strategies.length).toBe(2);
    await page.goto('/dashboard/strategies');
    await expect(page.getByRole('heading', { level: 1, name: 'Trading Strategies' })).toBeVisible();
    await expect(page.getByText('More Strategies Coming Soon')).toBeVisible();

    for (const strategy of strategies) {
      const title = cleanTitle(strategy.title);
      const card = page.getByRole('button', { name: title, exact: true });
      await expect(card).toContainText('Learn Strategy');
      await expect(card).not.toContainText('Blueprint');
      await card.click();
      await expect(page).toHaveURL(/\/dashboard\/strategies$/);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Timeframes' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Indicators Required' })).toBeVisible();
      await expect(page.getByTestId('strategy-disclaimer')).toBeVisible();
      await expectImagesLoaded(page);
      await page.getByRole('button', { name: 'Back to Strategies' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Trading Strategies' })).toBeVisible();
    }
    // Difficulty colours: easy green, medium yellow.
    await expect(page.getByText('Easy', { exact: true })).toHaveAttribute('data-colour', 'green');
    await expect(page.getByText('Medium', { exact: true })).toHaveAttribute('data-colour', 'yellow');
  });

  test('the Discord page', async ({ page }) => {
    await page.goto('/dashboard/discord');
    const join = page.getByRole('link', { name: 'Join Discord' });
    await expect(join).toHaveAttribute('target', '_blank');
    await expect(join).toHaveAttribute('rel', /noopener/);
    await expect(page.getByRole('note')).toContainText('rules channel');
  });

  test("under 768 px: 'Desktop Required' with Join Discord and the activation help", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/dashboard/guides');
    await expect(page.getByRole('heading', { name: 'Desktop Required' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Join Discord' })).toBeVisible();
    await page.getByRole('button', { name: 'How to Activate Your Indicators' }).click();
    await expect(page.getByText('Invite-only scripts')).toBeVisible();
    await expect(page.getByText(/contact support/)).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('log out returns to the home page', async ({ page, member }) => {
    // a session of its own: signing out ends it, and the other tests share the worker's
    await page.context().clearCookies();
    const signIn = await page.request.post('/api/auth/sign-in/email', { data: { email: member.email, password: TEST_PASSWORD }, headers: asNewVisitor() });
    expect(signIn.status(), await signIn.text()).toBe(200);
    await page.goto('/dashboard/guides');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/content/guides')).status()).toBe(401);
  });
});
