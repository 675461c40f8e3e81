import { whenIdle } from '@client/lib/when-idle';
import { cx } from './page-kit';
import { Component, startTransition, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { KeptHtml } from '@client/lib/kept-html';
import { lazyPart } from '@client/lib/lazy-part';
import type { IndicatorKind } from '../charts/indicator-chart';

// The charts (and their sample price data) are their own chunk, fetched after the page's text.
const IndicatorChart = lazyPart(() => import('../charts/indicator-chart').then((module) => module.IndicatorChart));

/** Loads the charts' code, for the server's renderer, which draws the pre-rendered charts into the page. */
export const preloadCharts = IndicatorChart.preload;

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
export function useNearViewport<T extends HTMLElement = HTMLDivElement>(eager = false, watch = true) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !watch) return;
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
  }, [near, eager, watch]);
  return { ref, near };
}

/**
 * The chart drawn in the browser once it nears the viewport (or right after the first paint when
 * `eager`), or once `revealed` when the parent decides: the carousel's twenty cards watch one
 * section instead of twenty observers of their own.
 */
function LiveChart({ kind, title, fallback, eager, revealed }: { kind: IndicatorKind; title: string; fallback: FallbackText; eager: boolean; revealed?: boolean }) {
  const { ref, near } = useNearViewport<HTMLDivElement>(eager, revealed === undefined);
  return (
    <div ref={ref} className="absolute inset-0">
      {(revealed ?? near) ? (
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

/**
 * A chart visual in a box of fixed aspect ratio (no layout shift while it loads). If the chart
 * cannot be drawn (its chunk failed to load, or drawing threw) the box shows `fallback` instead.
 * A `prerendered` chart is drawn by the server into the page's HTML and kept by the browser as
 * it is: it never computes a chart the page already shows.
 */
export function ChartFrame({
  kind,
  title,
  className,
  aspect = 'aspect-[16/9]',
  fallback = 'Chart Preview',
  eager = false,
  revealed,
  prerendered = false,
}: {
  kind: IndicatorKind;
  title: string;
  className?: string;
  aspect?: string;
  fallback?: FallbackText;
  eager?: boolean;
  revealed?: boolean;
  prerendered?: boolean;
}) {
  const live = <LiveChart kind={kind} title={title} fallback={fallback} eager={eager} revealed={revealed} />;
  return (
    <div className={cx('relative overflow-hidden', aspect, className)}>
      {prerendered ? (
        <KeptHtml className="absolute inset-0" server={() => <IndicatorChart kind={kind} title={title} className="h-full w-full" />} client={live} />
      ) : (
        live
      )}
    </div>
  );
}
