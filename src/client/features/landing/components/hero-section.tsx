import { saleBanner } from '@shared/campaign';
import { useSiteSettings } from '@client/lib/site-settings';
import { useSale } from '@client/lib/use-sale';
import { ArrowRightIcon, SparkIcon } from './icons';
import { SECTION_IDS, useGoToSection } from '../scroll';
import { useLandingVariant } from '../landing-variant';
import { FLOATING_ASSETS } from './asset-icons';
import { ChartFrame } from './chart-frame';
import { Stars } from './stars';
import { StaticHtml } from '@client/lib/kept-html';

// The hero's texts, verbatim as the product words them; the sale banner comes from the campaign (campaign.ts).
export const HERO = {
  headline: 'Boost Your Trading with Next-Gen Indicators',
  tagline: 'Unlock powerful indicators for smarter, faster, more precise trades.',
  cta: 'Start Risk-Free Today',
  rating: 4.3,
} as const;

// Transform-only motion never moves layout (no CLS). Inline, so the page waits for no extra stylesheet.
const FLOAT_CSS = `@keyframes landing-float{0%,100%{transform:translateY(0)}50%{transform:translateY(-12px)}}
.landing-float{animation:landing-float 6s ease-in-out infinite}
@media (prefers-reduced-motion:reduce){.landing-float{animation:none}}`;

export function HeroSection() {
  const goToSection = useGoToSection();
  const settings = useSiteSettings();
  const { running } = useSale();
  // the default page's sale is not a vendor's own price list's: its page has no sale banner
  const banner = useLandingVariant().ownList ? null : saleBanner(settings, running);
  return (
    <section className="relative overflow-hidden" aria-labelledby="hero-heading">
      <style>{FLOAT_CSS}</style>
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(34,197,94,0.18),transparent_60%)]" />

      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 pb-14 pt-12 sm:px-6 md:pt-20 lg:grid-cols-[1.05fr_1fr] lg:pb-16">
        <div className="text-center lg:text-left">
          {banner ? (
            <p className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 text-sm font-semibold text-primary">
              <SparkIcon className="h-4 w-4" />
              {banner}
            </p>
          ) : null}
          <h1 id="hero-heading" className={`${banner ? 'mt-5 ' : ''}text-4xl font-extrabold leading-[1.1] tracking-tight text-white sm:text-5xl lg:text-6xl`}>
            {HERO.headline.replace('Next-Gen Indicators', '')}
            <span className="bg-gradient-to-r from-primary to-emerald-300 bg-clip-text text-transparent">
              <span className="whitespace-nowrap">Next-Gen</span> Indicators
            </span>
          </h1>
          <p className="mx-auto mt-5 max-w-xl text-lg text-foreground/75 lg:mx-0">{HERO.tagline}</p>
          <div className="mt-8 flex flex-col items-center gap-4 sm:flex-row sm:justify-center lg:justify-start">
            <button
              type="button"
              onClick={() => goToSection(SECTION_IDS.prices)}
              className="inline-flex h-12 items-center justify-center gap-2 rounded-xl bg-primary px-7 text-base font-semibold text-primary-foreground shadow-[0_10px_30px_-10px_rgba(34,197,94,0.7)] transition hover:bg-primary/90"
            >
              {HERO.cta}
              <ArrowRightIcon className="h-4 w-4" />
            </button>
            <div className="flex items-center gap-2 text-sm text-foreground/80" aria-label={`Rated ${HERO.rating} out of 5`}>
              <Stars rating={HERO.rating} />
              <span>
                <strong className="text-white">{HERO.rating}/5</strong> rating
              </span>
            </div>
          </div>
        </div>

        <div className="relative mx-auto w-full max-w-xl lg:max-w-none">
          <div aria-hidden="true" className="absolute -inset-4 rounded-3xl bg-primary/10 blur-2xl" />
          <div className="relative overflow-hidden rounded-2xl border border-white/10 bg-card shadow-2xl">
            <div className="flex h-9 items-center gap-1.5 border-b border-white/5 px-4">
              <span className="h-2.5 w-2.5 rounded-full bg-red-500/70" />
              <span className="h-2.5 w-2.5 rounded-full bg-yellow-500/70" />
              <span className="h-2.5 w-2.5 rounded-full bg-green-500/70" />
              <span className="ml-3 text-xs text-muted">BTCUSD · 1H</span>
            </div>
            <ChartFrame kind="hero" title="Candlestick chart with the indicators drawn on it" eager prerendered />
          </div>
          <StaticHtml aria-hidden="true" className="pointer-events-none absolute inset-0 z-10">
            {FLOATING_ASSETS.map(({ name, Icon, className, delay }) => (
              <span key={name} className={`landing-float absolute drop-shadow-[0_8px_20px_rgba(0,0,0,0.5)] ${className}`} style={{ animationDelay: delay }} title={name}>
                <Icon />
              </span>
            ))}
          </StaticHtml>
        </div>
      </div>
    </section>
  );
}
