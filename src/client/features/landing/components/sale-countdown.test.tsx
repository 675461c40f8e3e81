import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaleCountdown } from './sale-countdown';

const unit = (name: string) => screen.getByTestId('sale-countdown').querySelector(`[data-unit="${name}"]`)?.firstChild?.textContent;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(2025, 10, 25, 22, 59, 57)); // local time, like the configured end
});
afterEach(() => vi.useRealTimers());

describe('SaleCountdown', () => {
  it('counts down to the configured end every second', () => {
    render(<SaleCountdown title="Black Friday Sale" endsAt="2025-11-26T23:59:59" />);
    expect([unit('days'), unit('hours'), unit('minutes'), unit('seconds')]).toEqual(['1', '01', '00', '02']);
    act(() => vi.advanceTimersByTime(1000));
    expect(unit('seconds')).toBe('01');
    act(() => vi.advanceTimersByTime(2000));
    expect([unit('days'), unit('hours'), unit('minutes'), unit('seconds')]).toEqual(['1', '00', '59', '59']);
    expect(screen.getByRole('timer')).toHaveAccessibleName('1 days 0 hours 59 minutes 59 seconds left');
  });

  it('disappears when the sale ends while the page is open', () => {
    render(<SaleCountdown title="Black Friday Sale" endsAt="2025-11-25T23:00:00" />);
    expect(unit('seconds')).toBe('03');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId('sale-countdown')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
  });

  it('is not shown once the sale has ended, nor for an unreadable date', () => {
    const { rerender } = render(<SaleCountdown title="Black Friday Sale" endsAt="2025-11-01T00:00:00" />);
    expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
    rerender(<SaleCountdown title="Black Friday Sale" endsAt="not a date" />);
    expect(screen.queryByTestId('sale-countdown')).not.toBeInTheDocument();
  });
});
