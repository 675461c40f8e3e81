import { describe, expect, it } from 'vitest';
import {
  adaptiveCloud,
  atr,
  ema,
  fairValueGaps,
  orderBlocks,
  oscillator,
  oscillatorTurns,
  reversalSignals,
  sma,
  structureBreaks,
  swings,
  swingSignals,
  trendTracker,
  volatilityChannel,
  type Candle,
} from './indicators';
import { generatePrices, SAMPLE_PRICES } from './sample-prices';

const candle = (open: number, high: number, low: number, close: number): Candle => ({ open, high, low, close });
/** A candle with no range at all, for series where only the close matters. */
const flat = (close: number) => candle(close, close, close, close);
/** A candle two points tall around its close: with small steps between closes every true range is exactly 2. */
const tall = (close: number) => candle(close, close + 1, close - 1, close);

describe('moving averages', () => {
  it.each([
    { values: [1, 2, 3, 4, 5], length: 3, expected: [NaN, NaN, 2, 3, 4] },
    { values: [4, 8], length: 1, expected: [4, 8] },
  ])('sma($values, $length)', ({ values, length, expected }) => {
    expect(sma(values, length)).toEqual(expected);
  });

  it.each([
    { values: [10, 20, 20], length: 3, alpha: undefined, expected: [10, 15, 17.5] },
    { values: [10, 20, 20], length: 1, alpha: undefined, expected: [10, 20, 20] },
    { values: [10, 20], length: 4, alpha: 1 / 4, expected: [10, 12.5] },
  ])('ema($values, $length, $alpha) is seeded with the first value', ({ values, length, alpha, expected }) => {
    expect(ema(values, length, alpha)).toEqual(expected);
  });
});

describe('atr', () => {
  it('uses the true range (gaps from the previous close count) with Wilder smoothing', () => {
    const candles = [candle(10, 12, 9, 11), candle(11, 13, 11, 12), candle(14, 15, 14, 14.5)];
    // true ranges: 3; 13 - 11 = 2; 15 - 12 (gap up from the close of 12) = 3
    expect(atr(candles, 2)).toEqual([3, 2.5, 2.75]);
  });
});

describe('swings', () => {
  it('finds bars beyond `length` neighbours on each side', () => {
    const candles = [10, 12, 11, 13, 12, 9, 10].map(flat);
    expect(swings(candles, 1)).toEqual([
      { index: 1, price: 12, dir: 1 },
      { index: 2, price: 11, dir: -1 },
      { index: 3, price: 13, dir: 1 },
      { index: 5, price: 9, dir: -1 },
    ]);
  });

  it('gives a tie to the earlier bar and needs `length` bars after the swing', () => {
    expect(swings([1, 3, 3, 1].map(flat), 1)).toEqual([{ index: 1, price: 3, dir: 1 }]);
    expect(swings([1, 2, 3, 4, 9, 4].map(flat), 2)).toEqual([]);
  });
});

describe('structureBreaks', () => {
  it('labels a break with the trend BOS and a break against it CHoCH', () => {
    // swings (length 1): high 12 @1, low 11 @2, high 13 @3, low 9 @5
    const candles = [10, 12, 11, 13, 12, 9, 10, 14].map(flat);
    expect(structureBreaks(candles, 1)).toEqual([
      { from: 1, index: 3, price: 12, dir: 1, kind: 'BOS' },
      { from: 2, index: 5, price: 11, dir: -1, kind: 'CHoCH' },
      { from: 3, index: 7, price: 13, dir: 1, kind: 'CHoCH' },
    ]);
  });

  it('breaks each swing once and ignores wicks through it', () => {
    const candles = [flat(10), flat(12), flat(11), candle(11, 13, 11, 11.5), candle(11.5, 13.5, 11.4, 11.8), flat(14), flat(15)];
    // the wicks above the swing high of 12 (bars 3 and 4) do not break it; the close of 14 does, once
    expect(structureBreaks(candles, 1).map((b) => [b.index, b.kind])).toEqual([[5, 'BOS']]);
  });
});

