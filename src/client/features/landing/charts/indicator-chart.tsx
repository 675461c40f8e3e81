import { BookOpen, Compass, Users } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import {
  adaptiveCloud,
  atr,
  ema,
  fairValueGaps,
  orderBlocks,
  oscillator,
  oscillatorTurns,
  reversalSignals,
  structureBreaks,
  swings,
  swingSignals,
  trendTracker,
  volatilityChannel,
  type Dir,
  type Signal,
  type Zone,
} from './indicators';
import { SAMPLE_PRICES as P } from './sample-prices';

export type IndicatorKind =
  | 'order-blocks'
  | 'fair-value-gaps'
  | 'smart-money-oscillator'
  | 'adaptive-trend-tracker'
  | 'swing-signals'
  | 'reversal-signals'
  | 'adaptive-cloud'
  | 'smart-money-concepts'
  | 'screener-dashboard'
  | 'beyond-indicators'
  | 'hero'
  | 'pro-toolkits'
  | 'any-setup'
  | 'built-to-succeed';

// Every chart is 16:9. The parent box uses the same ratio, so nothing shifts when a chart loads.
const W = 400;
const H = 225;

const UP = '#22c55e';
const DOWN = '#ef4444';
const BLUE = '#3b82f6';
const VIOLET = '#a78bfa';
const AMBER = '#f59e0b';
const MUTED = '#64748b';
const TEXT = '#cbd5e1';
const LINE = '#1e293b';
const color = (dir: number) => (dir > 0 ? UP : DOWN);
const DIRS = [1, -1] as const;
const perDir = (): Record<Dir, string> => ({ [1]: '', [-1]: '' });
/** One path per direction, so a chart needs two DOM nodes per layer, not one per candle or marker. */
const paths = (d: Record<Dir, string>, props: (c: string) => object) => DIRS.map((dir) => <path key={dir} d={d[dir]} {...props(color(dir))} />);
/** A dark outline behind a label, so it stays legible where it crosses candles. */
const halo = { stroke: '#0b1120', strokeWidth: 2, paintOrder: 'stroke' } as const;
/** One decimal is sharp at any size and keeps the path strings short. */
const r = (n: number) => Math.round(n * 10) / 10;

// Every indicator on the sample series, computed once when the chart chunk loads.
const N = P.length;
const RANGE = atr(P);
const TRACKER = trendTracker(P);
const CLOUD = adaptiveCloud(P);
// the midline the swing signals pull back to
const MID = ema(P.map((c) => c.close), 20);
const OSC = oscillator(P);
const SWING = swingSignals(P, 6, 4, TRACKER.dir, MID);
const BLOCKS = orderBlocks(P, 1.3);
// Only gaps of at least 0.3 ATR: the tiny ones would cover the chart (the indicator's Minimum Gap Size).
const GAPS = fairValueGaps(P).filter((g) => g.top - g.bottom >= 0.3 * RANGE[g.index]!);
const BREAKS = structureBreaks(P, 14);

type Frame = { from: number; to: number; l: number; t: number; r: number; b: number; lo: number; hi: number; step: number; x: (i: number) => number; y: (p: number) => number };

/** Maps bars `from`..`to` (exclusive) and their prices, plus any `series` values, into the box [l, t, r, b]. */
function frame(from: number, to: number, [l, t, right, b] = [4, 8, W - 42, H - 8], series: number[][] = []): Frame {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = from; i < to; i++) {
    for (const v of [P[i]!.low, P[i]!.high, ...series.map((s) => s[i]!)]) {
      if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
    }
  }
  const pad = (hi - lo) * 0.06;
  [lo, hi] = [lo - pad, hi + pad];
  const step = (right - l) / (to - from);
  return { from, to, l, t, r: right, b, lo, hi, step, x: (i) => l + (i - from + 0.5) * step, y: (p) => b - ((p - lo) / (hi - lo)) * (b - t) };
}

const bars = (f: Frame) => Array.from({ length: f.to - f.from }, (_, k) => f.from + k);
const at = (f: Frame, i: number, p: number) => `${r(f.x(i))} ${r(f.y(p))}`;
const inView = (f: Frame) => (s: { index: number }) => s.index >= f.from && s.index < f.to;

