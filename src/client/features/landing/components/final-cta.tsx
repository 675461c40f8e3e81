import { ArrowRightIcon } from './icons';
import { scrollToSection, SECTION_IDS } from '../scroll';

export function FinalCta() {
  return (
    <section aria-labelledby="cta-heading" className="px-4 pb-20 sm:px-6 md:pb-28">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl border border-primary/30 bg-gradient-to-br from-emerald-900/60 via-card to-background px-6 py-14 text-center md:px-12">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_50%_0%,rgba(34,197,94,0.25),transparent_60%)]" />
        <h2 id="cta-heading" className="relative text-3xl font-bold tracking-tight text-white md:text-4xl">
          Trade with more clarity, starting today
        </h2>
        <p className="relative mx-auto mt-4 max-w-xl text-foreground/75">
          Join traders who use our indicators every session. Set up in minutes, cancel any time.
        </p>
        <button
          type="button"
          onClick={() => scrollToSection(SECTION_IDS.prices)}
          className="relative mt-8 inline-flex h-12 items-center justify-center gap-2 rounded-xl bg-primary px-7 text-base font-semibold text-primary-foreground transition hover:bg-primary/90"
        >
          Get Started Now
          <ArrowRightIcon className="h-4 w-4" />
        </button>
      </div>
    </section>
  );
}
