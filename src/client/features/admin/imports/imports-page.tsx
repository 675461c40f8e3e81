import { Link } from 'react-router';
import type { ImportLine } from '@shared/imports';
import type { ImportsOverview } from '@shared/imports-contract';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { AdminPageHeader, LoadError } from '@client/components/console/admin-page';
import { dateTimeText } from '@client/lib/console-format';
import { useImports } from './imports-api';

type Run = ImportsOverview['runs'][number];
type Member = ImportsOverview['members'][number];

const SOURCE_LABEL = { stripe: 'Stripe', tradingview: 'TradingView' } as const;

const RUN_COLUMNS: Column<Run>[] = [
  { header: 'Started', className: 'text-muted', cell: (run) => dateTimeText(run.startedAt) },
  { header: 'Source', className: 'font-medium text-white', cell: (run) => SOURCE_LABEL[run.source] },
  { header: 'Kind', cell: (run) => (run.dryRun ? <Badge tone="blue">dry run</Badge> : <Badge tone="green">real</Badge>) },
  { header: 'Read', cell: (run) => run.report.read },
  { header: 'Created / adopted', cell: (run) => run.report.created.length },
  { header: 'Unchanged', cell: (run) => run.report.unchanged },
  { header: 'Matched', cell: (run) => run.report.matched.length },
  { header: 'Unmatched', cell: (run) => run.report.unmatched.length },
  { header: 'Conflicts', cell: (run) => run.report.conflicts.length },
  { header: 'Outcome', cell: (run) => (run.report.error ? <Badge tone="red">stopped</Badge> : run.finishedAt ? <Badge tone="neutral">finished</Badge> : <Badge tone="yellow">running</Badge>) },
];

const MEMBER_COLUMNS: Column<Member>[] = [
  { header: 'When', className: 'text-muted', cell: (member) => dateTimeText(member.importedAt) },
  {
    header: 'Member',
    cell: (member) => (
      <Link to={`/admin/members/${member.userId}`} className="hover:text-primary">
        {member.email}
      </Link>
    ),
  },
  { header: 'From', cell: (member) => SOURCE_LABEL[member.source] },
  { header: 'What', className: 'text-muted', cell: (member) => `${member.sourceRef}${member.detail ? ` · ${member.detail}` : ''}` },
];

function ReportList({ title, lines }: { title: string; lines: ImportLine[] }) {
  if (lines.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-white">
        {title} ({lines.length})
      </summary>
      <ul className="mt-2 space-y-1 text-muted">
        {lines.map((line, index) => (
          <li key={index}>
            <span className="text-foreground">{line.subject}</span>: {line.detail}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The latest run's report in full: what it did (or would do), and what it left to the operator. */
function LatestReport({ run }: { run: Run }) {
  const { report } = run;
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold text-white">
        Latest run: {SOURCE_LABEL[run.source]} {run.dryRun ? '(dry run: nothing was changed)' : ''} · {dateTimeText(run.startedAt)}
      </h2>
      {report.error ? (
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-300">
          Stopped: {report.error}. What is listed was done; run the same command again to continue.
        </p>
      ) : null}
      <ReportList title={run.dryRun ? 'Would be done' : 'Done'} lines={report.created} />
      <ReportList title="Usernames matched" lines={report.matched} />
      <ReportList title="Unmatched access (left alone)" lines={report.unmatched} />
      <ReportList title="Conflicts" lines={report.conflicts} />
    </Card>
  );
}

export function ImportsPage() {
  const imports = useImports();
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Import"
        description="Runs of npm run import -- stripe|tradingview [--dry-run] [--map file.csv] on the server, and the members they brought in."
      />
      {imports.isPending ? (
        <Spinner label="Loading the imports..." />
      ) : imports.isError ? (
        <LoadError what="the imports" />
      ) : imports.data.runs.length === 0 ? (
        <Card>
          <p className="text-sm text-muted">No import yet. Start with a dry run on the server: npm run import -- stripe --dry-run</p>
        </Card>
      ) : (
        <>
          <LatestReport run={imports.data.runs[0]!} />
          <Card className="space-y-4">
            <h2 className="font-semibold text-white">Runs</h2>
            <DataTable columns={RUN_COLUMNS} rows={imports.data.runs} rowKey={(run) => run.id} />
          </Card>
          <Card className="space-y-4">
            <h2 className="font-semibold text-white">Imported members</h2>
            <DataTable columns={MEMBER_COLUMNS} rows={imports.data.members} rowKey={(member) => `${member.source}:${member.sourceRef}`} />
            {imports.data.members.length === 0 ? <p className="text-sm text-muted">No member imported yet.</p> : null}
          </Card>
        </>
      )}
    </div>
  );
}
