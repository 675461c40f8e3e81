// Small hand-drawn SVG badges of the markets the indicators cover; decorative only.
import type { ReactNode } from 'react';

function Coin({ fill, children }: { fill: string; children: ReactNode }) {
  return (
    <svg viewBox="0 0 48 48" className="h-full w-full" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="23" fill={fill} />
      <circle cx="24" cy="24" r="23" fill="none" stroke="white" strokeOpacity="0.25" strokeWidth="2" />
      {children}
    </svg>
  );
}

export function BitcoinIcon() {
  return (
    <Coin fill="#f7931a">
      <path
        d="M31.6 21.3c.4-2.7-1.6-4.1-4.4-5.1l.9-3.6-2.2-.5-.9 3.5c-.6-.1-1.2-.3-1.8-.4l.9-3.5-2.2-.6-.9 3.6-1.4-.3-3-.8-.6 2.4s1.6.4 1.6.4c.9.2 1.1.8 1 1.3l-1 4.1.2.1-.2-.1-1.4 5.7c-.1.3-.4.7-1 .5 0 0-1.6-.4-1.6-.4l-1.1 2.5 2.9.7 1.6.4-.9 3.7 2.2.5.9-3.6c.6.2 1.2.3 1.8.5l-.9 3.6 2.2.5.9-3.7c3.8.7 6.6.4 7.8-3 1-2.7 0-4.3-2-5.3 1.4-.3 2.5-1.3 2.8-3.3Zm-5 7c-.7 2.7-5.3 1.2-6.8.9l1.2-4.8c1.5.4 6.3 1.1 5.6 3.9Zm.7-7.1c-.6 2.5-4.4 1.2-5.7.9l1.1-4.4c1.3.3 5.2.9 4.6 3.5Z"
        fill="white"
      />
    </Coin>
  );
}

export function EthereumIcon() {
  return (
    <Coin fill="#627eea">
      <path d="M24 8v11.8l10 4.5L24 8Z" fill="white" fillOpacity="0.6" />
      <path d="M24 8 14 24.3l10-4.5V8Z" fill="white" />
      <path d="M24 32v8l10-13.9L24 32Z" fill="white" fillOpacity="0.6" />
      <path d="M24 40v-8l-10-5.9L24 40Z" fill="white" />
      <path d="m24 30.1 10-5.8-10-4.5v10.3Z" fill="white" fillOpacity="0.2" />
      <path d="m14 24.3 10 5.8V19.8l-10 4.5Z" fill="white" fillOpacity="0.6" />
    </Coin>
  );
}

export function EurUsdIcon() {
  return (
    <Coin fill="#1e3a8a">
      <text x="24" y="22" textAnchor="middle" fontSize="13" fontWeight="700" fill="white" fontFamily="system-ui, sans-serif">€</text>
      <text x="24" y="36" textAnchor="middle" fontSize="13" fontWeight="700" fill="#86efac" fontFamily="system-ui, sans-serif">$</text>
      <path d="M12 25h24" stroke="white" strokeOpacity="0.5" strokeWidth="1.5" />
    </Coin>
  );
}

export function GoldIcon() {
  return (
    <Coin fill="#a16207">
      <path d="M12 31h11l-2.5-7h-6L12 31Zm13 0h11l-2.5-7h-6L25 31Zm-6.5-9h11l-2.5-7h-6l-2.5 7Z" fill="#fde047" stroke="#854d0e" strokeWidth="1" />
    </Coin>
  );
}

export function SpxIcon() {
  return (
    <Coin fill="#0f766e">
      <path d="M11 31l7-7 5 4 10-11" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M29 17h5v5" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <text x="24" y="41" textAnchor="middle" fontSize="7" fontWeight="700" fill="white" fontFamily="system-ui, sans-serif">S&amp;P</text>
    </Coin>
  );
}

export function OilIcon() {
  return (
    <Coin fill="#334155">
      <path d="M24 11c-4 6-8 10.5-8 15a8 8 0 0 0 16 0c0-4.5-4-9-8-15Z" fill="#38bdf8" />
    </Coin>
  );
}

/** Where each floating badge sits around the hero chart, with its own float delay. */
export const FLOATING_ASSETS = [
  { name: 'Bitcoin', Icon: BitcoinIcon, className: '-left-4 -top-7 h-12 w-12 md:-left-7 md:h-14 md:w-14', delay: '0s' },
  { name: 'Ethereum', Icon: EthereumIcon, className: '-right-2 -top-8 h-10 w-10 md:-right-5 md:h-12 md:w-12', delay: '1.2s' },
  { name: 'EUR/USD', Icon: EurUsdIcon, className: '-left-5 bottom-8 h-10 w-10 md:-left-8 md:h-12 md:w-12', delay: '2.1s' },
  { name: 'Gold', Icon: GoldIcon, className: '-right-3 bottom-16 h-11 w-11 md:-right-5 md:h-12 md:w-12', delay: '0.6s' },
  { name: 'S&P 500', Icon: SpxIcon, className: 'left-[38%] -bottom-6 h-10 w-10 md:h-11 md:w-11', delay: '1.7s' },
  { name: 'Crude oil', Icon: OilIcon, className: 'right-[30%] -top-9 hidden h-9 w-9 md:block', delay: '2.6s' },
] as const;
