import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IndicatorChart, type IndicatorKind } from './indicator-chart';

const KINDS: IndicatorKind[] = [
  'order-blocks',
  'fair-value-gaps',
  'smart-money-oscillator',
  'adaptive-trend-tracker',
  'swing-signals',
  'reversal-signals',
  'adaptive-cloud',
  'smart-money-concepts',
  'screener-dashboard',
  'beyond-indicators',
  'hero',
  'pro-toolkits',
  'any-setup',
  'built-to-succeed',
];

/** Labels a visitor can read on each chart: the kind's overlay, not just candles. */
const LABELS: Partial<Record<IndicatorKind, string[]>> = {
  'order-blocks': ['OB'],
  'fair-value-gaps': ['FVG'],
  'smart-money-oscillator': ['20', '80'],
  'swing-signals': ['Buy', 'Sell'],
  'reversal-signals': ['Rev Buy', 'Rev Sell'],
  'smart-money-concepts': ['BOS', 'CHoCH', 'Premium', 'Discount'],
  'screener-dashboard': ['BTC', 'ETH', 'SOL', 'EUR/USD', 'XAU/USD', 'SPX', 'NDX', 'TREND', 'LAST SIGNAL'],
  'beyond-indicators': ['Strategies', 'Community', 'Guides'],
  hero: ['Buy', 'Sell'],
  'pro-toolkits': ['CHoCH'],
  'any-setup': ['BTCUSD · 1H', 'EURUSD · 15m', 'XAUUSD · 4H', 'NDX · 1D'],
  'built-to-succeed': ['Buy', 'Target 2R', 'Stop 1R'],
};

const BAD_NUMBER = /NaN|Infinity|undefined/;

describe('IndicatorChart', () => {
  it.each(KINDS)('%s: an accessible svg with its overlay and only finite coordinates', (kind) => {
    render(<IndicatorChart kind={kind} title={`${kind} example`} />);
    const svg = screen.getByRole('img', { name: `${kind} example` });
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg).toHaveAttribute('width', '100%');
    expect(svg).toHaveAttribute('height', '100%');

    const overlays = svg.querySelectorAll('[data-overlay]');
    expect(overlays.length).toBeGreaterThan(0);
    for (const overlay of overlays) expect(overlay.querySelector('path, rect, text')).not.toBeNull();

    const paths = [...svg.querySelectorAll('path')];
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path.getAttribute('d') ?? '').not.toMatch(BAD_NUMBER);
    for (const element of svg.querySelectorAll('*')) {
      for (const name of ['x', 'y', 'width', 'height', 'cx', 'cy', 'transform']) {
        expect(element.getAttribute(name) ?? '').not.toMatch(BAD_NUMBER);
      }
    }
    for (const label of LABELS[kind] ?? []) expect(within(svg as unknown as HTMLElement).getAllByText(label).length).toBeGreaterThan(0);
  });

  it.each(KINDS)('%s: keeps the DOM light enough for 20 charts on one page', (kind) => {
    render(<IndicatorChart kind={kind} title="chart" />);
    // candles are two paths (one per colour), not one element per candle
    expect(screen.getByRole('img').querySelectorAll('*').length).toBeLessThan(160);
  });

  it('draws candles as one path per colour', () => {
    render(<IndicatorChart kind="adaptive-trend-tracker" title="chart" />);
    const svg = screen.getByRole('img');
    expect(svg.querySelectorAll('path[fill="#22c55e"][stroke="#22c55e"]')).toHaveLength(1);
    expect(svg.querySelectorAll('path[fill="#ef4444"][stroke="#ef4444"]')).toHaveLength(1);
  });

  it('has a fixed 16:9 aspect ratio matching its viewBox', () => {
    render(<IndicatorChart kind="hero" title="chart" />);
    const [, , width, height] = (screen.getByRole('img').getAttribute('viewBox') ?? '').split(' ').map(Number);
    expect(width! / height!).toBeCloseTo(16 / 9);
  });

  it('names itself after its kind when no title is given, and passes the class name on', () => {
    render(<IndicatorChart kind="fair-value-gaps" className="h-full w-full" />);
    expect(screen.getByRole('img', { name: 'fair value gaps chart' })).toHaveClass('h-full', 'w-full');
  });

  it('draws the same picture every time (seeded sample data)', () => {
    const first = render(<IndicatorChart kind="hero" title="a" />).container.innerHTML;
    const second = render(<IndicatorChart kind="hero" title="a" />).container.innerHTML;
    expect(second).toBe(first);
  });

  it('shows computed values in the screener: a trend and a signal per asset', () => {
    render(<IndicatorChart kind="screener-dashboard" title="Screener" />);
    const svg = screen.getByRole('img', { name: 'Screener' });
    expect(within(svg as unknown as HTMLElement).getAllByText(/^[▲▼] (Up|Down)$/)).toHaveLength(7);
    expect(within(svg as unknown as HTMLElement).getAllByText(/^(Buy|Sell) · \d+ bars? ago$/)).toHaveLength(7);
  });
});
