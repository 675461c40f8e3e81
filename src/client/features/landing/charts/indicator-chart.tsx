// Placeholder until the charts engineer's version lands: deterministic candlesticks per kind.
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

const WIDTH = 400;
const HEIGHT = 225;

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function candles(kind: string, count: number) {
  const random = seeded([...kind].reduce((sum, char) => sum + char.charCodeAt(0), 0));
  let price = 100;
  return Array.from({ length: count }, () => {
    const open = price;
    const close = open + (random() - 0.47) * 6;
    const high = Math.max(open, close) + random() * 3;
    const low = Math.min(open, close) - random() * 3;
    price = close;
    return { open, close, high, low };
  });
}

export function IndicatorChart({ kind, className, title }: { kind: IndicatorKind; className?: string; title?: string }) {
  const data = candles(kind, 40);
  const max = Math.max(...data.map((c) => c.high));
  const min = Math.min(...data.map((c) => c.low));
  const y = (value: number) => 12 + ((max - value) / (max - min || 1)) * (HEIGHT - 24);
  const step = WIDTH / data.length;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className={className} role="img" aria-label={title ?? kind} preserveAspectRatio="none">
      <rect width={WIDTH} height={HEIGHT} fill="#0b1120" />
      {data.map((c, i) => {
        const up = c.close >= c.open;
        const x = i * step + step / 2;
        return (
          <g key={i} stroke={up ? '#22c55e' : '#ef4444'} fill={up ? '#22c55e' : '#ef4444'}>
            <line x1={x} x2={x} y1={y(c.high)} y2={y(c.low)} strokeWidth={1} />
            <rect x={x - step * 0.3} width={step * 0.6} y={y(Math.max(c.open, c.close))} height={Math.max(1, Math.abs(y(c.open) - y(c.close)))} />
          </g>
        );
      })}
    </svg>
  );
}