/** All candles of a colour in one path (a wick line plus a body box each): two DOM nodes per chart. */
function candles(f: Frame, opacity = 1) {
  const d = perDir();
  const w = r(f.step * 0.34);
  for (const i of bars(f)) {
    const { open, close, high, low } = P[i]!;
    const x = r(f.x(i));
    d[close >= open ? 1 : -1] += `M${x} ${r(f.y(high))}V${r(f.y(low))}M${r(x - w)} ${r(f.y(Math.max(open, close)))}h${2 * w}V${r(f.y(Math.min(open, close)))}h${-2 * w}Z`;
  }
  return paths(d, (c) => ({ fill: c, stroke: c, strokeWidth: 0.7, opacity }));
}

/** A line through `values`, broken where a value is missing. */
function line(f: Frame, values: readonly number[], stroke: string, width = 1.2, extra: object = {}) {
  let d = '';
  let pen = 'M';
  for (const i of bars(f)) {
    if (!Number.isFinite(values[i])) pen = 'M';
    else [d, pen] = [d + `${pen}${at(f, i, values[i]!)}`, 'L'];
  }
  return <path d={d} fill="none" stroke={stroke} strokeWidth={width} strokeLinejoin="round" {...extra} />;
}

/** Splits the view into runs of bars with the same direction. */
function runs(f: Frame, dirs: readonly Dir[]) {
  const out: { from: number; to: number; dir: Dir }[] = [];
  for (const i of bars(f)) {
    const last = out.at(-1);
    if (last && last.dir === dirs[i]) last.to = i;
    else out.push({ from: i, to: i, dir: dirs[i]! });
  }
  return out;
}

/** The adaptive trend tracker as a stepped line, green below price in uptrends, red above it in downtrends. */
function tracker(f: Frame, width = 1.6) {
  const d = perDir();
  for (const run of runs(f, TRACKER.dir)) {
    const half = f.step / 2;
    d[run.dir] += `M${r(f.x(run.from) - half)} ${r(f.y(TRACKER.line[run.from]!))}`;
    for (let i = run.from; i <= run.to; i++) d[run.dir] += `V${r(f.y(TRACKER.line[i]!))}H${r(f.x(i) + half)}`;
  }
  return paths(d, (c) => ({ fill: 'none', stroke: c, strokeWidth: width }));
}

/** The adaptive cloud: the band between its two averages, coloured by which one is on top. */
function cloud(f: Frame, opacity = 0.18) {
  const dirs = CLOUD.fast.map((v, i): Dir => (v >= CLOUD.slow[i]! ? 1 : -1));
  const d = perDir();
  for (const run of runs(f, dirs)) {
    // each run starts at the previous run's last bar, so the band has no holes where the averages cross
    const ids = bars(f).filter((i) => i >= Math.max(f.from, run.from - 1) && i <= run.to);
    d[run.dir] += 'M' + [...ids.map((i) => at(f, i, CLOUD.fast[i]!)), ...ids.reverse().map((i) => at(f, i, CLOUD.slow[i]!))].join('L') + 'Z';
  }
  return [
    ...paths(d, (c) => ({ fill: c, fillOpacity: opacity })),
    <g key="lines" opacity={0.8}>
      {line(f, CLOUD.fast, UP, 0.8)}
      {line(f, CLOUD.slow, DOWN, 0.8)}
    </g>,
  ];
}

/** Zones as translucent boxes (one path per colour and state): open ones bright and extended to the right edge, closed ones faded. */
function zones(f: Frame, list: readonly Zone[], label?: string) {
  const d: Record<string, string> = {};
  const labels: ReactNode[] = [];
  for (const z of list.filter(inView(f))) {
    const open = z.end < 0 || z.end >= f.to;
    const x0 = r(f.x(z.index) - f.step / 2);
    const x1 = r(open ? f.r : f.x(z.end));
    const key = `${z.dir} ${open}`;
    d[key] = (d[key] ?? '') + `M${x0} ${r(f.y(z.top))}H${x1}V${r(f.y(z.bottom))}H${x0}Z`;
    if (open && label) {
      labels.push(
        <text key={z.index} x={f.r - 3} y={r(f.y((z.top + z.bottom) / 2) + 2.5)} textAnchor="end" fontSize={7.5} fill={color(z.dir)} {...halo}>
          {label}
        </text>,
      );
    }
  }
  return [
    ...Object.entries(d).map(([key, path]) => {
      const open = key.endsWith('true');
      const c = color(Number(key.split(' ')[0]));
      return <path key={key} d={path} fill={c} fillOpacity={open ? 0.22 : 0.09} stroke={c} strokeOpacity={open ? 0.6 : 0} strokeWidth={0.6} />;
    }),
    ...labels,
  ];
}

