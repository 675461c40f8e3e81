// Simplified, pure versions of the marketed indicators (their guides are in content/guides), used
// to draw the landing page's illustrations from sample prices. Series are index-aligned with the
// candles; NaN marks bars that do not have enough history yet.

export type Candle = { open: number; high: number; low: number; close: number };
/** 1 = bullish (or a swing high), -1 = bearish (or a swing low). */
export type Dir = 1 | -1;
export type Signal = { index: number; dir: Dir };
export type Swing = { index: number; price: number; dir: Dir };
/** A price zone drawn from `index`; `end` is the bar that broke or filled it, -1 while it is still open. */
export type Zone = { index: number; end: number; top: number; bottom: number; dir: Dir };
export type StructureBreak = { from: number; index: number; price: number; dir: Dir; kind: 'BOS' | 'CHoCH' };

const closes = (candles: readonly Candle[]) => candles.map((c) => c.close);
const lastN = (values: readonly number[], end: number, length: number) => values.slice(Math.max(0, end - length), end);

/** Simple moving average; NaN until `length` values exist. */
export function sma(values: readonly number[], length: number): number[] {
  return values.map((_, i) => (i < length - 1 ? NaN : lastN(values, i + 1, length).reduce((a, b) => a + b, 0) / length));
}

/** Exponential moving average seeded with the first value (alpha 2/(length+1); pass 1/length for Wilder's smoothing). */
export function ema(values: readonly number[], length: number, alpha = 2 / (length + 1)): number[] {
  let last = NaN;
  return values.map((v) => (last = Number.isNaN(last) ? v : last + alpha * (v - last)));
}

/** Average true range with Wilder's smoothing, seeded with the first bar's range. */
export function atr(candles: readonly Candle[], length = 14): number[] {
  const ranges = candles.map((c, i) => {
    const prev = candles[i - 1]?.close ?? c.close;
    return Math.max(c.high, prev) - Math.min(c.low, prev);
  });
  return ema(ranges, length, 1 / length);
}

/**
 * Swing highs and lows: a bar whose high (low) is beyond every other bar `length` bars on each side.
 * On a tie the earlier bar wins. Known only `length` bars later, which is how traders see them too.
 */
export function swings(candles: readonly Candle[], length: number): Swing[] {
  const out: Swing[] = [];
  for (let i = length; i < candles.length - length; i++) {
    const { high, low } = candles[i]!;
    let isHigh = true;
    let isLow = true;
    for (let j = i - length; j <= i + length; j++) {
      const other = candles[j]!;
      if (j === i) continue;
      if (j < i ? other.high >= high : other.high > high) isHigh = false;
      if (j < i ? other.low <= low : other.low < low) isLow = false;
    }
    if (isHigh) out.push({ index: i, price: high, dir: 1 });
    if (isLow) out.push({ index: i, price: low, dir: -1 });
  }
  return out;
}

/**
 * Breaks of market structure: a close beyond the latest confirmed swing. With the trend it is a
 * BOS; against it (the first sign of a turn) a CHoCH. A swing can be broken once.
 */
export function structureBreaks(candles: readonly Candle[], length = 14): StructureBreak[] {
  const pivots = swings(candles, length);
  const out: StructureBreak[] = [];
  const last: { [dir: number]: Swing | undefined } = {};
  let trend = 0;
  let p = 0;
  candles.forEach((c, i) => {
    // a swing becomes known `length` bars after it formed
    for (; pivots[p] && pivots[p]!.index + length <= i; p++) last[pivots[p]!.dir] = pivots[p];
    for (const swing of [last[1], last[-1]]) {
      if (swing && (c.close - swing.price) * swing.dir > 0) {
        out.push({ from: swing.index, index: i, price: swing.price, dir: swing.dir, kind: trend === -swing.dir ? 'CHoCH' : 'BOS' });
        trend = swing.dir;
        last[swing.dir] = undefined;
      }
    }
  });
  return out;
}

