import { useEffect, useRef } from 'react';

/** Where reading happens: a section is being read once its top has passed this far down the window. */
export const READING_LINE = 0.3;

/**
 * The section being read: the last whose top is above the reading line; the first while none is;
 * the last once the page is scrolled to its end (a short last section never reaches the line).
 */
export function sectionBeingRead(tops: readonly number[], readingLine: number, atEnd: boolean): number {
  if (tops.length === 0) return -1;
  if (atEnd) return tops.length - 1;
  let reading = 0;
  tops.forEach((top, index) => {
    if (top <= readingLine) reading = index;
  });
  return reading;
}

/**
 * Follows the section being read as the member scrolls (the guides' table of contents). A jump
 * from the table (`jumpingTo`) is not overruled while its smooth scroll runs: the spy waits until
 * the member scrolls by hand again (wheel, touch, keys).
 */
export function useSectionSpy(elementIds: readonly string[], onReading: (index: number) => void) {
  const jumping = useRef(false);
  const report = useRef(onReading);
  useEffect(() => {
    report.current = onReading;
  });

  useEffect(() => {
    if (elementIds.length === 0) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      if (jumping.current) return;
      const tops = elementIds.map((id) => document.getElementById(id)?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY);
      const root = document.documentElement;
      const atEnd = window.scrollY > 0 && window.scrollY + window.innerHeight >= root.scrollHeight - 2;
      const index = sectionBeingRead(tops, window.innerHeight * READING_LINE, atEnd);
      if (index >= 0) report.current(index);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(measure);
    };
    const byHand = () => {
      jumping.current = false;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    for (const type of ['wheel', 'touchstart', 'keydown'] as const) window.addEventListener(type, byHand, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      for (const type of ['wheel', 'touchstart', 'keydown'] as const) window.removeEventListener(type, byHand);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [elementIds]);

  return {
    /** A jump from the table of contents: the spy stays quiet until the member scrolls by hand. */
    jumpStarted: () => {
      jumping.current = true;
    },
  };
}