/** A small Buy/Sell label below (buy) or above (sell) its candle. */
function badge(f: Frame, { index, dir }: Signal, text = dir > 0 ? 'Buy' : 'Sell') {
  const y = f.y(dir > 0 ? P[index]!.low : P[index]!.high) + dir * 10;
  const w = text.length * 4.4 + 6;
  return (
    <g key={`${index}${text}`}>
      <rect x={r(f.x(index) - w / 2)} y={r(y - 5.5)} width={w} height={11} rx={2} fill={color(dir)} />
      <text x={r(f.x(index))} y={r(y + 2.5)} textAnchor="middle" fontSize={7} fontWeight={700} fill="#fff">
        {text}
      </text>
    </g>
  );
}

/** BOS / CHoCH: a dashed line from the broken swing to the breaking candle, labelled at its middle. */
function breaks(f: Frame) {
  return BREAKS.filter((b) => inView(f)(b) && (f.x(Math.max(b.from, f.from)) + f.x(b.index)) / 2 > f.l + 14).map((b) => {
    const from = Math.max(b.from, f.from);
    const y = r(f.y(b.price));
    return (
      <g key={b.index} fill={color(b.dir)} stroke={color(b.dir)}>
        <path d={`M${r(f.x(from))} ${y}H${r(f.x(b.index))}`} strokeDasharray="3 2" strokeWidth={0.9} />
        <text x={r((f.x(from) + f.x(b.index)) / 2)} y={y + (b.dir > 0 ? -3 : 8)} textAnchor="middle" fontSize={7.5} fontWeight={700} {...halo}>
          {b.kind}
        </text>
      </g>
    );
  });
}

/** A round step (1, 2 or 5 × 10^n) near `x`. */
function nice(x: number) {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return p * (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10);
}

/** Subtle grid, price labels on the right and a tag with the last close. */
function axis(f: Frame) {
  const step = nice((f.hi - f.lo) / 4);
  let grid = '';
  const labels: ReactNode[] = [];
  const last = P[f.to - 1]!;
  const tag = r(f.y(last.close));
  for (let k = Math.ceil(f.lo / step); k * step < f.hi; k++) {
    const y = r(f.y(k * step));
    grid += `M${f.l} ${y}H${f.r}`;
    if (Math.abs(y - tag) > 10) labels.push(
      <text key={k} x={f.r + 4} y={y + 3}>
        {Math.round(k * step).toLocaleString('en-US')}
      </text>,
    );
  }
  for (let k = 1; k < 4; k++) grid += `M${r(f.l + ((f.r - f.l) * k) / 4)} ${f.t}V${f.b}`;
  return [
    <path key="grid" d={grid} stroke={LINE} strokeWidth={0.6} />,
    <g key="labels" fill={MUTED}>
      {labels}
    </g>,
    <rect key="tag" x={f.r + 1} y={tag - 6} width={40} height={12} rx={2} fill={color(last.close - last.open)} />,
    <text key="last" x={f.r + 4} y={tag + 3} fill="#fff" fontWeight={600}>
      {Math.round(last.close).toLocaleString('en-US')}
    </text>,
  ];
}

/** Oscillator pane between `t` and `b`: 20/50/80 levels, the line, its signal line and the turn dots. */
function oscPane(f: Frame, t: number, b: number) {
  const pane = { ...f, t, b, y: (v: number) => b - (v / 100) * (b - t) };
  const dots = perDir();
  for (const s of oscillatorTurns(OSC).filter(inView(f))) dots[s.dir] += `M${r(f.x(s.index) - 2)} ${r(pane.y(OSC.value[s.index]!))}a2 2 0 1 0 4 0a2 2 0 1 0-4 0`;
  return [
    <path key="box" d={`M${f.l} ${t}H${f.r}`} stroke={LINE} />,
    <path key="levels" d={[20, 50, 80].map((v) => `M${f.l} ${r(pane.y(v))}H${f.r}`).join('')} stroke={MUTED} strokeWidth={0.5} strokeDasharray="2 2" />,
    <g key="scale" fill={MUTED}>
      {[20, 80].map((v) => (
        <text key={v} x={f.r + 4} y={r(pane.y(v) + 3)}>
          {v}
        </text>
      ))}
    </g>,
    <g key="lines">
      {line(pane, OSC.signal, AMBER, 0.9)}
      {line(pane, OSC.value, VIOLET, 1.3)}
    </g>,
    ...paths(dots, (c) => ({ fill: c })),
  ];
}

