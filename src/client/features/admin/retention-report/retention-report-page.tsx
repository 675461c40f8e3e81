import { useState, type ReactElement, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '@shared/plans';
import { CANCELLATION_OUTCOME_LABELS, CANCELLATION_OUTCOMES, CANCELLATION_REASON_LABELS } from '@shared/retention';
import { addMonths, CHURN_KIND_LABELS, CHURN_KINDS, monthKey, MRR_MOVEMENT_LABELS, MRR_MOVEMENTS, REPORT_MONTHS_MAX, type RetentionReport } from '@shared/retention-report';
import { DataTable, type Column } from '@client/components/data-table';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { AdminPageHeader, LoadError, PeriodSelect } from '@client/components/console/admin-page';
import { CsvDownload } from '../components/csv-download';
import { dateTimeText, planLabel } from '@client/lib/console-format';
import { useRetentionReport } from './retention-report-api';

const WINDOWS = [3, 6, 12, REPORT_MONTHS_MAX] as const;
const COLOURS = ['#3b82f6', '#f59e0b', '#a855f7', '#64748b', '#22c55e'];
const AXIS = { fill: '#94a3b8', fontSize: 11 };
const TOOLTIP = { contentStyle: { background: '#0f172a', border: '1px solid rgba(255,255,255,0.1)', borderRadius: 8 } };

const share = (value: number | null) => (value === null ? '—' : `${value} %`);

/** A chart the table under it says in numbers; `label` names it for screen readers. */
function Chart({ label, children }: { label: string; children: ReactElement }) {
  return (
    <div className="h-64 w-full" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

function Section({ id, title, description, children, action }: { id: string; title: string; description: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card aria-labelledby={id} className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle id={id}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {action}
      </div>
      {children}
    </Card>
  );
}

/** Cohorts as a table shaded by share, the way a vendor scans it: darker is more members kept. */
function Cohorts({ report }: { report: RetentionReport }) {
  const width = Math.max(0, ...report.cohorts.map((row) => row.after.length));
  if (report.cohorts.length === 0) return <p className="text-sm text-muted">No first payments in these months.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Share of each cohort with access after 1, 2, 3… months</caption>
        <thead className="text-muted">
          <tr>
            <th className="py-1 pr-3 font-medium">First paid</th>
            <th className="py-1 pr-3 text-right font-medium">Members</th>
            {Array.from({ length: width }, (_, index) => (
              <th key={index} className="px-1 py-1 text-right font-medium">
                {index + 1} mo
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.cohorts.map((row) => (
            <tr key={row.cohort} className="border-t border-border" data-cohort={row.cohort}>
              <td className="py-1 pr-3">{row.cohort}</td>
              <td className="py-1 pr-3 text-right">{row.members}</td>
              {Array.from({ length: width }, (_, index) => {
                const cell = row.after[index];
                return (
                  <td
                    key={index}
                    className="px-1 py-1 text-right"
                    style={cell?.share != null ? { background: `rgba(34,197,94,${(cell.share / 100) * 0.6})` } : undefined}
                    title={cell ? `${cell.retained} of ${cell.eligible}` : undefined}
                  >
                    {cell ? share(cell.share) : ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const CHURN_COLUMNS: Column<RetentionReport['churn'][number]>[] = [
  { header: 'Month', cell: (row) => row.month },
  { header: 'Paying at start', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.payingAtStart },
  ...CHURN_KINDS.map((kind) => ({ header: CHURN_KIND_LABELS[kind], className: 'text-right', headerClassName: 'text-right', cell: (row: RetentionReport['churn'][number]) => row[kind] })),
  { header: 'Churn rate', className: 'text-right', headerClassName: 'text-right', cell: (row) => share(row.rate) },
];

const REASON_COLUMNS: Column<RetentionReport['reasons'][number]>[] = [
  { header: 'Reason', cell: (row) => CANCELLATION_REASON_LABELS[row.reason] },
  { header: 'In all', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.total },
  ...CANCELLATION_OUTCOMES.map((outcome) => ({ header: CANCELLATION_OUTCOME_LABELS[outcome], className: 'text-right', headerClassName: 'text-right', cell: (row: RetentionReport['reasons'][number]) => row[outcome] })),
];

const money = (amount: number, currency: string) => formatMoney(amount, currency);
const MRR_COLUMNS: Column<RetentionReport['mrr'][number]>[] = [
  { header: 'Month', cell: (row) => row.month },
  { header: 'At start', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.start, row.currency) },
  ...MRR_MOVEMENTS.map((kind) => ({ header: MRR_MOVEMENT_LABELS[kind], className: 'text-right', headerClassName: 'text-right', cell: (row: RetentionReport['mrr'][number]) => money(row[kind], row.currency) })),
  { header: 'At end', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.end, row.currency) },
];

const LTV_COLUMNS: Column<RetentionReport['lifetimeValue'][number]>[] = [
  { header: 'First plan', cell: (row) => planLabel(row.plan) },
  { header: 'Members', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.members },
  { header: 'Paid in all', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.revenue, row.currency) },
  { header: 'LTV (per member)', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.perMember, row.currency) },
];

const TRIAL_COLUMNS: Column<RetentionReport['trials'][number]>[] = [
  { header: 'Month ended', cell: (row) => row.month },
  { header: 'Converted', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.converted },
  { header: 'Canceled', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.canceled },
  { header: 'Conversion', className: 'text-right', headerClassName: 'text-right', cell: (row) => share(row.rate) },
];

const REVERSAL_COLUMNS: Column<RetentionReport['reversals'][number]>[] = [
  { header: 'Month paid', cell: (row) => row.month },
  { header: 'Orders', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.orders },
  { header: 'Refunded', className: 'text-right', headerClassName: 'text-right', cell: (row) => `${row.refunded} (${share(row.refundRate)})` },
  { header: 'Disputed', className: 'text-right', headerClassName: 'text-right', cell: (row) => `${row.disputed} (${share(row.disputeRate)})` },
];

const CODE_COLUMNS: Column<RetentionReport['promotions'][number]>[] = [
  { header: 'Code', cell: (row) => <span className="font-mono">{row.code}</span> },
  { header: 'Paid orders', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.orders },
  { header: 'Revenue', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.revenue, row.currency) },
  { header: 'Discount given', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.discount, row.currency) },
];

const AFFILIATE_COLUMNS: Column<RetentionReport['affiliates'][number]>[] = [
  { header: 'Affiliate', cell: (row) => <span className="font-mono">{row.code}</span> },
  { header: 'Paid orders', className: 'text-right', headerClassName: 'text-right', cell: (row) => row.orders },
  { header: 'Revenue', className: 'text-right', headerClassName: 'text-right', cell: (row) => money(row.revenue, row.currency) },
];

function Table<Row>({ rows, columns, rowKey, caption, empty }: { rows: readonly Row[]; columns: Column<Row>[]; rowKey: (row: Row) => string; caption: string; empty: string }) {
  return rows.length === 0 ? <p className="text-sm text-muted">{empty}</p> : <DataTable columns={columns} rows={rows} rowKey={rowKey} caption={caption} look="compact" />;
}

function Numbers({ report }: { report: RetentionReport }) {
  const currencies = [...new Set(report.mrr.map((row) => row.currency))];
  return (
    <>
      <Section id="retention-cohorts" title="Cohorts" description="Members by month of first payment, and the share of them with access 1, 2, 3… months later (hover a cell for the counts).">
        <Cohorts report={report} />
      </Section>

      <Section id="retention-churn" title="Churn" description="Paying members whose access ended in each month with no other access, by why: they canceled, or their payment failed; the rate is of those paying at the month's start.">
        <Chart label="Members lost per month, by kind">
          <BarChart data={report.churn} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="rgba(255,255,255,0.06)" vertical={false} />
            <XAxis dataKey="month" tick={AXIS} />
            <YAxis allowDecimals={false} tick={AXIS} width={40} />
            <Tooltip {...TOOLTIP} />
            <Legend />
            {CHURN_KINDS.map((kind, index) => (
              <Bar key={kind} dataKey={kind} name={CHURN_KIND_LABELS[kind]} stackId="churn" fill={COLOURS[index]} />
            ))}
          </BarChart>
        </Chart>
        <DataTable columns={CHURN_COLUMNS} rows={report.churn} rowKey={(row) => row.month} caption="Churn per month" look="compact" />
      </Section>

      <Section id="retention-reasons" title="Churn reasons" description="What members chose in the cancellation flow in these months, and whether they left, took the discount or paused." action={<CsvDownload kind="churn-reasons" />}>
        <Chart label="Cancellations per reason">
          <BarChart data={report.reasons.map((row) => ({ ...row, label: CANCELLATION_REASON_LABELS[row.reason] }))} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="rgba(255,255,255,0.06)" vertical={false} />
            <XAxis dataKey="label" tick={AXIS} interval={0} />
            <YAxis allowDecimals={false} tick={AXIS} width={40} />
            <Tooltip {...TOOLTIP} />
            <Legend />
            {CANCELLATION_OUTCOMES.map((outcome, index) => (
              <Bar key={outcome} dataKey={outcome} name={CANCELLATION_OUTCOME_LABELS[outcome]} stackId="reasons" fill={COLOURS[index]} />
            ))}
          </BarChart>
        </Chart>
        <DataTable columns={REASON_COLUMNS} rows={report.reasons} rowKey={(row) => row.reason} caption="Cancellations per reason" look="compact" />
      </Section>

      <Section id="retention-mrr" title="MRR movement" description="Monthly recurring revenue of paying members at each month's start and end, and what moved it: new members, upgrades, downgrades, churn and members who came back.">
        {currencies.length === 0 ? <p className="text-sm text-muted">No recurring revenue in these months.</p> : null}
        {currencies.map((currency) => {
          const rows = report.mrr.filter((row) => row.currency === currency);
          return (
            <section key={currency} aria-label={`MRR movement in ${currency.toUpperCase()}`} className="space-y-2">
              <h3 className="text-sm font-semibold">{currency.toUpperCase()}</h3>
              <Chart label={`MRR movement per month in ${currency.toUpperCase()}`}>
                <BarChart data={rows.map((row) => ({ ...row, ...Object.fromEntries(MRR_MOVEMENTS.map((kind) => [kind, row[kind] / 100])) }))} stackOffset="sign" margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                  <CartesianGrid stroke="rgba(255,255,255,0.06)" vertical={false} />
                  <XAxis dataKey="month" tick={AXIS} />
                  <YAxis tick={AXIS} width={56} />
                  <Tooltip {...TOOLTIP} />
                  <Legend />
                  <ReferenceLine y={0} stroke="#475569" />
                  {MRR_MOVEMENTS.map((kind, index) => (
                    <Bar key={kind} dataKey={kind} name={MRR_MOVEMENT_LABELS[kind]} stackId="mrr" fill={['#22c55e', '#3b82f6', '#f59e0b', '#ef4444', '#a855f7'][index]} />
                  ))}
                </BarChart>
              </Chart>
              <DataTable columns={MRR_COLUMNS} rows={rows} rowKey={(row) => row.month} caption={`MRR movement in ${currency.toUpperCase()}`} look="compact" />
            </section>
          );
        })}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section id="retention-ltv" title="LTV per plan" description="What members paid in all (refunds left out), by the plan of their first payment; all time.">
          <Table rows={report.lifetimeValue} columns={LTV_COLUMNS} rowKey={(row) => `${row.plan} ${row.currency}`} caption="Lifetime value per plan" empty="No payments yet." />
        </Section>
        <Section id="retention-trials" title="Trial conversion" description="Trials that ended in each month: converted to a paid plan, or canceled.">
          <DataTable columns={TRIAL_COLUMNS} rows={report.trials} rowKey={(row) => row.month} caption="Trial conversion per month" look="compact" />
        </Section>
        <Section id="retention-reversals" title="Refunds and disputes" description="Orders of each month and how many of them were refunded or disputed since.">
          <DataTable columns={REVERSAL_COLUMNS} rows={report.reversals} rowKey={(row) => row.month} caption="Refunds and disputes per month" look="compact" />
        </Section>
        <Section id="retention-sources" title="Revenue per code and affiliate" description="Paid orders in these months with a promotion code, and of members an affiliate brought (their renewals too).">
          <Table rows={report.promotions} columns={CODE_COLUMNS} rowKey={(row) => `${row.code} ${row.currency}`} caption="Revenue per promotion code" empty="No orders with a promotion code." />
          <Table rows={report.affiliates} columns={AFFILIATE_COLUMNS} rowKey={(row) => `${row.code} ${row.currency}`} caption="Revenue per affiliate" empty="No orders of referred members." />
        </Section>
      </div>
    </>
  );
}

export function RetentionReportPage() {
  const [months, setMonths] = useState<number>(12);
  const to = monthKey(new Date());
  const report = useRetentionReport({ from: addMonths(to, -(months - 1)), to });
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Retention" description="Who stays, who leaves and why, and what it does to revenue; months in UTC, recounted hourly.">
        <PeriodSelect label="Months" unit="months" options={WINDOWS} value={months} onChange={setMonths} />
      </AdminPageHeader>
      {report.isPending ? (
        <Spinner label="Loading the retention numbers..." />
      ) : report.isError ? (
        <LoadError what="the retention numbers" />
      ) : (
        <>
          <p className="text-xs text-muted">
            {report.data.from} – {report.data.to}, counted {dateTimeText(report.data.computedAt)}
          </p>
          <Numbers report={report.data} />
        </>
      )}
    </div>
  );
}
