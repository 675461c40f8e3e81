import { CheckIcon } from './icons';
import { cx } from './page-kit';
import { FEATURE_BLOCKS } from '../content';
import { SECTION_IDS, useGoToSection } from '../scroll';
import { ChartFrame } from './chart-frame';
import { StaticHtml } from '@client/lib/kept-html';

/** The three feature blocks, alternating text and chart, each with 'Unlock Access'. */
export function FeatureBlocks() {
  // The prices render a few frames after these blocks: a click before then goes to #prices, and
  // the page scrolls there once they are in.
  const goToSection = useGoToSection();
  return (
    <section id={SECTION_IDS.features} aria-label="Features" className="mx-auto max-w-7xl scroll-mt-28 space-y-16 px-4 py-14 sm:px-6 md:space-y-24 md:py-20">
      {FEATURE_BLOCKS.map((block, index) => (
        <article key={block.title} className="grid items-center gap-10 md:grid-cols-2 md:gap-16">
          <div className={cx(index % 2 === 1 && 'md:order-2')}>
            <h2 className="text-3xl font-bold tracking-tight text-white md:text-4xl">{block.title}</h2>
            <p className="mt-4 text-base leading-relaxed text-foreground/75 md:text-lg">{block.text}</p>
            <StaticHtml as="ul" className="mt-6 space-y-3">
              {block.points.map((point) => (
                <li key={point} className="flex gap-3 text-sm text-foreground/85 md:text-base">
                  <CheckIcon className="mt-0.5 h-5 w-5 flex-none text-primary" />
                  {point}
                </li>
              ))}
            </StaticHtml>
            <button
              type="button"
              onClick={() => goToSection(SECTION_IDS.prices)}
              className="mt-8 inline-flex h-11 items-center justify-center rounded-xl bg-primary px-6 text-sm font-semibold text-primary-foreground transition hover:bg-primary/90"
            >
              Unlock Access
            </button>
          </div>
          <div className="overflow-hidden rounded-2xl border border-white/10 bg-card shadow-xl">
            <ChartFrame kind={block.kind} title={`${block.title} on a price chart`} fallback="Chart Preview" prerendered />
          </div>
        </article>
      ))}
    </section>
  );
}