/** A price chart: grid, axis, candles, then `overlay(frame)` on top (or below the candles when `under`). */
function chart(f: Frame, overlay: (f: Frame) => ReactNode, under = false) {
  const layer = <g data-overlay="">{overlay(f)}</g>;
  return (
    <>
      {axis(f)}
      {under && layer}
      {candles(f)}
      {!under && layer}
    </>
  );
}

const SCREENER: [string, number, number, number][] = [
  ['BTC', 140, 1, 0],
  ['ETH', 102, 0.053, 1],
  ['SOL', 125, 0.0023, 2],
  ['EUR/USD', 63, 0.000017, 4],
  ['XAU/USD', 97, 0.036, 1],
  ['SPX', 110, 0.085, 1],
  ['NDX', 119, 0.3, 1],
];

/** Trend, momentum and last signal per asset, each read at a different bar of the sample series. */
function screener() {
  const cols = [14, 150, 168, 232, 310] as const;
  return (
    <g data-overlay="">
      <text x={14} y={20} fill={TEXT} fontSize={9} fontWeight={700}>
        Screener · 1H
      </text>
      <g fill={MUTED} fontSize={7}>
        {['ASSET', 'PRICE', 'TREND', 'MOMENTUM', 'LAST SIGNAL'].map((h, k) => (
          <text key={h} x={cols[k]} y={40} textAnchor={k === 1 ? 'end' : undefined}>
            {h}
          </text>
        ))}
      </g>
      <path d={SCREENER.map((_, k) => `M10 ${47 + k * 24}H390`).join('')} stroke={LINE} />
      {SCREENER.map(([name, end, scale, digits], k) => {
        const y = 62 + k * 24;
        const trend = TRACKER.dir[end]!;
        const momentum = Math.round(OSC.value[end]!);
        const signal = SWING.filter((s) => s.index <= end).at(-1);
        return (
          <g key={name} fontSize={8.5}>
            <text x={cols[0]} y={y} fill={TEXT} fontWeight={600}>
              {name}
            </text>
            <text x={cols[1]} y={y} fill={TEXT} textAnchor="end">
              {(P[end]!.close * scale).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}
            </text>
            <text x={cols[2]} y={y} fill={color(trend)} fontWeight={600}>
              {trend > 0 ? '▲ Up' : '▼ Down'}
            </text>
            <rect x={cols[3]} y={y - 6} width={40} height={6} rx={3} fill={LINE} />
            <rect x={cols[3]} y={y - 6} width={r(momentum * 0.4)} height={6} rx={3} fill={color(momentum - 50)} />
            <text x={cols[3] + 46} y={y} fill={TEXT}>
              {momentum}
            </text>
            <text x={cols[4]} y={y} fill={signal ? color(signal.dir) : MUTED} fontWeight={600}>
              {signal ? `${signal.dir > 0 ? 'Buy' : 'Sell'} · ${end - signal.index === 1 ? '1 bar' : `${end - signal.index} bars`} ago` : '—'}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** Strategies, community and guides cards over a faded chart: what members get beyond the scripts. */
function collage() {
  const cards = [
    ['Strategies', Compass, BLUE, 22, 58, -5],
    ['Community', Users, VIOLET, 145, 40, 0],
    ['Guides', BookOpen, AMBER, 268, 58, 5],
  ] as const;
  return (
    <>
      {candles(frame(40, N), 0.25)}
      <g data-overlay="">
        {cards.map(([title, Icon, tint, x, y, turn]) => (
          <g key={title} transform={`rotate(${turn} ${x + 55} ${y + 60})`}>
            <rect x={x} y={y} width={110} height={120} rx={10} fill="#111827" stroke="#334155" />
            <circle cx={x + 22} cy={y + 24} r={12} fill={tint} fillOpacity={0.18} />
            <Icon x={x + 14} y={y + 16} size={16} color={tint} />
            <text x={x + 12} y={y + 56} fill={TEXT} fontSize={11} fontWeight={700}>
              {title}
            </text>
            <path d={`M${x + 12} ${y + 72}h84M${x + 12} ${y + 84}h70M${x + 12} ${y + 96}h78`} stroke="#334155" strokeWidth={4} strokeLinecap="round" />
          </g>
        ))}
        <rect x={150} y={186} width={100} height={20} rx={10} fill={BLUE} />
        <text x={200} y={199} textAnchor="middle" fill="#fff" fontSize={9} fontWeight={700}>
          40+ features
        </text>
      </g>
    </>
  );
}

const MINIS = [
  ['BTCUSD · 1H', 20, 62],
  ['EURUSD · 15m', 62, 104],
  ['XAUUSD · 4H', 96, 138],
  ['NDX · 1D', 108, 150],
] as const;

/** Four small charts (markets and timeframes), each with the trend tracker. */
function minis() {
  return MINIS.map(([label, from, to], k) => {
    const [x, y] = [6 + (k % 2) * 197, 6 + Math.floor(k / 2) * 109];
    const f = frame(from, to, [x + 4, y + 18, x + 187, y + 100], [TRACKER.line]);
    return (
      <g key={label}>
        <rect x={x} y={y} width={191} height={104} rx={6} fill="#0f172a" stroke={LINE} />
        <text x={x + 8} y={y + 12} fill={TEXT} fontSize={7.5} fontWeight={600}>
          {label}
        </text>
        {candles(f)}
        <g data-overlay="">{tracker(f, 1.2)}</g>
      </g>
    );
  });
}

/** A confirmed buy with its stop (1.5 ATR) and a 2:1 target, in the window where the target is reached. */
function tradePlan() {
  for (const s of SWING.filter((sig) => sig.dir > 0 && sig.index > 40)) {
    const entry = P[s.index]!.close;
    const risk = 1.5 * RANGE[s.index]!;
    const hit = P.findIndex((c, i) => i > s.index && c.high >= entry + 2 * risk);
    const stopped = P.findIndex((c, i) => i > s.index && c.low <= entry - risk);
    if (hit < 0 || (stopped >= 0 && stopped < hit)) continue;
    const f = frame(s.index - 40, Math.min(N, hit + 8), undefined, [P.map(() => entry + 2 * risk), P.map(() => entry - risk)]);
    const box = (top: number, bottom: number, c: string, text: string) => (
      <g key={text}>
        <rect x={r(f.x(s.index))} y={r(f.y(top))} width={r(f.x(hit) - f.x(s.index))} height={r(f.y(bottom) - f.y(top))} fill={c} fillOpacity={0.16} />
        <text x={r(f.x(hit) + 4)} y={r((f.y(top) + f.y(bottom)) / 2 + 3)} fill={c} fontSize={7} fontWeight={700}>
          {text}
        </text>
      </g>
    );
    return chart(f, () => (
      <>
        {line(f, MID, BLUE, 1, { opacity: 0.7 })}
        {box(entry + 2 * risk, entry, UP, 'Target 2R')}
        {box(entry, entry - risk, DOWN, 'Stop 1R')}
        {badge(f, s)}
      </>
    ));
  }
  return chart(frame(0, N), () => null);
}

const LAST_HIGH = swings(P, 14).filter((s) => s.dir > 0).at(-1)!;
const LAST_LOW = swings(P, 14).filter((s) => s.dir < 0).at(-1)!;

/** Swing labels (HH/HL/LH/LL), premium and discount halves of the latest range. */
function smc(f: Frame) {
  const pivots = swings(P, 14);
  const x0 = r(f.x(Math.max(LAST_HIGH.index, LAST_LOW.index)));
  const mid = (LAST_HIGH.price + LAST_LOW.price) / 2;
  const half = (top: number, bottom: number, c: string, text: string, labelY: number) => (
    <g key={text}>
      <rect x={x0} y={r(f.y(top))} width={r(f.r - x0)} height={r(f.y(bottom) - f.y(top))} fill={c} fillOpacity={0.08} />
      <text x={f.r - 3} y={r(labelY)} textAnchor="end" fontSize={7} fill={c} {...halo}>
        {text}
      </text>
    </g>
  );
  // separate children, not one array, so that keys only need to be unique within each layer
  return (
    <>
      {half(LAST_HIGH.price, mid, DOWN, 'Premium', f.y(LAST_HIGH.price) + 9)}
      {half(mid, LAST_LOW.price, UP, 'Discount', f.y(LAST_LOW.price) - 3)}
      {zones(f, BLOCKS)}
      {breaks(f)}
      {pivots.filter(inView(f)).map((s) => {
      const before = pivots.filter((p) => p.dir === s.dir && p.index < s.index).at(-1);
      const higher = !before || s.price > before.price;
      return (
        <text key={s.index} x={r(f.x(s.index))} y={r(f.y(s.price) - s.dir * 5 + (s.dir < 0 ? 3 : 0))} textAnchor="middle" fontSize={7} fill={MUTED} {...halo}>
          {(higher ? 'H' : 'L') + (s.dir > 0 ? 'H' : 'L')}
        </text>
      );
      })}
    </>
  );
}

const BAND = volatilityChannel(P, 20, 2);

/** Reversal diamonds outside the volatility channel (a label only where the last one is not right next to it). */
function reversals(f: Frame) {
  const signals = reversalSignals(P, 8, 6, 4).filter(inView(f));
  return (
    <>
      <g opacity={0.6}>
        {line(f, BAND.upper, BLUE, 0.9, { strokeDasharray: '3 2' })}
        {line(f, BAND.basis, MUTED, 0.7)}
        {line(f, BAND.lower, BLUE, 0.9, { strokeDasharray: '3 2' })}
      </g>
      {signals.map((s) => {
        const crowded = signals.some((o) => o.dir === s.dir && o.index < s.index && s.index - o.index < 8);
        const x = r(f.x(s.index));
        const y = f.y(s.dir > 0 ? P[s.index]!.low : P[s.index]!.high) + s.dir * 6;
        return (
          <g key={s.index} fill={color(s.dir)}>
            <path d={`M${x} ${r(y - 3.5)}l3.5 3.5-3.5 3.5-3.5-3.5Z`} />
            {!crowded && (
              <text x={x} y={r(y + s.dir * 9 + 2.5)} textAnchor="middle" fontSize={7.5} fontWeight={700} {...halo}>
                {s.dir > 0 ? 'Rev Buy' : 'Rev Sell'}
              </text>
            )}
          </g>
        );
      })}
    </>
  );
}

const PRICE_AND_PANE: [number, number, number, number] = [4, 8, W - 42, 148];

const DRAW: Record<IndicatorKind, () => ReactNode> = {
  'order-blocks': () => chart(frame(60, N), (f) => zones(f, BLOCKS, 'OB'), true),
  'fair-value-gaps': () => chart(frame(85, N), (f) => zones(f, GAPS, 'FVG'), true),
  'smart-money-oscillator': () => {
    const f = frame(80, N, PRICE_AND_PANE);
    return chart(f, () => oscPane(f, 158, H - 8));
  },
  'adaptive-trend-tracker': () => chart(frame(55, 142, undefined, [TRACKER.line]), (f) => tracker(f)),
  'swing-signals': () =>
    chart(frame(85, N, undefined, [MID]), (f) => (
      <>
        {line(f, MID, BLUE, 1, { opacity: 0.7 })}
        {SWING.filter(inView(f)).map((s) => badge(f, s))}
      </>
    )),
  'reversal-signals': () => chart(frame(40, 125, undefined, [BAND.upper, BAND.lower]), reversals),
  'adaptive-cloud': () => chart(frame(40, 140, undefined, [CLOUD.fast, CLOUD.slow]), (f) => cloud(f), true),
  'smart-money-concepts': () => chart(frame(25, N), smc, true),
  'screener-dashboard': screener,
  'beyond-indicators': collage,
  hero: () =>
    chart(frame(40, N, undefined, [CLOUD.fast, CLOUD.slow]), (f) => (
      <>
        {cloud(f, 0.12)}
        {zones(f, BLOCKS.filter((z) => z.end < 0))}
        {breaks(f)}
        {SWING.filter(inView(f)).map((s) => badge(f, s))}
      </>
    )),
  'pro-toolkits': () => {
    const f = frame(70, N, PRICE_AND_PANE);
    return chart(f, () => (
      <>
        {zones(f, BLOCKS)}
        {zones(f, GAPS.filter((g) => g.end < 0))}
        {breaks(f)}
        {oscPane(f, 158, H - 8)}
      </>
    ));
  },
  'any-setup': minis,
  'built-to-succeed': tradePlan,
};

// The carousel shows each chart twice and the page mounts up to ~20 at once: draw each kind once.
const drawn = new Map<IndicatorKind, ReactNode>();
function draw(kind: IndicatorKind) {
  if (!drawn.has(kind)) drawn.set(kind, DRAW[kind]());
  return drawn.get(kind);
}

/** An original chart illustration, drawn as SVG from the bundled sample prices. */
export function IndicatorChart({ kind, className, title }: { kind: IndicatorKind; className?: string; title?: string }) {
  const body = useMemo(() => draw(kind), [kind]);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" height="100%" role="img" aria-label={title ?? `${kind.replace(/-/g, ' ')} chart`} className={className} fontSize={8}>
      <rect width={W} height={H} fill="#0b1120" />
      {body}
    </svg>
  );
}