describe('orderBlocks', () => {
  const candles = [
    candle(10, 10.6, 9.6, 10.2),
    candle(10.2, 10.4, 9.5, 9.7), // last down candle before the rally: bullish block
    candle(9.7, 13, 9.6, 12.8), // displacement up (body 3.1, ATR about 1)
    candle(12.8, 13.2, 12.5, 13), // last up candle before the drop: bearish block
    candle(13, 13.1, 9, 9.2), // displacement down, and a close below the bullish block
  ];

  it('marks the last opposite candle before a displacement candle and where it broke', () => {
    expect(orderBlocks(candles, 1.5)).toEqual([
      { index: 1, top: 10.4, bottom: 9.5, dir: 1, end: 4 },
      { index: 3, top: 13.2, bottom: 12.5, dir: -1, end: -1 },
    ]);
  });

  it('ignores moves smaller than `mult` ATRs', () => {
    expect(orderBlocks(candles, 5)).toEqual([]);
  });
});

describe('fairValueGaps', () => {
  it('finds three-candle imbalances in both directions and where they were filled', () => {
    const candles = [
      candle(9.5, 10, 9, 9.8),
      candle(9.8, 11.5, 9.8, 11.4),
      candle(11.4, 12, 11, 11.8), // low 11 above the high of 10: bullish gap 10–11
      candle(11.8, 11.9, 10.5, 10.6), // into the gap, not through it
      candle(10.6, 11.1, 9.9, 10), // through its far side: filled
      candle(10, 10.6, 8, 8.2),
      candle(8.2, 8.5, 7.5, 7.6), // high 8.5 below the low of 9.9: bearish gap 8.5–9.9, never filled
    ];
    expect(fairValueGaps(candles)).toEqual([
      { index: 1, top: 11, bottom: 10, dir: 1, end: 4 },
      { index: 5, top: 9.9, bottom: 8.5, dir: -1, end: -1 },
    ]);
    expect(fairValueGaps(candles, 1.2).map((g) => g.index)).toEqual([5]);
  });
});

describe('oscillator', () => {
  it('places the close in the range of the last `length` bars on 0–100', () => {
    const candles = [candle(9, 10, 8, 9), candle(9, 12, 9, 12), candle(12, 12, 6, 6), flat(6)];
    // unsmoothed: 50 (middle of 8–10), 100 (top of 8–12), 0 (bottom of 6–12), 0 (bottom of 6–12)
    expect(oscillator(candles, 2, 1, 1)).toEqual({ value: [50, 100, 0, 0], signal: [50, 100, 0, 0] });
    expect(oscillator([flat(5)], 2, 1, 1).value).toEqual([50]);
  });

  it.each([
    { value: [10, 15, 30], signal: [20, 20, 20], expected: [{ index: 2, dir: 1 }] },
    { value: [90, 85, 70], signal: [80, 80, 80], expected: [{ index: 2, dir: -1 }] },
    { value: [40, 45, 60], signal: [50, 50, 50], expected: [] },
  ])('turns: a cross of the signal line from an extreme ($value)', ({ value, signal, expected }) => {
    expect(oscillatorTurns({ value, signal })).toEqual(expected);
  });
});

describe('trendTracker', () => {
  it('trails `mult` ATRs from the close, only in the trend direction, and flips on a close through it', () => {
    const candles = [10, 10.5, 11, 10.2, 9.4, 8.6, 8, 8.5].map(tall); // ATR is 2 throughout
    expect(trendTracker(candles, 3, 1)).toEqual({
      line: [8, 8.5, 9, 9, 9, 10.6, 10, 10],
      dir: [1, 1, 1, 1, 1, -1, -1, -1],
    });
  });
});

describe('adaptiveCloud', () => {
  it('is a fast and a slow EMA of the close', () => {
    expect(adaptiveCloud([10, 20].map(flat), 1, 3)).toEqual({ fast: [10, 20], slow: [10, 15] });
  });
});

describe('volatilityChannel', () => {
  it('is the SMA ± deviation × population standard deviation', () => {
    const { basis, upper, lower } = volatilityChannel([2, 4, 4, 4, 5, 5, 7, 9].map(flat), 8, 2);
    // mean 5, standard deviation 2
    expect([basis[7], upper[7], lower[7]]).toEqual([5, 9, 1]);
    expect(basis.slice(0, 7).every(Number.isNaN)).toBe(true);
  });
});

