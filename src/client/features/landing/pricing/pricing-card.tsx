import { CheckIcon } from '../components/icons';
import { cx } from '../components/page-kit';
import type { PricingCard as Card } from '@shared/plans';
import type { PricingCardButton } from '@shared/pricing-state';

/** One plan card: name, sale label, price with the original crossed out, savings, features and the button. */
export function PricingCard({ card, button, onSelect, trial, billed }: { card: Card; button: PricingCardButton; onSelect: () => void; trial?: string | null; billed?: string | undefined }) {
  const highlighted = card.isPopular && !button.showCurrentBadge;
  return (
    <article
      aria-labelledby={`plan-${card.planType}`}
      className={cx(
        'relative flex flex-col rounded-2xl border bg-card p-6 md:p-8',
        highlighted ? 'border-primary/60 shadow-[0_0_0_1px_rgba(34,197,94,0.35),0_20px_60px_-20px_rgba(34,197,94,0.45)] md:-my-3 md:py-11' : 'border-white/10',
        button.showCurrentBadge && 'border-green-500/70',
      )}
    >
      {button.showCurrentBadge ? (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-green-500 px-3 py-1 text-xs font-bold text-black" data-testid="current-plan-badge">
          Current Plan
        </span>
      ) : card.isPopular ? (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-bold text-primary-foreground">Most Popular</span>
      ) : null}

      <div className="flex items-center justify-between gap-2">
        <h3 id={`plan-${card.planType}`} className="text-xl font-semibold text-white">
          {card.name}
        </h3>
        {card.label ? <span className="rounded-full bg-yellow-400/15 px-2.5 py-0.5 text-xs font-semibold text-yellow-300">{card.label}</span> : null}
      </div>

      <div className="mt-6 flex flex-wrap items-end gap-x-2 gap-y-1">
        {card.originalPrice ? (
          <span className="text-lg text-muted line-through" aria-label={`was ${card.originalPrice}`}>
            {card.originalPrice}
          </span>
        ) : null}
        <span className="text-5xl font-extrabold tracking-tight text-white tabular-nums">{card.price}</span>
        <span className="pb-1.5 text-sm text-muted">{card.period}</span>
      </div>
      {billed ? (
        <p className="mt-1 text-sm text-muted" data-testid={`billed-${card.planType}`}>
          {billed}
        </p>
      ) : null}
      {trial ? (
        <p className="mt-2 text-sm font-semibold text-primary" data-testid={`trial-offer-${card.planType}`}>
          {trial}
        </p>
      ) : null}
      <div className="mt-3 h-6">
        {card.savings ? <span className="inline-flex rounded-full bg-primary/15 px-2.5 py-0.5 text-xs font-bold text-primary">{card.savings}</span> : null}
      </div>

      <ul className="mt-6 flex-1 space-y-3" aria-label={`${card.name} plan includes`}>
        {card.features.map((feature) => (
          <li key={feature} className="flex items-center gap-3 text-sm text-foreground/85">
            <CheckIcon className="h-4 w-4 flex-none text-primary" />
            {feature}
          </li>
        ))}
      </ul>

      <button
        type="button"
        disabled={button.disabled}
        onClick={onSelect}
        aria-describedby={`plan-${card.planType}`}
        className={cx(
          'mt-8 inline-flex h-12 w-full items-center justify-center rounded-xl text-base font-semibold transition disabled:cursor-not-allowed',
          button.variant === 'current' || button.variant === 'lifetime'
            ? 'bg-green-500/15 text-green-400'
            : highlighted
              ? 'bg-primary text-primary-foreground hover:bg-primary/90 disabled:opacity-60'
              : 'bg-white/10 text-white hover:bg-white/15 disabled:opacity-60',
        )}
      >
        {button.label}
      </button>
    </article>
  );
}
