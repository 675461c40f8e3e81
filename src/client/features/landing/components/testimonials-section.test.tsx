import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestimonialsSection } from './testimonials-section';

// jsdom has no layout, so one card is "visible" at a time: six positions.
const currentDot = () => screen.getAllByRole('button', { name: /^Show testimonials/ }).findIndex((dot) => dot.getAttribute('aria-current') === 'true');

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TestimonialsSection', () => {
  it('shows six five-star testimonials from verified users', () => {
    render(<TestimonialsSection />);
    expect(screen.getAllByText('Verified User')).toHaveLength(6);
    expect(screen.getAllByRole('img', { name: '5 out of 5 stars', hidden: true })).toHaveLength(6);
  });

  it('advances every 3 s and loops back to the start', () => {
    render(<TestimonialsSection />);
    expect(currentDot()).toBe(0);
    act(() => vi.advanceTimersByTime(2999));
    expect(currentDot()).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(currentDot()).toBe(1);
    for (let step = 0; step < 5; step++) act(() => vi.advanceTimersByTime(3000));
    expect(currentDot()).toBe(0);
  });

  it('waits 8 s after a manual move before advancing again', () => {
    render(<TestimonialsSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Next testimonials' }));
    expect(currentDot()).toBe(1);
    act(() => vi.advanceTimersByTime(7999));
    expect(currentDot()).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(currentDot()).toBe(2);
    act(() => vi.advanceTimersByTime(3000));
    expect(currentDot()).toBe(3);
    fireEvent.click(screen.getByRole('button', { name: 'Previous testimonials' }));
    expect(currentDot()).toBe(2);
    act(() => vi.advanceTimersByTime(5000));
    expect(currentDot()).toBe(2);
  });
});