describe('swingSignals', () => {
  const candles = [
    candle(10.6, 11, 10.5, 10.8),
    candle(10.8, 11.2, 9.8, 10.2), // pullback to the midline (10)
    candle(10.2, 11.5, 10.1, 11.4), // close above the highs of the 2 bars before: Buy
    candle(11.4, 12, 11.3, 11.9), // would qualify too, but only 1 bar after the last signal
    candle(11.9, 12.5, 11.8, 12.4), // no pullback to the midline in the last 2 bars
  ];
  const mid = candles.map(() => 10);

  it('prints with the trend after a pullback, on a close beyond the last `confirm` bars, `gap` bars apart', () => {
    expect(swingSignals(candles, 2, 2, [1, 1, 1, 1, 1], mid)).toEqual([{ index: 2, dir: 1 }]);
    expect(swingSignals(candles, 2, 1, [1, 1, 1, 1, 1], mid).map((s) => s.index)).toEqual([2, 3]);
  });

  it('does not buy against the trend', () => {
    expect(swingSignals(candles, 2, 2, [-1, -1, -1, -1, -1], mid)).toEqual([]);
  });
});

describe('reversalSignals', () => {
  it('after `exhaustion` closes above the close 4 bars earlier, a close below the previous low is a sell', () => {
    const rally = [1, 2, 3, 4, 5, 6, 7].map(flat);
    const candles = [...rally, candle(7.5, 8.5, 7.5, 8), flat(7)];
    expect(reversalSignals(candles, 3, 2, 1)).toEqual([{ index: 8, dir: -1 }]);
    // the mirror image: a decline, then a close above the previous high
    const mirrored = candles.map((c) => candle(20 - c.open, 20 - c.low, 20 - c.high, 20 - c.close));
    expect(reversalSignals(mirrored, 3, 2, 1)).toEqual([{ index: 8, dir: 1 }]);
  });

  it('needs the stretched move first and the confirmation within `confirm` bars', () => {
    // a run of 4 closes above the close 4 bars earlier is not stretched enough when 5 are required
    const short = [1, 2, 3, 4, 5, 6].map(flat);
    expect(reversalSignals([...short, candle(6.5, 7.5, 6.5, 7), flat(6)], 5, 2, 1)).toEqual([]);
    // the run ends at bar 11 (last armed at bar 10); the drop at bar 13 comes 3 bars later, past the 2 allowed
    const late = [...[1, 2, 3, 4, 5, 6, 7, 8].map(flat), flat(8), flat(8), flat(8), flat(8), flat(8), flat(7)];
    expect(reversalSignals(late, 3, 2, 1)).toEqual([]);
  });
});

describe('sample prices', () => {
  it('are the same on every load and consistent candles', () => {
    expect(generatePrices(47, 64000)).toEqual(SAMPLE_PRICES);
    expect(SAMPLE_PRICES.length).toBeGreaterThanOrEqual(120);
    for (const c of SAMPLE_PRICES) {
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
    }
  });

  it('give every indicator something to show', () => {
    const dirs = (list: { dir: number }[]) => new Set(list.map((x) => x.dir));
    const both = new Set([1, -1]);
    const breaks = structureBreaks(SAMPLE_PRICES, 14);
    expect(new Set(breaks.map((b) => `${b.kind}${b.dir}`))).toEqual(new Set(['BOS1', 'BOS-1', 'CHoCH1', 'CHoCH-1']));
    expect(dirs(orderBlocks(SAMPLE_PRICES, 1.3))).toEqual(both);
    expect(dirs(fairValueGaps(SAMPLE_PRICES))).toEqual(both);
    expect(dirs(swingSignals(SAMPLE_PRICES))).toEqual(both);
    expect(dirs(reversalSignals(SAMPLE_PRICES))).toEqual(both);
    expect(dirs(oscillatorTurns(oscillator(SAMPLE_PRICES)))).toEqual(both);
    const { dir } = trendTracker(SAMPLE_PRICES);
    expect(dir.filter((d, i) => i > 0 && d !== dir[i - 1]).length).toBeGreaterThanOrEqual(3);
  });
});
