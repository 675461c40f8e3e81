import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Overview } from '@shared/admin-contract';
import { formatMoney, minorUnitDivisor } from '@shared/plans';

const CURRENCY_COLOURS = ['#22c55e', '#3b82f6', '#a855f7', '#f59e0b'];

/** Daily revenue (bars, one per currency) and members with access (line) over the chart's days. */
export function ActivityChart({ points }: { points: Overview['chart'] }) {
  const currencies = [...new Set(points.flatMap((point) => Object.keys(point.revenue)))].sort();
  const data = points.map((point) => ({
    day: point.day.slice(5),
    members: point.members,
    ...Object.fromEntries(currencies.map((currency) => [currency, (point.revenue[currency] ?? 0) / minorUnitDivisor(currency)])),
  }));
  return (
    <div className="h-72 w-full" aria-label="Daily revenue and active members, last 90 days" role="img">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="rgba(255,255,255,0.06)" vertical={false} />
          <XAxis dataKey="day" tick={{ fill: '#94a3b8', fontSize: 11 }} interval={13} />
          <YAxis yAxisId="money" tick={{ fill: '#94a3b8', fontSize: 11 }} width={56} />
          <YAxis yAxisId="members" orientation="right" allowDecimals={false} tick={{ fill: '#94a3b8', fontSize: 11 }} width={40} />
          <Tooltip
            contentStyle={{ background: '#0f172a', border: '1px solid rgba(255,255,255,0.1)', borderRadius: 8 }}
            formatter={(value, name) => (typeof value === 'number' && currencies.includes(String(name)) ? formatMoney(Math.round(value * minorUnitDivisor(String(name))), String(name)) : value)}
          />
          <Legend />
          {currencies.map((currency, index) => (
            <Bar key={currency} yAxisId="money" dataKey={currency} name={currency} stackId="revenue" fill={CURRENCY_COLOURS[index % CURRENCY_COLOURS.length]} />
          ))}
          <Line yAxisId="members" type="monotone" dataKey="members" name="Active members" stroke="#e2e8f0" dot={false} strokeWidth={2} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
