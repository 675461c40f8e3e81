import { ChevronLeftIcon, ChevronRightIcon, VerifiedIcon } from './icons';
import { useEffect, useRef, useState } from 'react';
import { TESTIMONIAL_ADVANCE_MS, TESTIMONIAL_PAUSE_AFTER_INTERACTION_MS, TESTIMONIALS_VISIBLE_WIDE } from '@shared/timing';
import { TESTIMONIALS } from '../content';
import { SECTION_IDS } from '../scroll';
import { DESKTOP_QUERY, useMediaQuery, WIDE_QUERY } from '@client/lib/use-media-query';
import { useOnScreen } from '@client/lib/use-on-screen';
import { Stars } from './stars';
import { StaticHtml } from '@client/lib/kept-html';

/**
 * Testimonials carousel: advances every 3 s while on screen, waits 8 s after a manual
 * move, 3 cards on wide screens.
 */
export function TestimonialsSection() {
  const wide = useMediaQuery(WIDE_QUERY);
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const visible = wide ? TESTIMONIALS_VISIBLE_WIDE : desktop ? 2 : 1;
  const positions = TESTIMONIALS.length - visible + 1;
  const [index, setIndex] = useState(0);
  const [pausedUntil, setPausedUntil] = useState(0);
  const touchStart = useRef<number | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const onScreen = useOnScreen(sectionRef);
  const current = Math.min(index, positions - 1);

  useEffect(() => {
    if (!onScreen) return;
    const wait = Math.max(TESTIMONIAL_ADVANCE_MS, pausedUntil - Date.now());
    const timer = window.setTimeout(() => setIndex((value) => (Math.min(value, positions - 1) + 1) % positions), wait);
    return () => window.clearTimeout(timer);
  }, [current, pausedUntil, positions, onScreen]);

  const goTo = (next: number) => {
    setPausedUntil(Date.now() + TESTIMONIAL_PAUSE_AFTER_INTERACTION_MS);
    setIndex(((next % positions) + positions) % positions);
  };

  return (
    <section ref={sectionRef} id={SECTION_IDS.testimonials} aria-labelledby="testimonials-heading" className="scroll-mt-28 bg-gradient-to-b from-transparent via-white/[0.02] to-transparent py-14 md:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <h2 id="testimonials-heading" className="text-center text-3xl font-bold tracking-tight text-white md:text-4xl">
          What Traders Say
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-foreground/70">Members on how the indicators fit into their trading.</p>

        <div
          className="mt-10 overflow-hidden"
          role="region"
          aria-roledescription="carousel"
          aria-label="Testimonials"
          onTouchStart={(event) => {
            touchStart.current = event.touches[0]?.clientX ?? null;
          }}
          onTouchEnd={(event) => {
            const start = touchStart.current;
            const end = event.changedTouches[0]?.clientX;
            touchStart.current = null;
            if (start === null || end === undefined || Math.abs(end - start) < 40) return;
            goTo(current + (end < start ? 1 : -1));
          }}
        >
          <ul
            className="flex transition-transform duration-500 ease-out motion-reduce:transition-none"
            style={{ transform: `translateX(-${(current * 100) / visible}%)` }}
            data-testid="testimonials-track"
          >
            {TESTIMONIALS.map((testimonial, position) => {
              const shown = position >= current && position < current + visible;
              return (
                <li key={testimonial.name} className="flex-none px-2 md:px-3" style={{ width: `${100 / visible}%` }} aria-hidden={!shown} inert={!shown}>
                  <StaticHtml as="figure" className="flex h-full flex-col rounded-2xl border border-white/10 bg-card p-6">
                    <div aria-label={`${testimonial.rating} out of 5 stars`} role="img">
                      <Stars rating={testimonial.rating} />
                    </div>
                    <blockquote className="mt-4 flex-1 text-[15px] leading-relaxed text-foreground/85">“{testimonial.text}”</blockquote>
                    <figcaption className="mt-6 flex items-center gap-3">
                      <span aria-hidden="true" className="grid h-10 w-10 place-items-center rounded-full bg-primary/15 text-sm font-bold text-primary">
                        {testimonial.name.charAt(0)}
                      </span>
                      <span>
                        <span className="block font-semibold text-white">{testimonial.name}</span>
                        <span className="inline-flex items-center gap-1 text-xs text-primary">
                          <VerifiedIcon className="h-3.5 w-3.5" />
                          Verified User
                        </span>
                      </span>
                    </figcaption>
                  </StaticHtml>
                </li>
              );
            })}
          </ul>
        </div>

        <div className="mt-8 flex items-center justify-center gap-4">
          <button type="button" onClick={() => goTo(current - 1)} aria-label="Previous testimonials" className="grid h-10 w-10 place-items-center rounded-full border border-white/10 text-white hover:bg-white/10">
            <ChevronLeftIcon className="h-5 w-5" />
          </button>
          <div className="flex">
            {Array.from({ length: positions }, (_, position) => (
              // a 24 px touch target around the small dot
              <button
                key={position}
                type="button"
                onClick={() => goTo(position)}
                aria-label={`Show testimonials ${position + 1} to ${position + visible}`}
                aria-current={position === current}
                className="group grid h-6 min-w-6 place-items-center px-1"
              >
                <span className={`block h-2.5 rounded-full transition-all ${position === current ? 'w-6 bg-primary' : 'w-2.5 bg-white/25 group-hover:bg-white/40'}`} />
              </button>
            ))}
          </div>
          <button type="button" onClick={() => goTo(current + 1)} aria-label="Next testimonials" className="grid h-10 w-10 place-items-center rounded-full border border-white/10 text-white hover:bg-white/10">
            <ChevronRightIcon className="h-5 w-5" />
          </button>
        </div>
      </div>
    </section>
  );
}
