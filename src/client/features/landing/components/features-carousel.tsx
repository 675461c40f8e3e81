import { useCallback, useEffect, useRef, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import {
  CAROUSEL_CARD_WIDTH_PX,
  CAROUSEL_GAP_PX,
  CAROUSEL_RESUME_MS,
  CAROUSEL_SPEED_PX_PER_FRAME,
  wrapCarouselOffset,
} from '@shared/timing';
import { CAROUSEL_CARDS, CAROUSEL_TITLE, type CarouselCard } from '../content';
import { DESKTOP_QUERY, REDUCED_MOTION_QUERY, useMediaQuery } from '@client/lib/use-media-query';
import { ChartFrame, useNearViewport } from './chart-frame';

type Motion = {
  offset: number;
  dragging: boolean;
  startX: number;
  startOffset: number;
  /** performance.now() before which auto-scroll waits (1 s after the last interaction). */
  resumeAt: number;
  visible: boolean;
  frame: number;
};

function FeatureCard({ card, width, chartsReady }: { card: CarouselCard; width: number; chartsReady: boolean }) {
  return (
    <article className="flex-none overflow-hidden rounded-2xl border border-white/10 bg-card shadow-lg" style={{ width }}>
      <ChartFrame kind={card.kind} title={`${card.title} example`} fallback="Image unavailable" revealed={chartsReady} />
      <div className="p-5">
        <h3 className="text-lg font-semibold text-white">{card.title}</h3>
        <p className="mt-2 text-sm leading-relaxed text-foreground/70">{card.text}</p>
      </div>
    </article>
  );
}

/**
 * 'Advanced Trading Features': scrolls itself 1.8 px per frame, loops without a
 * seam (the cards are rendered twice and the offset wraps by one set's width), can be dragged with
 * mouse, pen or touch, and resumes 1 s after the last interaction. Motion is written straight to
 * the track's transform, so scrolling costs no React renders.
 */
export function FeaturesCarousel() {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const size = desktop ? 'desktop' : 'mobile';
  const cardWidth = CAROUSEL_CARD_WIDTH_PX[size];
  const gap = CAROUSEL_GAP_PX[size];
  const step = cardWidth + gap;
  const loopWidth = CAROUSEL_CARDS.length * step;

  const { ref: sectionRef, near } = useNearViewport<HTMLElement>();
  const trackRef = useRef<HTMLDivElement>(null);
  const motion = useRef<Motion>({ offset: 0, dragging: false, startX: 0, startOffset: 0, resumeAt: 0, visible: false, frame: 0 });

  const apply = useCallback(() => {
    const track = trackRef.current;
    if (track) track.style.transform = `translate3d(${-motion.current.offset}px, 0, 0)`;
  }, []);

  const moveTo = useCallback(
    (offset: number) => {
      motion.current.offset = wrapCarouselOffset(offset, loopWidth);
      apply();
    },
    [apply, loopWidth],
  );

  const pause = () => {
    motion.current.resumeAt = performance.now() + CAROUSEL_RESUME_MS;
  };

  // The animation loop runs only while the carousel is on screen and motion is welcome.
  useEffect(() => {
    const state = motion.current;
    moveTo(state.offset);
    if (reducedMotion) return;
    const tick = () => {
      state.frame = 0;
      if (!state.visible) return;
      if (!state.dragging && performance.now() >= state.resumeAt) moveTo(state.offset + CAROUSEL_SPEED_PX_PER_FRAME);
      state.frame = requestAnimationFrame(tick);
    };
    const start = () => {
      if (state.frame === 0) state.frame = requestAnimationFrame(tick);
    };
    const viewport = sectionRef.current;
    let observer: IntersectionObserver | null = null;
    if (viewport && typeof IntersectionObserver !== 'undefined') {
      observer = new IntersectionObserver((entries) => {
        state.visible = entries.some((entry) => entry.isIntersecting);
        if (state.visible) start();
      });
      observer.observe(viewport);
    } else {
      state.visible = true;
      start();
    }
    return () => {
      observer?.disconnect();
      cancelAnimationFrame(state.frame);
      state.frame = 0;
    };
  }, [moveTo, reducedMotion, sectionRef]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const state = motion.current;
    state.dragging = true;
    state.startX = event.clientX;
    state.startOffset = state.offset;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const state = motion.current;
    if (!state.dragging) return;
    moveTo(state.startOffset - (event.clientX - state.startX));
  };
  const endDrag = () => {
    if (!motion.current.dragging) return;
    motion.current.dragging = false;
    pause();
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    // Horizontal trackpad swipes move the carousel; vertical wheel keeps scrolling the page.
    if (Math.abs(event.deltaX) <= Math.abs(event.deltaY)) return;
    pause();
    moveTo(motion.current.offset + event.deltaX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    pause();
    const current = Math.round(motion.current.offset / step);
    moveTo((current + (event.key === 'ArrowRight' ? 1 : -1)) * step);
  };

  return (
    <section ref={sectionRef} aria-labelledby="carousel-heading" className="py-14 md:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <h2 id="carousel-heading" className="text-center text-3xl font-bold tracking-tight text-white md:text-4xl">
          {CAROUSEL_TITLE}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-foreground/70">
          Ten professional tools in one subscription. Drag to explore, or use the arrow keys.
        </p>
      </div>
      <div
        className="relative mt-10 cursor-grab touch-pan-y select-none overflow-hidden outline-none active:cursor-grabbing focus-visible:ring-2 focus-visible:ring-primary/60 [mask-image:linear-gradient(to_right,transparent,black_4%,black_96%,transparent)]"
        data-testid="features-carousel"
        role="region"
        aria-roledescription="carousel"
        aria-label={CAROUSEL_TITLE}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onLostPointerCapture={endDrag}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
        onFocus={pause}
      >
        <div ref={trackRef} className="flex w-max will-change-transform" style={{ gap }} data-testid="carousel-track">
          {[0, 1].map((copy) =>
            CAROUSEL_CARDS.map((card) =>
              copy === 0 ? (
                <FeatureCard key={card.title} card={card} width={cardWidth} chartsReady={near} />
              ) : (
                // The second set only closes the loop; assistive technology reads each card once.
                <div key={`${card.title}-copy`} aria-hidden="true" inert className="flex-none">
                  <FeatureCard card={card} width={cardWidth} chartsReady={near} />
                </div>
              ),
            ),
          )}
        </div>
      </div>
    </section>
  );
}
