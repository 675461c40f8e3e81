import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Guide } from '@shared/content';
import { expectSized, GETTING_STARTED, renderGuides, stubContentApi } from './test/guide-fixtures';

const search = () => new URLSearchParams(window.location.search);

beforeEach(() => {
  window.scrollTo = vi.fn() as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('guides overview (no parameters)', () => {
  it('shows every guide as a card with difficulty, read time and counts', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trading Guides' })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Smart Money Concepts' });
    const card = (name: string) => screen.getByRole('link', { name });

    const product = card('Smart Money Concepts');
    expect(within(product).getByText('Product')).toHaveAttribute('data-colour', 'purple');
    expect(product).toHaveTextContent('6 min read');
    expect(product).toHaveTextContent('3 features');
    expect(product).toHaveTextContent('Explore Features');
    expect(product.querySelector('img')).toHaveAttribute('src', '/api/content/images/smc-preview.svg');

    const guide = card('Getting Started');
    expect(within(guide).getByText('Beginner')).toHaveAttribute('data-colour', 'green');
    expect(guide).toHaveTextContent('Your first hour with Candlewise.');
    expect(guide).toHaveTextContent('3 sections');
    expect(guide).toHaveTextContent('Start Reading');

    expect(within(card('How to Set Up Candlewise')).getByText('Tutorial')).toHaveAttribute('data-colour', 'blue');
    expect(within(card('Technical Analysis')).getByText('Intermediate')).toHaveAttribute('data-colour', 'yellow');
    expect(screen.getByText('More Guides Coming Soon')).toBeInTheDocument();
  });

  it('opens a product card with product= and any other card with guide=', async () => {
    const user = userEvent.setup();
    stubContentApi();
    renderGuides('/dashboard/guides');
    await user.click(await screen.findByRole('link', { name: 'Smart Money Concepts' }));
    expect(search().get('product')).toBe('smart-money-concepts');
    expect(await screen.findByRole('heading', { level: 2, name: 'Features' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to Guides' }));
    await user.click(await screen.findByRole('link', { name: 'Getting Started' }));
    expect(search().get('guide')).toBe('getting-started');
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting Started' })).toBeInTheDocument();
  });
});

describe('product feature list (product=)', () => {
  it('shows the title, read time, feature count, introduction and numbered feature cards', async () => {
    const user = userEvent.setup();
    stubContentApi();
    renderGuides('/dashboard/guides?product=smart-money-concepts');
    expect(await screen.findByRole('heading', { level: 1, name: 'Smart Money Concepts' })).toBeInTheDocument();
    expect(screen.getByText('6 min read')).toBeInTheDocument();
    expect(screen.getByText('3 features')).toBeInTheDocument();
    expect(screen.getByText('market structure').tagName).toBe('STRONG');
    // The header picture is at the top of the page: sized, and not held back by lazy loading.
    const preview = document.querySelector('img[src="/api/content/images/smc-preview.svg"]');
    expect(preview).toHaveAttribute('width', '640');
    expect(preview).toHaveAttribute('height', '360');
    expect(preview).toHaveAttribute('loading', 'eager');

    const cards = within(screen.getByRole('list')).getAllByRole('link');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Market Structure', 'Order Blocks', 'Fair Value Gaps']);
    expect(cards[0]).toHaveTextContent('01');
    expect(cards[2]).toHaveTextContent('03');
    expect(cards[1]).toHaveTextContent('Learn More →');

    await user.click(cards[1]!);
    expect(search().get('product')).toBe('smart-money-concepts');
    expect(search().get('feature')).toBe('order-blocks');
  });
});

describe('feature documentation (product= & feature=)', () => {
  it('shows the breadcrumb, the documentation with its settings table and the other features', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides?product=candlewise-pro-v2&feature=midline');
    expect(await screen.findByRole('heading', { level: 1, name: 'Midline' })).toBeInTheDocument();

    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(breadcrumb).toHaveTextContent('Candlewise Pro V2/Midline');
    expect(within(breadcrumb).getByRole('link', { name: 'Candlewise Pro V2' })).toHaveAttribute('href', '/dashboard/guides?product=candlewise-pro-v2');
    expect(screen.getByRole('link', { name: 'Back to Features' })).toHaveAttribute('href', '/dashboard/guides?product=candlewise-pro-v2');
    expect(screen.getByRole('heading', { name: 'Documentation' })).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Midline settings' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Setting', 'Description']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Show Midline', 'Shows or hides the Midline.'],
      ['Midline Length', 'Base lookback of the Midline in bars.'],
    ]);
    // Text before and after the table stays text, in order.
    expect(screen.getByText('centre').tagName).toBe('STRONG');
    expect(screen.getByText('The Midline is also the centre of the Adaptive Cloud.')).toBeInTheDocument();

    const others = screen.getByRole('heading', { name: 'Other Features' }).parentElement!;
    expect(within(others).getAllByRole('link').map((link) => link.textContent)).toEqual(['Adaptive Cloud']);
  });

  it('switches to another feature by rewriting only the address bar', async () => {
    const user = userEvent.setup();
    stubContentApi();
    const { router } = renderGuides('/dashboard/guides?product=candlewise-pro-v2&feature=midline');
    const routerKey = router.state.location.key;
    const historyLength = window.history.length;
    await user.click(await screen.findByRole('link', { name: 'Adaptive Cloud' }));

    expect(search().get('feature')).toBe('adaptive-cloud');
    expect(window.history.length).toBe(historyLength + 1);
    // No router navigation happened: the router still holds the old location.
    expect(router.state.location.key).toBe(routerKey);
    expect(router.state.location.search).toBe('?product=candlewise-pro-v2&feature=midline');
    // And yet the page shows the feature in the address bar.
    expect(await screen.findByRole('heading', { level: 1, name: 'Adaptive Cloud' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Adaptive Cloud settings' })).toBeInTheDocument();
  });

  it('follows the back button after such a rewrite', async () => {
    const user = userEvent.setup();
    stubContentApi();
    renderGuides('/dashboard/guides?product=candlewise-pro-v2&feature=midline');
    await user.click(await screen.findByRole('link', { name: 'Adaptive Cloud' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Adaptive Cloud' })).toBeInTheDocument();
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Midline' })).toBeInTheDocument();
  });

  it("says 'Feature Not Found' for an unknown feature", async () => {
    stubContentApi();
    renderGuides('/dashboard/guides?product=candlewise-pro-v2&feature=no-such-feature');
    expect(await screen.findByRole('heading', { name: 'Feature Not Found' })).toBeInTheDocument();
    expect(screen.getByText('The requested feature documentation could not be found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Features' })).toHaveAttribute('href', '/dashboard/guides?product=candlewise-pro-v2');
  });
});

describe('guide layouts (guide=)', () => {
  it('renders the setup tutorial as one documentation page, paragraph by paragraph, with its images', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides?guide=candlewise-setup');
    expect(await screen.findByRole('heading', { level: 1, name: 'How to Set Up Candlewise' })).toBeInTheDocument();
    const doc = screen.getByTestId('guide-document');
    const paragraphs = within(doc).getAllByText(/^(This tutorial|Step 1|Step 2)/);
    expect(paragraphs).toHaveLength(3);
    expect(screen.getByText('1–2 hours').tagName).toBe('STRONG');
    const image = within(doc).getByRole('img', { name: 'The activation form asks for your exact TradingView username' });
    expect(image).toHaveAttribute('src', '/api/content/images/setup-checkout-username.svg');
    expectSized(image, 800, 450);
    expect(screen.getByRole('link', { name: 'Back to Guides' })).toHaveAttribute('href', '/dashboard/guides');
    expect(screen.queryByRole('navigation', { name: 'Table of Contents' })).not.toBeInTheDocument();
  });

  it('renders the Pro V2 guide as a feature list with a Features sidebar', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides?guide=candlewise-pro-v2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Candlewise Pro V2' })).toBeInTheDocument();
    const sidebar = screen.getByRole('heading', { level: 2, name: 'Features' }).parentElement!;
    const links = within(sidebar).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['01Midline', '02Adaptive Cloud']);
    expect(links[0]).toHaveAttribute('href', '/dashboard/guides?product=candlewise-pro-v2&feature=midline');
    expect(screen.getByText('Pro V2 answers the three questions behind every trend trade.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Guides' })).toBeInTheDocument();
  });

  it('renders a long-form guide with numbered sections, a table of contents and related guides', async () => {
    const user = userEvent.setup();
    stubContentApi();
    renderGuides('/dashboard/guides?guide=getting-started');
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting Started' })).toBeInTheDocument();

    const sections = screen.getAllByRole('region');
    expect(sections.map((section) => within(section).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Activate Your Access',
      'Set Up Your Chart',
      'Next Steps',
    ]);
    expect(sections[1]).toHaveTextContent(/^2/);
    const figure = within(sections[1]!).getByRole('img', { name: 'A clean chart' });
    expect(figure).toHaveAttribute('src', '/api/content/images/chart.svg');
    expectSized(figure, 800, 450);
    expect(within(sections[0]!).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Open a chart', 'Add the indicators']);
    expect(within(sections[2]!).getByRole('link', { name: 'strategies' })).toHaveAttribute('href', '/dashboard/strategies');

    const toc = screen.getByRole('navigation', { name: 'Table of Contents' });
    const entries = within(toc).getAllByRole('button');
    expect(entries[0]).toHaveAttribute('aria-current', 'location');
    expect(entries[1]).not.toHaveAttribute('aria-current');
    expect(sections[0]).toHaveAttribute('data-active', 'true');

    await user.click(entries[2]!);
    expect(entries[2]).toHaveAttribute('aria-current', 'location');
    expect(entries[0]).not.toHaveAttribute('aria-current');
    expect(sections[2]).toHaveAttribute('data-active', 'true');
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });

    const related = await screen.findByRole('heading', { name: 'Related Guides' });
    const relatedLinks = within(related.parentElement!).getAllByRole('link');
    expect(relatedLinks.map((link) => link.getAttribute('href'))).toEqual([
      '/dashboard/guides?guide=technical-analysis',
      '/dashboard/guides?product=smart-money-concepts',
    ]);
    await user.click(relatedLinks[0]!);
    expect(await screen.findByRole('heading', { level: 1, name: 'Technical Analysis' })).toBeInTheDocument();
  });

  // Regression: images above a section loaded during the smooth scroll, pushed the section down,
  // and the jump to the last Table of Contents entry stopped short of it.
  it('keeps following the clicked section while images above it finish loading', async () => {
    const user = userEvent.setup();
    stubContentApi();
    renderGuides('/dashboard/guides?guide=getting-started');
    await screen.findByRole('heading', { level: 1, name: 'Getting Started' });
    const scrolls = vi.mocked(Element.prototype.scrollIntoView);
    const toc = screen.getByRole('navigation', { name: 'Table of Contents' });

    await user.click(within(toc).getByRole('button', { name: /Next Steps/ }));
    const target = document.getElementById('section-next-steps');
    expect(target).toHaveAttribute('data-active', 'true');
    expect(scrolls.mock.contexts).toEqual([target]);

    // The figure of section 2, above the target, arrives late: the scroll aims again.
    screen.getByRole('img', { name: 'A clean chart' }).dispatchEvent(new Event('load'));
    expect(scrolls.mock.contexts).toEqual([target, target]);
    expect(scrolls).toHaveBeenLastCalledWith({ behavior: 'smooth', block: 'start' });

    // A jump back to section 1 follows that one only; the figure is below it now.
    await user.click(within(toc).getByRole('button', { name: /Activate Your Access/ }));
    const first = document.getElementById('section-activate-your-access');
    screen.getByRole('img', { name: 'A clean chart' }).dispatchEvent(new Event('load'));
    expect(scrolls.mock.contexts).toEqual([target, target, first]);
  });

  it('says the guide was not found for an unknown id', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides?guide=nope');
    expect(await screen.findByRole('heading', { name: 'Guide Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Guides' })).toBeInTheDocument();
  });

  it('offers a retry when loading fails for another reason', async () => {
    const user = userEvent.setup();
    let fail = true;
    const { requests } = stubContentApi();
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      fail ? Promise.resolve(new Response(JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.' } }), { status: 500 })) : realFetch(input, init),
    );
    renderGuides('/dashboard/guides?guide=getting-started');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting Started' })).toBeInTheDocument();
    expect(requests).toContain('/api/content/guides/getting-started');
  });
});

