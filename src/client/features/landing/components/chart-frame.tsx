import { whenIdle } from '../after-paint';
import { cx } from './page-kit';
import { Component, lazy, startTransition, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { IndicatorKind } from '../charts/indicator-chart';

// The charts (and their sample price data) are their own chunk, fetched after the page's text.
const IndicatorChart = lazy(() => import('../charts/indicator-chart').then((module) => ({ default: module.IndicatorChart })));

type FallbackText = 'Image unavailable' | 'Chart Preview';

class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  // React offers error boundaries only as classes.
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** While loading: an empty panel. After a failure: the spec's text in its place. */
function Placeholder({ text }: { text?: FallbackText }) {
  return (
    <div className="absolute inset-0 grid place-items-center bg-gradient-to-br from-white/[0.05] to-white/[0.01]">
      {text ? <span className="text-xs font-medium uppercase tracking-wider text-muted">{text}</span> : null}
    </div>
  );
}

/**
 * True once the element is near the viewport (or, when `eager`, right after the first paint).
 * Charts start loading only then: below the fold they cost nothing up front, and even the hero's
 * chart never delays the first paint of the text (the page's largest contentful paint).
 */
export function useNearViewport<T extends HTMLElement = HTMLDivElement>(eager = false) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    // drawing a chart is work nobody waits for: in a transition, so React renders it in slices
    const reveal = () => startTransition(() => setNear(true));
    if (eager) return whenIdle(reveal);
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      reveal();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) reveal();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, eager]);
  return { ref, near };
}

/**
 * A chart visual in a box of fixed aspect ratio (no layout shift while it loads). If the chart
 * cannot be drawn (its chunk failed to load, or drawing threw) the box shows `fallback` instead.
 */
export function ChartFrame({
  kind,
  title,
  className,
  aspect = 'aspect-[16/9]',
  fallback = 'Chart Preview',
  eager = false,
}: {
  kind: IndicatorKind;
  title: string;
  className?: string;
  aspect?: string;
  fallback?: FallbackText;
  eager?: boolean;
}) {
  const { ref, near } = useNearViewport<HTMLDivElement>(eager);
  return (
    <div ref={ref} className={cx('relative overflow-hidden', aspect, className)}>
      {near ? (
        <ChartBoundary fallback={<Placeholder text={fallback} />}>
          <Suspense fallback={<Placeholder />}>
            <IndicatorChart kind={kind} title={title} className="absolute inset-0 h-full w-full" />
          </Suspense>
        </ChartBoundary>
      ) : (
        <Placeholder />
      )}
    </div>
  );
}
