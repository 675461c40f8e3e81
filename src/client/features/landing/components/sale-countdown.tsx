import { useSyncExternalStore } from 'react';
import { COUNTDOWN_TICK_MS, countdownParts } from '@shared/timing';

export const OFFER_BAR_CLASS =
  'flex h-10 items-center justify-center bg-gradient-to-r from-emerald-800 via-emerald-600 to-emerald-800 px-3';

const pad = (value: number) => String(value).padStart(2, '0');

function parseEnd(endsAt: string): Date | null {
  const date = new Date(endsAt);
  return Number.isNaN(date.getTime()) ? null : date;
}

// The clock, read once a second. Stable within a second, as useSyncExternalStore needs.
const tick = (onTick: () => void) => {
  const timer = window.setInterval(onTick, COUNTDOWN_TICK_MS);
  return () => window.clearInterval(timer);
};
const currentSecond = () => Math.floor(Date.now() / 1000) * 1000;
// The pre-rendered page (and its hydration) has no clock: the digits appear once hydrated.
const noClock = () => null;

const UNITS = [
  { key: 'days', short: 'd' },
  { key: 'hours', short: 'h' },
  { key: 'minutes', short: 'm' },
  { key: 'seconds', short: 's' },
] as const;

/**
 * The sale bar ('Black Friday Sale ends in …'): ticks every second until `endsAt`; gone once the
 * sale has ended. Before hydration its units hold invisible zeros, so the digits take the room they
 * will use (no layout shift) and no time is shown that is not the visitor's.
 */
export function SaleCountdown({ endsAt, title }: { endsAt: string; title: string }) {
  const end = parseEnd(endsAt);
  const now = useSyncExternalStore(tick, currentSecond, noClock);
  const parts = end && now !== null ? countdownParts(end, new Date(now)) : null;
  if (!end || parts?.ended) return null;
  return (
    <div className={`${OFFER_BAR_CLASS} gap-2 text-xs sm:gap-3 sm:text-sm`} data-testid="sale-countdown">
      <span className="font-semibold text-white">
        <span className="hidden sm:inline">{title} </span>
        <span className="sm:hidden">Sale </span>ends in
      </span>
      <span
        className={`flex items-center gap-1 font-mono tabular-nums${parts ? '' : ' invisible'}`}
        {...(parts ? { role: 'timer', 'aria-label': `${parts.days} days ${parts.hours} hours ${parts.minutes} minutes ${parts.seconds} seconds left` } : { 'aria-hidden': true })}
      >
        {UNITS.map((unit) => (
          <span key={unit.key} className="rounded bg-black/35 px-1.5 py-0.5 font-semibold text-white" data-unit={unit.key}>
            {parts ? (unit.key === 'days' ? parts.days : pad(parts[unit.key])) : unit.key === 'days' ? '0' : '00'}
            <span className="ml-0.5 text-[10px] font-normal text-white/70">{unit.short}</span>
          </span>
        ))}
      </span>
    </div>
  );
}