describe('guide text is rendered safely', () => {
  it('never turns guide text into markup, scripts or unsafe links', async () => {
    const hostile: Guide = {
      ...GETTING_STARTED,
      id: 'hostile',
      relatedGuides: [],
      sections: [
        {
          id: 'x',
          title: 'X',
          content: [
            '<script>window.pwned = true</script> <img src=x onerror="window.pwned=true">',
            '[click me](javascript:alert(1)) and [data](data:text/html,hi) and [ok](https://example.com)',
            '![tracker](https://evil.example/pixel.gif)',
          ].join('\n\n'),
        },
      ],
    };
    stubContentApi({ hostile });
    const { container } = renderGuides('/dashboard/guides?guide=hostile');
    await screen.findByRole('heading', { level: 1, name: 'Getting Started' });
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(container.querySelector('img[src^="https://evil"]')).toBeNull();
    expect(screen.getByText(/<script>window.pwned = true<\/script>/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'click me' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'data' })).not.toBeInTheDocument();
    const ok = screen.getByRole('link', { name: 'ok' });
    expect(ok).toHaveAttribute('target', '_blank');
    expect(ok).toHaveAttribute('rel', 'noopener noreferrer');
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
  });
});

describe('reading the address bar', () => {
  it('follows a change of parameters made outside the router', async () => {
    stubContentApi();
    renderGuides('/dashboard/guides');
    await screen.findByRole('heading', { level: 1, name: 'Trading Guides' });
    act(() => {
      window.history.pushState(null, '', '/dashboard/guides?guide=getting-started');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Getting Started' })).toBeInTheDocument());
  });
});
