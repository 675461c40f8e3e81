import type { Candle } from './indicators';

/** mulberry32: a tiny seeded PRNG, so the sample chart is identical on every load and in tests. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Legs of the scripted market as [bars, drift per bar in ‰]: a rally with a pullback, a top, a
 * reversal into a downtrend with a relief rally, a base and a new rally, so that every indicator
 * has trends, pullbacks, breaks and exhaustion to show.
 */
const LEGS: readonly (readonly [number, number])[] = [
  [22, 2.4],
  [8, -2.4],
  [20, 3],
  [12, 0],
  [26, -3],
  [9, 2.4],
  [16, -2.4],
  [10, 0],
  [27, 3],
];

/** Generates candles along `legs` (a generated series is a few hundred bytes; a JSON file would be kilobytes). */
export function generatePrices(seed: number, start: number, legs = LEGS): Candle[] {
  const next = random(seed);
  const candles: Candle[] = [];
  let close = start;
  for (const [bars, drift] of legs) {
    for (let i = 0; i < bars; i++) {
      // Now and then a displacement candle (+1 %): the source of gaps, order blocks and breaks.
      const kick = next() < 0.08 ? 10 * (Math.sign(drift) || 1) : 0;
      const open = close * (1 + (next() - 0.5) / 2000);
      close = open * (1 + (drift + kick + (next() - 0.5) * 9) / 1000);
      candles.push({
        open,
        close,
        high: Math.max(open, close) * (1 + next() / 200),
        low: Math.min(open, close) * (1 - next() / 200),
      });
    }
  }
  return candles;
}

/** The bundled sample series every chart on the landing page is drawn from (150 hourly candles). */
export const SAMPLE_PRICES = generatePrices(47, 64000);
