import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Strategy, StrategySummary } from '@shared/content';
import { jsonResponse, renderRoutes } from '@client/test/render';
import { StrategiesPage } from './strategies-page';

const img = (file: string) => `/api/content/images/${file}`;

const MIDLINE: Strategy = {
  id: 'midline-trend-following',
  title: '🧭 Midline Trend-Following Blueprint',
  description: 'Join established trends on a pullback to the Midline.',
  previewImage: img('midline-preview.svg'),
  heroImage: img('midline-hero.svg'),
  estimatedReadTime: 10,
  difficulty: 'easy',
  strategyType: 'Trend Following',
  timeframes: ['4H', '1H'],
  sectionCount: 3,
  introduction: 'The recommended first strategy.\n\nIt runs on the 1-hour and 4-hour charts.',
  indicatorsRequired: ['Candlewise Pro V2: Midline, Adaptive Cloud', 'Candlewise Volatility Index: ADR Levels'],
  sections: [
    { id: 'strategy-setup', title: 'Strategy Setup', html: '<p><strong>Charts and timeframes.</strong> Trade the 1H chart.</p><ul><li>Pro V2 defaults</li></ul>' },
    {
      id: 'trade-example',
      title: 'Trade Example',
      html: '<table><thead><tr><th>Account</th><th>Risk</th></tr></thead><tbody><tr><td>$5,000</td><td>1% = $50</td></tr></tbody></table>',
      image: img('midline-example.svg'),
      imageAlt: 'The EUR/USD example',
    },
    { id: 'disclaimer', title: 'Disclaimer', html: '<p>Trading involves risk. Past results do not guarantee future results.</p>' },
  ],
  relatedStrategies: ['smc-oscillator-pullback'],
  images: {
    [img('midline-preview.svg')]: { width: 640, height: 360 },
    [img('midline-hero.svg')]: { width: 1200, height: 480 },
    [img('midline-example.svg')]: { width: 800, height: 450 },
  },
};

const SMC: Strategy = {
  ...MIDLINE,
  id: 'smc-oscillator-pullback',
  title: '🧭 Smart Money Oscillator Pullback Blueprint',
  description: 'Buy discount pullbacks into order blocks.',
  previewImage: img('smc-preview.svg'),
  difficulty: 'medium',
  strategyType: 'Pullback',
  timeframes: ['All timeframes'],
  sectionCount: 8,
};

const summary = ({ id, title, description, previewImage, estimatedReadTime, difficulty, strategyType, timeframes, sectionCount }: Strategy): StrategySummary => ({
  id,
  title,
  description,
  previewImage,
  estimatedReadTime,
  difficulty,
  strategyType,
  timeframes,
  sectionCount,
});

beforeEach(() => {
  window.scrollTo = vi.fn() as typeof window.scrollTo;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/api/content/strategies') return jsonResponse({ strategies: [MIDLINE, SMC].map(summary) });
      if (path === `/api/content/strategies/${MIDLINE.id}`) return jsonResponse(MIDLINE);
      if (path === `/api/content/strategies/${SMC.id}`) return jsonResponse(SMC);
      return jsonResponse({ error: { code: 'not_found', message: 'Not found.' } }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage() {
  return renderRoutes([{ path: '/dashboard/strategies', element: <StrategiesPage /> }], { path: '/dashboard/strategies' });
}

describe('strategies grid', () => {
  it('shows a card per strategy with a clean title, badges, counts and timeframes', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Trading Strategies' })).toBeInTheDocument();
    const card = await screen.findByRole('button', { name: 'Midline Trend-Following' });
    expect(card).not.toHaveTextContent('🧭');
    expect(card).not.toHaveTextContent('Blueprint');
    expect(card).toHaveTextContent('Trend Following');
    expect(within(card).getByText('Easy')).toHaveAttribute('data-colour', 'green');
    expect(card).toHaveTextContent('Join established trends on a pullback to the Midline.');
    expect(card).toHaveTextContent('10 min read');
    expect(card).toHaveTextContent('3 sections');
    expect(within(within(card).getByRole('list', { name: 'Timeframes' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['4H', '1H']);
    expect(card).toHaveTextContent('Learn Strategy');
    expect(card.querySelector('img')).toHaveAttribute('src', img('midline-preview.svg'));

    const smc = screen.getByRole('button', { name: 'Smart Money Oscillator Pullback' });
    expect(within(smc).getByText('Medium')).toHaveAttribute('data-colour', 'yellow');
    expect(screen.getByText('More Strategies Coming Soon')).toBeInTheDocument();
  });
});

describe('strategy detail', () => {
  it('opens in place without a URL change and shows everything the strategy needs', async () => {
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Midline Trend-Following' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Midline Trend-Following' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/strategies');
    expect(router.state.location.search).toBe('');

    expect(screen.getByText('10 min read')).toBeInTheDocument();
    expect(screen.getByText('3 sections')).toBeInTheDocument();
    expect(screen.getByText('Type:').nextElementSibling).toHaveTextContent('Trend Following');
    expect(screen.getByText('Difficulty:').nextElementSibling).toHaveTextContent('easy');
    const hero = document.querySelector(`img[src="${img('midline-hero.svg')}"]`);
    expect(hero).toHaveAttribute('width', '1200');
    expect(hero).toHaveAttribute('height', '480');
    expect(screen.getByText('The recommended first strategy.')).toBeInTheDocument();
    expect(screen.getByText('It runs on the 1-hour and 4-hour charts.')).toBeInTheDocument();

    const timeframes = screen.getByRole('heading', { name: 'Timeframes' }).parentElement!;
    expect(within(timeframes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['4H', '1H']);
    const indicators = screen.getByRole('heading', { name: 'Indicators Required' }).parentElement!;
    expect(within(indicators).getAllByRole('listitem').map((item) => item.textContent)).toEqual(MIDLINE.indicatorsRequired);

    // Numbered sections, the disclaimer apart and small.
    const sections = screen.getAllByRole('region');
    expect(sections.map((section) => within(section).getByRole('heading', { level: 2 }).textContent)).toEqual(['Strategy Setup', 'Trade Example']);
    expect(sections[0]).toHaveTextContent(/^1/);
    expect(sections[1]).toHaveTextContent(/^2/);
    expect(within(sections[0]!).getByText('Charts and timeframes.').tagName).toBe('STRONG');
    expect(within(sections[1]!).getByRole('table')).toHaveTextContent('1% = $50');
    const figure = within(sections[1]!).getByRole('img', { name: 'The EUR/USD example' });
    expect(figure).toHaveAttribute('src', img('midline-example.svg'));
    // Sized before it loads, so the sections below do not move when it arrives.
    expect(figure).toHaveAttribute('width', '800');
    expect(figure).toHaveAttribute('height', '450');
    expect(figure).toHaveAttribute('loading', 'lazy');
    expect(figure).toHaveAttribute('decoding', 'async');
    expect(figure).toHaveClass('h-auto', 'max-w-full');
    const disclaimer = screen.getByTestId('strategy-disclaimer');
    expect(disclaimer).toHaveTextContent('Trading involves risk.');
    expect(disclaimer.querySelector('div')?.className).toContain('text-xs');
  });

  it("goes back to the grid with 'Back to Strategies'", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Smart Money Oscillator Pullback' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Smart Money Oscillator Pullback' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Strategies' }));
    expect(await screen.findByRole('button', { name: 'Midline Trend-Following' })).toBeInTheDocument();
  });
});
