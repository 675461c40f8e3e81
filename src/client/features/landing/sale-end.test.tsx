import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HeroSection } from './components/hero-section';
import { OfferBar } from './components/offer-bar';
import { PricingSection } from './pricing/pricing-section';
import { anonymous, fakeServer, renderWithProviders, SETTINGS } from './test/render-landing';

// The sale ended: once SALE_ENDS_AT had passed, the cards still said "Black Friday" with a
// struck-through $47 and the hero said "Save up to 65%". The clock is faked; nothing waits on time.
const NOW = new Date('2026-11-23T10:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  fakeServer(anonymous());
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function renderLanding(saleEndsAt: string | null) {
  renderWithProviders(
    <>
      <OfferBar isEu={false} />
      <HeroSection />
      <PricingSection originPage="/" redirect={vi.fn()} />
    </>,
    { settings: { ...SETTINGS, saleEndsAt } },
  );
}

const card = (name: string) => within(screen.getByRole('article', { name }));

function expectNoSaleWording() {
  expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
  expect(screen.queryByText('Save up to 65%')).not.toBeInTheDocument();
  expect(screen.queryByText('Black Friday')).not.toBeInTheDocument();
  expect(screen.queryByText(/^Save \d+%$/)).not.toBeInTheDocument();
  for (const name of ['Monthly', 'Quarterly', 'Yearly']) {
    const price = card(name).getByText('$47');
    expect(price).not.toHaveClass('line-through');
    expect(card(name).getAllByText(/^\$\d+$/)).toEqual([price]);
  }
}

describe('the landing once the sale is over', () => {
  it('shows the regular prices and no sale wording in the offer bar, the hero or the cards', () => {
    renderLanding('2025-11-26T23:59:59.000Z');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Boost Your Trading with Next-Gen Indicators');
    expectNoSaleWording();
  });

  it('drops every sale text at the moment the sale ends while the page is open', () => {
    renderLanding(new Date(NOW.getTime() + 3000).toISOString());
    expect(screen.getByTestId('sale-countdown')).toHaveTextContent(/Black Friday Sale .*ends in/);
    expect(screen.getByText('Save up to 65%')).toBeInTheDocument();
    expect(screen.getAllByText('Black Friday')).toHaveLength(3);
    expect(card('Quarterly').getByText('$24')).toBeInTheDocument();
    expect(card('Quarterly').getByText('$47')).toHaveClass('line-through');
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByText('Save up to 65%')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expectNoSaleWording();
  });

  it('without SALE_ENDS_AT shows the demo sale, a few days from its end', () => {
    renderLanding(null);
    expect(screen.getByRole('timer')).toHaveAccessibleName('3 days 13 hours 59 minutes 59 seconds left');
    expect(screen.getByText('Save up to 65%')).toBeInTheDocument();
    expect(screen.getAllByText('Black Friday')).toHaveLength(3);
  });
});