/** First bar after `from` whose `value` reaches `level` in direction `dir` (-1 when none does). */
function firstBeyond(candles: readonly Candle[], from: number, level: number, dir: Dir, value: (c: Candle) => number) {
  for (let k = from + 1; k < candles.length; k++) if ((value(candles[k]!) - level) * dir >= 0) return k;
  return -1;
}

/**
 * Order blocks: the last opposite-coloured candle (within `lookback` bars) before a displacement
 * candle, one whose body is at least `mult` times the ATR before it. The zone spans that candle's
 * range and ends when a candle closes through its far side.
 */
export function orderBlocks(candles: readonly Candle[], mult = 1.5, atrLength = 14, lookback = 5): Zone[] {
  const ranges = atr(candles, atrLength);
  const out: Zone[] = [];
  candles.forEach((c, i) => {
    const body = c.close - c.open;
    const dir: Dir = body > 0 ? 1 : -1;
    if (i === 0 || Math.abs(body) < mult * ranges[i - 1]!) return;
    for (let j = i - 1; j >= Math.max(0, i - lookback); j--) {
      const { open, close, high, low } = candles[j]!;
      if ((close - open) * dir < 0) {
        if (!out.some((z) => z.index === j)) {
          out.push({ index: j, top: high, bottom: low, dir, end: firstBeyond(candles, i, dir > 0 ? low : high, (-dir) as Dir, (k) => k.close) });
        }
        return;
      }
    }
  });
  return out;
}

/**
 * Fair value gaps: three candles where the third's low is above the first's high (bullish) or its
 * high below the first's low (bearish). Drawn from the middle candle; filled when price trades
 * back through the whole gap. Gaps smaller than `minSize` are ignored.
 */
export function fairValueGaps(candles: readonly Candle[], minSize = 0): Zone[] {
  const out: Zone[] = [];
  for (let i = 2; i < candles.length; i++) {
    const first = candles[i - 2]!;
    const third = candles[i]!;
    if (third.low - first.high > minSize) {
      out.push({ index: i - 1, top: third.low, bottom: first.high, dir: 1, end: firstBeyond(candles, i, first.high, -1, (c) => c.low) });
    } else if (first.low - third.high > minSize) {
      out.push({ index: i - 1, top: first.low, bottom: third.high, dir: -1, end: firstBeyond(candles, i, first.low, 1, (c) => c.high) });
    }
  }
  return out;
}

/**
 * Momentum normalised to 0–100: where the close sits in the range of the last `length` bars
 * (50 when the range is flat), smoothed, with an EMA signal line.
 */
export function oscillator(candles: readonly Candle[], length = 14, smoothing = 3, signalLength = 5) {
  const raw = candles.map((c, i) => {
    const bars = candles.slice(Math.max(0, i + 1 - length), i + 1);
    const high = Math.max(...bars.map((b) => b.high));
    const low = Math.min(...bars.map((b) => b.low));
    return high > low ? (100 * (c.close - low)) / (high - low) : 50;
  });
  const value = ema(raw, smoothing);
  return { value, signal: ema(value, signalLength) };
}

/** Oscillator turns: the line crosses its signal line while at or beyond the oversold/overbought level. */
export function oscillatorTurns({ value, signal }: { value: number[]; signal: number[] }, lower = 20, upper = 80): Signal[] {
  const out: Signal[] = [];
  for (let i = 1; i < value.length; i++) {
    const before = value[i - 1]! - signal[i - 1]!;
    const now = value[i]! - signal[i]!;
    if (before < 0 && now >= 0 && value[i - 1]! <= lower) out.push({ index: i, dir: 1 });
    if (before > 0 && now <= 0 && value[i - 1]! >= upper) out.push({ index: i, dir: -1 });
  }
  return out;
}

