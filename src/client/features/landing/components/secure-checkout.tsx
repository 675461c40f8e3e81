import { CardIcon, LockIcon, RenewIcon, ShieldCheckIcon, BoltIcon } from './icons';

const POINTS = [
  { Icon: LockIcon, title: 'Encrypted payment', text: 'Card details go straight to our payment provider over TLS. We never see or store your card number.' },
  { Icon: BoltIcon, title: 'Access in minutes', text: 'Set your password and TradingView username after checkout; the indicators are granted automatically.' },
  { Icon: RenewIcon, title: 'Cancel any time', text: 'No contracts and no cancellation fee. You keep access until the end of the period you paid for.' },
];

import { StaticHtml } from '@client/lib/kept-html';

const CARDS = ['Visa', 'Mastercard', 'Amex', 'Apple Pay', 'Google Pay'];

/** The secure-checkout block under the pricing cards: static, kept as the server rendered it. */
export function SecureCheckout() {
  return (
    <StaticHtml as="section" aria-labelledby="secure-heading" className="px-4 pb-14 sm:px-6 md:pb-20">
      <div className="mx-auto max-w-5xl rounded-3xl border border-white/10 bg-gradient-to-br from-card to-background p-6 md:p-10">
        <div className="flex flex-col items-center gap-3 text-center">
          <span className="grid h-12 w-12 place-items-center rounded-2xl bg-primary/15 text-primary">
            <ShieldCheckIcon className="h-6 w-6" />
          </span>
          <h2 id="secure-heading" className="text-2xl font-bold text-white md:text-3xl">
            Secure Checkout
          </h2>
          <p className="max-w-xl text-foreground/70">Pay with confidence. Checkout is hosted by a PCI-DSS compliant card processor.</p>
        </div>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {POINTS.map(({ Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-white/5 bg-white/[0.02] p-5">
              <Icon className="h-5 w-5 text-primary" />
              <h3 className="mt-3 font-semibold text-white">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-foreground/70">{text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-2" aria-label="Accepted payment methods">
          <CardIcon className="mr-1 h-4 w-4 text-muted" />
          {CARDS.map((card) => (
            <span key={card} className="rounded-md border border-white/10 bg-white/5 px-2.5 py-1 text-xs font-semibold text-foreground/80">
              {card}
            </span>
          ))}
        </div>
      </div>
    </StaticHtml>
  );
}
