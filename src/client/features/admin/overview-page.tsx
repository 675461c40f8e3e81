import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Overview } from '@shared/admin-contract';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { PageSpinner, Spinner } from '@client/components/ui/spinner';
import { AffiliateRevenueCard } from './affiliates';
import { useOverview } from './api/get-overview';
import { AccessChangesCard } from './components/access-changes-card';
import { IntegrationCards } from './components/integration-cards';
import { TrialsCard } from './components/trials-card';
import { AdminPageHeader, LoadError } from '@client/components/console/admin-page';
import { moneyText, planLabel } from '@client/lib/console-format';

// The chart library is the console's largest dependency: its own chunk, after the numbers.
const ActivityChart = lazy(() => import('./components/activity-chart').then((m) => ({ default: m.ActivityChart })));

/** A number that opens the list behind it. */
function Stat({ label, value, to }: { label: string; value: ReactNode; to: string }) {
  return (
    <Link to={to} className="block rounded-xl border border-border bg-black/20 p-4 transition-colors hover:bg-white/5">
      <p className="text-xs font-medium uppercase tracking-wider text-muted">{label}</p>
      <p className="mt-1 text-xl font-semibold text-white">{value}</p>
    </Link>
  );
}

const PERIODS = [
  { key: 'today', label: 'Today' },
  { key: 'days7', label: 'Last 7 days' },
  { key: 'days30', label: 'Last 30 days' },
] as const;

function RevenueCard({ revenue }: { revenue: Overview['revenue'] }) {
  return (
    <Card>
      <CardTitle>Revenue</CardTitle>
      <CardDescription>Paid orders; refunded and disputed ones are counted apart.</CardDescription>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        {PERIODS.map(({ key, label }) => (
          <div key={key} className="space-y-2">
            <Stat label={label} value={moneyText(totalsOf(revenue[key]))} to="/admin/payments?status=paid" />
            <ul className="space-y-1 text-sm">
              {revenue[key].map((line) => (
                <li key={`${line.plan}-${line.currency}`} className="flex justify-between gap-2 text-muted">
                  <Link to={`/admin/members?plan=${encodeURIComponent(line.plan)}`} className="hover:text-white">
                    {planLabel(line.plan)} · {line.orders}
                  </Link>
                  <span className="text-foreground">{moneyText([line])}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </Card>
  );
}

function totalsOf(lines: readonly { amount: number; currency: string }[]) {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.currency, (totals.get(line.currency) ?? 0) + line.amount);
  return [...totals].map(([currency, amount]) => ({ currency, amount }));
}

export function OverviewPage() {
  const overview = useOverview();
  if (overview.isPending) return <PageSpinner label="Loading the overview..." />;
  if (overview.isError) return <LoadError what="the overview" />;
  const data = overview.data;
  const activeTotal = data.activeMembers.reduce((sum, row) => sum + row.members, 0);

  return (
    <div className="space-y-6">
      <AdminPageHeader title="Overview" description="Sales, members and what needs your attention." />
      <RevenueCard revenue={data.revenue} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardTitle>Members</CardTitle>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <Stat label="Active members" value={activeTotal} to="/admin/members?status=active" />
            <Stat label="Monthly recurring revenue" value={moneyText(data.mrr)} to="/admin/members?status=active" />
            <Stat label="New (30 days)" value={data.newMembers.count} to={`/admin/members?since=${data.newMembers.since}`} />
            <Stat label="Churned (30 days)" value={data.churnedMembers} to="/admin/members?status=churned" />
          </div>
          <ul className="mt-4 space-y-1 text-sm" aria-label="Active members by plan">
            {data.activeMembers.map((row) => (
              <li key={row.plan} className="flex justify-between text-muted">
                <Link to={`/admin/members?plan=${encodeURIComponent(row.plan)}${row.plan === 'comp' ? '&status=comp' : ''}`} className="hover:text-white">
                  {planLabel(row.plan)}
                </Link>
                <span className="text-foreground">{row.members}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <CardTitle>Needs attention</CardTitle>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <Stat label="Failed renewals" value={data.attention.failedRenewals} to="/admin/members?status=past_due" />
            <Stat label="Duplicates refunded" value={data.attention.duplicatesRefunded} to="/admin/payments?status=duplicate" />
            <Stat label="Duplicates awaiting refund" value={data.attention.duplicatesPending} to="/admin/payments?status=duplicate_pending" />
            <Stat label={`Refunds (${data.refunds.count})`} value={moneyText(data.refunds.amounts)} to="/admin/payments?status=refunded" />
            <Stat label={`Disputes (${data.disputes.count})`} value={moneyText(data.disputes.amounts)} to="/admin/payments?status=disputed" />
          </div>
        </Card>
      </div>

      <TrialsCard />

      <AffiliateRevenueCard />

      <AccessChangesCard />
      <IntegrationCards />

      <Card>
        <CardTitle>Last 90 days</CardTitle>
        <Suspense fallback={<Spinner label="Loading the chart..." />}>
          <ActivityChart points={data.chart} />
        </Suspense>
      </Card>
    </div>
  );
}
