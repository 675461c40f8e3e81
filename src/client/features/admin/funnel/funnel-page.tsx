import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { conversion, FUNNEL_STEP_LABELS, FUNNEL_STEPS, SOURCE_KIND_LABELS, SOURCE_KINDS, type FunnelReport, type FunnelSourceRow } from '@shared/funnel';
import { DataTable, type Column } from '@client/components/data-table';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { AdminPageHeader, LoadError, PeriodSelect } from '@client/components/console/admin-page';
import { useFunnel } from './funnel-api';

const WINDOWS = [7, 30, 90] as const;
const STEP_COLOURS = ['#64748b', '#3b82f6', '#22c55e', '#a855f7', '#f59e0b', '#14b8a6'];

/** Each step's total with its share of the step before it. */
function Steps({ report }: { report: FunnelReport }) {
  return (
    <ol className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Funnel steps">
      {FUNNEL_STEPS.map((step, index) => {
        const previous = index > 0 ? report[FUNNEL_STEPS[index - 1]!] : null;
        const share = previous === null ? null : conversion(report[step], previous);
        return (
          <li key={step} className="rounded-xl border border-border p-3" data-step={step}>
            <p className="text-xs text-muted">{FUNNEL_STEP_LABELS[step]}</p>
            <p className="text-2xl font-bold text-white">{report[step]}</p>
            <p className="text-xs text-muted">{share === null ? (step === 'visits' ? `${report.visitors} browsers` : '—') : `${share} % of the step before`}</p>
          </li>
        );
      })}
    </ol>
  );
}

/** The steps per day as grouped bars; the table under it has the same numbers. */
function DailyChart({ report }: { report: FunnelReport }) {
  const data = report.byDay.map((day) => ({ ...day, day: day.day.slice(5) }));
  return (
    <div className="h-72 w-full" role="img" aria-label={`Funnel steps per day, last ${report.days} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="rgba(255,255,255,0.06)" vertical={false} />
          <XAxis dataKey="day" tick={{ fill: '#94a3b8', fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={{ fill: '#94a3b8', fontSize: 11 }} width={40} />
          <Tooltip
            contentStyle={{
              background: '#0f172a',
              border: '1px solid rgba(255,255,255,0.1)',
              borderRadius: 8,
            }}
          />
          <Legend />
          {FUNNEL_STEPS.map((step, index) => (
            <Bar key={step} dataKey={step} name={FUNNEL_STEP_LABELS[step]} fill={STEP_COLOURS[index % STEP_COLOURS.length]} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

const DAY_COLUMNS: Column<FunnelReport['byDay'][number]>[] = [
  { header: 'Day', cell: (day) => day.day },
  ...FUNNEL_STEPS.map((step) => ({
    header: FUNNEL_STEP_LABELS[step],
    className: 'text-right',
    cell: (day: FunnelReport['byDay'][number]) => day[step],
  })),
];

const NONE: Record<FunnelSourceRow['kind'], string> = {
  utm: 'No UTM (direct)',
  affiliate: 'No affiliate',
  promotion: 'No code',
  priceList: '—',
};

const SOURCE_COLUMNS: Column<FunnelSourceRow>[] = [
  {
    header: 'Source',
    cell: (row) => (row.value === '' ? <span className="text-muted">{NONE[row.kind]}</span> : <span className="font-mono">{row.value}</span>),
  },
  { header: 'Visits', className: 'text-right', cell: (row) => row.visits },
  {
    header: 'Checkouts started',
    className: 'text-right',
    cell: (row) => row.checkoutsStarted,
  },
  { header: 'Paid', className: 'text-right', cell: (row) => row.paid },
  {
    header: 'Paid of started',
    className: 'text-right',
    cell: (row) => (conversion(row.paid, row.checkoutsStarted) === null ? '—' : `${conversion(row.paid, row.checkoutsStarted)} %`),
  },
];

export function FunnelPage() {
  const [days, setDays] = useState<number>(30);
  const funnel = useFunnel(days);
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Funnel" description="From a landing visit to access: people only (crawlers left out), counted without third-party scripts; days in UTC.">
        <PeriodSelect label="Window" unit="days" options={WINDOWS} value={days} onChange={setDays} />
      </AdminPageHeader>
      {funnel.isPending ? (
        <Spinner label="Loading the funnel..." />
      ) : funnel.isError ? (
        <LoadError what="the funnel" />
      ) : (
        <>
          <Card aria-labelledby="funnel-steps" className="space-y-4">
            <CardTitle id="funnel-steps">
              Steps, {funnel.data.from} – {funnel.data.to}
            </CardTitle>
            <Steps report={funnel.data} />
            <DailyChart report={funnel.data} />
            <DataTable columns={DAY_COLUMNS} rows={[...funnel.data.byDay].reverse()} rowKey={(day) => day.day} caption="Funnel steps per day" look="compact" />
          </Card>
          <Card aria-labelledby="funnel-sources" className="space-y-4">
            <CardTitle id="funnel-sources">By source</CardTitle>
            <CardDescription>
              Visits by the landing address's tags; checkouts started in the window by the tags, code, affiliate and price list they carried, and how many of them were paid.
            </CardDescription>
            {SOURCE_KINDS.map((kind) => {
              const rows = funnel.data.bySource.filter((row) => row.kind === kind);
              return (
                <section key={kind} aria-label={SOURCE_KIND_LABELS[kind]} className="space-y-2">
                  <h3 className="text-sm font-semibold">{SOURCE_KIND_LABELS[kind]}</h3>
                  {rows.length === 0 ? (
                    <p className="text-sm text-muted">Nothing in this window.</p>
                  ) : (
                    <DataTable columns={SOURCE_COLUMNS} rows={rows} rowKey={(row) => `${row.kind}:${row.value}`} caption={SOURCE_KIND_LABELS[kind]} look="compact" />
                  )}
                </section>
              );
            })}
          </Card>
        </>
      )}
    </div>
  );
}