/**
 * Adaptive trend tracker: a line `mult` ATRs from the close that only ratchets in the trend's
 * direction and flips to the other side when a candle closes through it.
 */
export function trendTracker(candles: readonly Candle[], length = 10, mult = 2.5) {
  const range = atr(candles, length);
  const line: number[] = [];
  const dir: Dir[] = [];
  let d: Dir = 1;
  let level = NaN;
  candles.forEach(({ close }, i) => {
    const offset = mult * range[i]!;
    if (Number.isNaN(level)) level = close - offset;
    else if ((close - level) * d < 0) {
      d = -d as Dir;
      level = close - d * offset;
    } else level = d > 0 ? Math.max(level, close - offset) : Math.min(level, close + offset);
    line.push(level);
    dir.push(d);
  });
  return { line, dir };
}

/** Adaptive cloud: the band between a fast and a slow EMA; bullish while the fast one is above. */
export function adaptiveCloud(candles: readonly Candle[], fast = 10, slow = 30) {
  return { fast: ema(closes(candles), fast), slow: ema(closes(candles), slow) };
}

/** Volatility channel: SMA ± `deviation` population standard deviations of the close. */
export function volatilityChannel(candles: readonly Candle[], length = 20, deviation = 2) {
  const values = closes(candles);
  const basis = sma(values, length);
  const spread = basis.map((mean, i) => deviation * Math.sqrt(lastN(values, i + 1, length).reduce((a, v) => a + (v - mean) ** 2, 0) / length));
  return { basis, upper: basis.map((b, i) => b + spread[i]!), lower: basis.map((b, i) => b - spread[i]!) };
}

/**
 * Swing signals: with the trend tracker, after a pullback that reached the midline, a close beyond
 * the extreme of the previous `confirm` bars; at least `gap` bars after the previous signal.
 */
export function swingSignals(candles: readonly Candle[], confirm = 6, gap = 4, trend = trendTracker(candles).dir, mid = ema(closes(candles), 20)): Signal[] {
  const out: Signal[] = [];
  let last = -gap;
  for (let i = confirm; i < candles.length; i++) {
    const d = trend[i]!;
    const c = candles[i]!;
    const prior = candles.slice(i - confirm, i);
    const extreme = d > 0 ? Math.max(...prior.map((b) => b.high)) : Math.min(...prior.map((b) => b.low));
    const pulledBack = prior.some((b, k) => ((d > 0 ? b.low : b.high) - mid[i - confirm + k]!) * d <= 0);
    if (i - last >= gap && (c.close - mid[i]!) * d > 0 && (c.close - extreme) * d > 0 && pulledBack) {
      out.push({ index: i, dir: d });
      last = i;
    }
  }
  return out;
}

/**
 * Reversal signals: after `exhaustion` consecutive closes beyond the close four bars earlier (a
 * stretched move), a close back through the previous bar's extreme within `confirm` bars; at least
 * `gap` bars after the previous signal.
 */
export function reversalSignals(candles: readonly Candle[], exhaustion = 8, confirm = 6, gap = 4): Signal[] {
  const out: Signal[] = [];
  const run = { 1: 0, [-1]: 0 };
  const armed = { 1: -Infinity, [-1]: -Infinity };
  let last = -gap;
  candles.forEach((c, i) => {
    const ref = candles[i - 4];
    const prev = candles[i - 1];
    for (const d of [1, -1] as const) {
      run[d] = ref && (c.close - ref.close) * d > 0 ? run[d] + 1 : 0;
      if (run[d] >= exhaustion) armed[d] = i;
      // the signal points against the exhausted move: a sell after a rally, a buy after a decline
      if (prev && i - last >= gap && i - armed[d] <= confirm && (c.close - (d > 0 ? prev.low : prev.high)) * d < 0) {
        out.push({ index: i, dir: -d as Dir });
        last = i;
        armed[d] = -Infinity;
      }
    }
  });
  return out;
}
