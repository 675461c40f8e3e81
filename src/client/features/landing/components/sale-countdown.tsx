import { useEffect, useState } from 'react';
import { COUNTDOWN_TICK_MS, countdownParts } from '@shared/timing';

export const OFFER_BAR_CLASS =
  'flex h-10 items-center justify-center bg-gradient-to-r from-emerald-800 via-emerald-600 to-emerald-800 px-3';

const pad = (value: number) => String(value).padStart(2, '0');

function parseEnd(endsAt: string): Date | null {
  const date = new Date(endsAt);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The sale bar ('Black Friday Sale ends in …'): ticks every second until `endsAt`; gone once the sale has ended. */
export function SaleCountdown({ endsAt, title }: { endsAt: string; title: string }) {
  const end = parseEnd(endsAt);
  const [now, setNow] = useState(() => new Date());
  const parts = end ? countdownParts(end, now) : null;
  const ended = parts === null || parts.ended;

  useEffect(() => {
    if (ended) return;
    const timer = window.setInterval(() => setNow(new Date()), COUNTDOWN_TICK_MS);
    return () => window.clearInterval(timer);
  }, [ended]);

  if (!parts || ended) return null;
  const units = [
    { value: parts.days, label: 'days', short: 'd' },
    { value: parts.hours, label: 'hours', short: 'h' },
    { value: parts.minutes, label: 'minutes', short: 'm' },
    { value: parts.seconds, label: 'seconds', short: 's' },
  ];
  return (
    <div className={`${OFFER_BAR_CLASS} gap-2 text-xs sm:gap-3 sm:text-sm`} data-testid="sale-countdown">
      <span className="font-semibold text-white">
        <span className="hidden sm:inline">{title} </span>
        <span className="sm:hidden">Sale </span>ends in
      </span>
      <span className="flex items-center gap-1 font-mono tabular-nums" role="timer" aria-label={`${parts.days} days ${parts.hours} hours ${parts.minutes} minutes ${parts.seconds} seconds left`}>
        {units.map((unit) => (
          <span key={unit.label} className="rounded bg-black/35 px-1.5 py-0.5 font-semibold text-white" data-unit={unit.label}>
            {unit.label === 'days' ? unit.value : pad(unit.value)}
            <span className="ml-0.5 text-[10px] font-normal text-white/70">{unit.short}</span>
          </span>
        ))}
      </span>
    </div>
  );
}
