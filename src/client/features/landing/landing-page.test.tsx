import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EuLandingPage, LandingPage } from './landing-page';
import { anonymous, deferred, fakeServer, renderWithProviders, SETTINGS, signedIn } from './test/render-landing';

// The page is tested for its sections and texts; each chart is drawn and checked on its own in
// charts/indicator-chart.test.tsx. A stand-in keeps ~20 SVG charts out of every render here.
vi.mock('./charts/indicator-chart', () => ({
  IndicatorChart: ({ title }: { title?: string }) => <svg role="img" aria-label={title} />,
}));

const EU_OFFER = 'This special offer is only available through the ad you saw.';
const HEADLINE = 'Boost Your Trading with Next-Gen Indicators';

function renderAt(path: string, settings = SETTINGS) {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<LandingPage />} />
      <Route path="/eu" element={<EuLandingPage />} />
      <Route path="/dashboard" element={<p>Dashboard screen</p>} />
      <Route path="/disclaimer" element={<p>Disclaimer screen</p>} />
    </Routes>,
    { path, settings },
  );
}

/** The hero paints first; the sections below it (a lazy chunk, one section per frame) and the footer follow. */
async function pageReady() {
  await screen.findByRole('heading', { level: 1, name: HEADLINE });
  await screen.findByRole('contentinfo');
}

// The lazy chunks are compiled once here, so no test pays for that inside its own time.
beforeAll(async () => {
  await Promise.all([import('./below-the-fold'), import('./components/site-footer')]);
}, 60_000);

// A visitor who prefers reduced motion: the carousel stands still instead of changing the DOM on
// every frame, which would re-run every pending query 60 times a second (its motion is not tested here).
beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-reduced-motion: reduce)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('landing wrapper', () => {
  it('shows Loading... until the session check answers, then the page at once for an anonymous visitor', async () => {
    const session = deferred<{ body: unknown }>();
    const server = fakeServer({ 'GET /api/auth/get-session': () => session.promise });
    renderAt('/');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: HEADLINE })).not.toBeInTheDocument();
    session.resolve({ body: null });
    expect(await screen.findByRole('heading', { level: 1, name: HEADLINE })).toBeInTheDocument();
    expect(screen.getByText('Unlock powerful indicators for smarter, faster, more precise trades.')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Choose Your Plan' })).toBeInTheDocument();
    expect(server.callsTo('GET /api/access')).toHaveLength(0);
  });

  it('sends a signed-in member with access to the dashboard', async () => {
    fakeServer({ ...signedIn(), 'GET /api/access': () => ({ body: { hasAccess: true } }) });
    renderAt('/eu');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByText('Dashboard screen')).toBeInTheDocument();
  });

  it('keeps the spinner while a signed-in user’s access is unknown, then shows the page without access', async () => {
    const access = deferred<{ body: unknown }>();
    const server = fakeServer({ ...signedIn(), 'GET /api/access': () => access.promise, 'GET /api/subscription': () => ({ status: 404, body: { error: { code: 'not_found', message: 'none' } } }) });
    renderAt('/');
    await waitFor(() => expect(server.callsTo('GET /api/access')).toHaveLength(1));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    access.resolve({ body: { hasAccess: false } });
    expect(await screen.findByRole('heading', { level: 1, name: HEADLINE })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
  });
});

describe('landing page', () => {
  it('has the sale countdown on / and no EU offer', async () => {
    fakeServer(anonymous());
    renderAt('/');
    await pageReady();
    expect(screen.getByTestId('sale-countdown')).toBeInTheDocument();
    expect(screen.queryByText(EU_OFFER)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth');
    expect(screen.getAllByText('Black Friday')).toHaveLength(3);
  });

  it('hides the countdown once the configured sale has ended', async () => {
    fakeServer(anonymous());
    renderAt('/', { ...SETTINGS, saleEndsAt: '2025-11-26T23:59:59' });
    await pageReady();
    expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
  });

  it.each(['/eu', '/?from=eu'])('%s shows the EU offer, EU pricing and no countdown', async (path) => {
    fakeServer(anonymous());
    renderAt(path);
    await pageReady();
    expect(screen.getByText(EU_OFFER)).toBeInTheDocument();
    expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
    expect(screen.getByText('$549.99')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth?redirect=/eu');
    expect(screen.getByRole('link', { name: 'Disclaimer' })).toHaveAttribute('href', '/disclaimer?from=eu');
  });

  it('has the spec’s sections and texts', async () => {
    fakeServer(anonymous());
    renderAt('/');
    await pageReady();
    expect(screen.getByRole('button', { name: /Start Risk-Free Today/ })).toBeInTheDocument();
    expect(screen.getByText('Save up to 65%')).toBeInTheDocument();
    expect(screen.getByLabelText('Rated 4.3 out of 5')).toHaveTextContent('4.3/5');
    for (const title of ['Pro Toolkits', 'Designed for Any Setup', 'Built to Succeed']) expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Unlock Access' })).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Advanced Trading Features' })).toBeInTheDocument();
    expect(screen.getAllByText('Verified User')).toHaveLength(6);
    const guide = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Guide' });
    expect(guide).toHaveAttribute('href', SETTINGS.docsUrl);
    expect(guide).toHaveAttribute('target', '_blank');
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent('Candlewise LLC');
    expect(footer).toHaveTextContent('New Mexico');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()}`);
    expect(screen.getByRole('link', { name: SETTINGS.supportEmail })).toHaveAttribute('href', `mailto:${SETTINGS.supportEmail}`);
  });

  it('a Prices click before the sections have loaded still lands on the pricing cards', async () => {
    fakeServer(anonymous());
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    renderAt('/');
    await screen.findByRole('heading', { level: 1, name: HEADLINE });
    expect(document.getElementById('prices')).toBeNull();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Prices' }));
    await waitFor(() => expect(scrolled.map((element) => element.id)).toContain('prices'));
  });

  it('an Unlock Access click before the prices have rendered still lands on them', async () => {
    // The sections below the hero follow one per animation frame: frames are held here and let
    // through one by one, so the click lands between the feature blocks and the prices.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const nextFrame = () => act(() => frames.shift()?.(performance.now()));
    fakeServer(anonymous());
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this.id);
    });
    renderAt('/');
    await waitFor(async () => {
      await nextFrame();
      expect(screen.getAllByRole('button', { name: 'Unlock Access' })).toHaveLength(3);
    });
    expect(document.getElementById('prices')).toBeNull();

    await userEvent.click(screen.getAllByRole('button', { name: 'Unlock Access' })[1]!);
    await waitFor(async () => {
      await nextFrame();
      expect(scrolled).toContain('prices');
    });
  });

  it('opens the first FAQ answer and toggles the others', async () => {
    fakeServer(anonymous());
    renderAt('/');
    await pageReady();
    const questions = screen.getAllByRole('button', { expanded: false }).filter((button) => button.hasAttribute('aria-controls') && button.closest('#faq'));
    const first = screen.getByRole('button', { name: 'What do I get with a subscription?' });
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(questions).toHaveLength(6);
    const cancel = screen.getByRole('button', { name: 'Can I cancel at any time?' });
    await userEvent.click(cancel);
    expect(cancel).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(/cancel at any time from your account settings, with no cancellation fee/)).toBeVisible();
  });

  it('opens the chat panel without a frame when no chat URL is configured, and with the configured frame otherwise', async () => {
    fakeServer(anonymous());
    const { unmount } = renderAt('/');
    await screen.findByRole('heading', { level: 1, name: HEADLINE });
    expect(document.querySelector('iframe')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open support chat' }));
    const panel = screen.getByRole('dialog', { name: 'Support chat' });
    expect(panel).toHaveTextContent(SETTINGS.supportEmail);
    expect(panel.querySelector('iframe')).toBeNull();
    unmount();

    renderAt('/', { ...SETTINGS, chatUrl: 'https://chat.example.com/widget' });
    await screen.findByRole('heading', { level: 1, name: HEADLINE });
    expect(document.querySelector('iframe')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open support chat' }));
    expect(screen.getByTitle('Support chat')).toHaveAttribute('src', 'https://chat.example.com/widget');
    await userEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    expect(document.querySelector('iframe')).toBeNull();
  });
});
