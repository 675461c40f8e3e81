// The console's TradingView page (/admin/tradingview), the TradingView integration's own (decision
// 046), registered by the app shell: session health, the script catalog, the grant queue and the
// reconciliation report.
import { RefreshCw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { GrantQueueItem, GrantQueuePause } from '@shared/admin-ops-contract';
import { DataTable, TableScroll, type Column } from '@client/components/data-table';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ageText, dateTimeText, grantQueueLabel } from '@client/lib/console-format';
import { useScriptCatalog } from './script-catalog-api';
import { ScriptCatalogCard } from './script-catalog-card';
import { useGrantMissing, useGrantQueue, useReconciliation, useRetryAllFailed, useRevokeUnpaid, useTradingViewHealth } from './tradingview-console-api';

const STATUS_TONE: Record<GrantQueueItem['status'], BadgeTone> = { pending: 'yellow', processing: 'blue', failed: 'red', granted: 'green', revoked: 'neutral' };

function Failure({ error }: { error: Error }) {
  return (
    <p role="alert" className="text-sm text-danger">
      {error.message}
    </p>
  );
}

/** A card's title and description, with the card's action beside them. */
function CardHeading({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <header className="flex items-start justify-between gap-4">
      <div>
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </div>
      {children}
    </header>
  );
}

function RefetchButton({ query, label }: { query: { refetch: () => unknown; isFetching: boolean }; label: string }) {
  return (
    <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
      <RefreshCw aria-hidden="true" className={query.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} />
      {label}
    </Button>
  );
}

function SessionHealth() {
  const health = useTradingViewHealth();
  // scripts by their names (the catalog's), the id under it; an id the catalog does not name is shown alone
  const names = new Map(useScriptCatalog().data?.scripts.map((script) => [script.id, script.name]));
  return (
    <Card aria-labelledby="tv-session" className="space-y-4">
      <CardHeading id="tv-session" title="Session" description="The vendor's TradingView cookie that grants and removes access.">
        <RefetchButton query={health} label="Check now" />
      </CardHeading>
      {health.isPending ? (
        <Spinner label="Checking TradingView..." />
      ) : health.isError ? (
        <Failure error={health.error} />
      ) : (
        <>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-muted">Account</dt>
              <dd>
                {health.data.account ?? 'unknown'} {health.data.adapter === 'sandbox' ? <Badge tone="purple">sandbox</Badge> : null}
              </dd>
            </div>
            <div>
              <dt className="text-muted">Status</dt>
              <dd>{health.data.ok ? <Badge tone="green">Valid</Badge> : <Badge tone="red">Not working</Badge>}</dd>
            </div>
            <div>
              <dt className="text-muted">Last checked</dt>
              <dd>{dateTimeText(health.data.checkedAt)}</dd>
            </div>
            <div>
              <dt className="text-muted">Background check</dt>
              <dd>{health.data.lastBackgroundCheckAt ? dateTimeText(health.data.lastBackgroundCheckAt) : 'not yet'}</dd>
            </div>
          </dl>
          {health.data.error ? <p className="text-sm text-danger">{health.data.error}</p> : null}
          <TableScroll>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Scripts</caption>
              <thead className="text-muted">
                <tr>
                  <th className="py-1 font-medium">Script</th>
                  <th className="py-1 font-medium">Users on TradingView</th>
                </tr>
              </thead>
              <tbody>
                {health.data.scripts.map((script) => (
                  <tr key={script.scriptId} className="border-t border-border">
                    <td className="py-1">
                      {names.get(script.scriptId) ?? null}
                      <span className={names.has(script.scriptId) ? 'block font-mono text-xs text-muted' : 'font-mono'}>{script.scriptId}</span>
                    </td>
                    <td className="py-1">{script.users ?? 'unavailable'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </Card>
  );
}

const GRANT_COLUMNS: Column<GrantQueueItem>[] = [
  { header: 'Member', cell: (row) => row.email },
  { header: 'TradingView username', className: 'font-mono', cell: (row) => row.username },
  {
    header: 'Status',
    cell: (row) => <Badge tone={STATUS_TONE[row.status]}>{grantQueueLabel(row.status, row.desired)}</Badge>,
  },
  { header: 'Age', cell: (row) => (row.failingSince ? `failing for ${ageText(row.failingSince)}` : ageText(row.createdAt)) },
  { header: 'Attempts', cell: (row) => row.attempts },
  { header: 'Last error', className: 'text-danger', cell: (row) => row.lastError ?? '' },
];

function GrantRows({ rows, label }: { rows: GrantQueueItem[]; label: string }) {
  return <DataTable columns={GRANT_COLUMNS} rows={rows} rowKey={(row) => row.id} caption={label} look="compact" />;
}

/** Why no grant is being sent: grants wait without a failure counted, and go on by themselves. */
function QueuePaused({ pause }: { pause: GrantQueuePause }) {
  const text =
    pause.reason === 'throttled'
      ? `Paused: TradingView asked us to wait${pause.until ? ` until ${dateTimeText(pause.until)}` : ''}. Grants go on by themselves then; none counts as failed.`
      : 'Paused: the TradingView session cookie expired. Set new TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_SIGN; grants go on by themselves once it works, none counts as failed.';
  return (
    <p role="status" className="rounded-md border border-warning/40 bg-warning/10 p-3 text-sm">
      {text} <span className="text-muted">({pause.detail})</span>
    </p>
  );
}

function GrantQueue() {
  const queue = useGrantQueue();
  const retry = useRetryAllFailed();
  const failed = queue.data?.grants.filter((row) => row.status === 'failed').length ?? 0;
  return (
    <Card aria-labelledby="tv-queue" className="space-y-4">
      <CardHeading id="tv-queue" title="Grant queue" description="Access still to be given or removed, oldest first.">
        <Button size="sm" onClick={() => retry.mutate()} disabled={retry.isPending || failed === 0}>
          Retry all failed
        </Button>
      </CardHeading>
      {retry.isSuccess ? <p role="status" className="text-sm text-muted">{retry.data}</p> : null}
      {retry.isError ? <Failure error={retry.error} /> : null}
      {queue.isPending ? (
        <Spinner label="Loading the queue..." />
      ) : queue.isError ? (
        <Failure error={queue.error} />
      ) : (
        <>
          {queue.data.paused ? <QueuePaused pause={queue.data.paused} /> : null}
          {queue.data.grants.length === 0 ? <p className="text-sm text-muted">Nothing waiting: every grant is done.</p> : <GrantRows rows={queue.data.grants} label="Waiting grants" />}
          <h3 className="pt-2 text-sm font-semibold">Recently completed</h3>
          {queue.data.recent.length === 0 ? <p className="text-sm text-muted">None yet.</p> : <GrantRows rows={queue.data.recent} label="Recently completed grants" />}
        </>
      )}
    </Card>
  );
}

/** A fix button that asks once more before it acts, then shows what happened. */
function FixButton({ label, confirm, run }: { label: string; confirm: string; run: () => Promise<string> }) {
  const [armed, setArmed] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (outcome) return <span className={outcome.ok ? 'text-sm text-green-400' : 'text-sm text-danger'}>{outcome.text}</span>;
  return armed ? (
    <Button
      size="sm"
      variant="danger"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        run().then(
          (text) => setOutcome({ ok: true, text }),
          (error: unknown) => setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) }),
        );
      }}
    >
      {confirm}
    </Button>
  ) : (
    <Button size="sm" variant="outline" onClick={() => setArmed(true)}>
      {label}
    </Button>
  );
}

function ReconciliationReport() {
  const report = useReconciliation();
  const revoke = useRevokeUnpaid();
  const grant = useGrantMissing();
  return (
    <Card aria-labelledby="tv-reconciliation" className="space-y-4">
      <CardHeading id="tv-reconciliation" title="Reconciliation" description="TradingView's lists against who pays. Access the vendor gave by hand is never listed or touched.">
        <RefetchButton query={report} label="Run again" />
      </CardHeading>
      {report.isPending ? (
        <Spinner label="Reading TradingView's lists..." />
      ) : report.isError ? (
        <Failure error={report.error} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <section aria-labelledby="tv-unpaid" className="space-y-2">
            <h3 id="tv-unpaid" className="text-sm font-semibold">
              On TradingView without paid access ({report.data.unpaid.length})
            </h3>
            {report.data.unpaid.length === 0 ? <p className="text-sm text-muted">None.</p> : null}
            <ul className="space-y-2">
              {report.data.unpaid.map((entry) => (
                <li key={entry.username} className="flex items-center justify-between gap-3 text-sm">
                  <span>
                    <span className="font-mono">{entry.username}</span> <span className="text-muted">{entry.members.map((member) => member.email).join(', ') || 'no member'}</span>
                  </span>
                  <FixButton label="Remove access" confirm={`Remove ${entry.username}?`} run={() => revoke.mutateAsync(entry.username)} />
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="tv-missing" className="space-y-2">
            <h3 id="tv-missing" className="text-sm font-semibold">
              Paying members missing on TradingView ({report.data.missing.length})
            </h3>
            {report.data.missing.length === 0 ? <p className="text-sm text-muted">None.</p> : null}
            <ul className="space-y-2">
              {report.data.missing.map((entry) => (
                <li key={entry.userId} className="flex items-center justify-between gap-3 text-sm">
                  <span>
                    <span className="font-mono">{entry.username}</span> <span className="text-muted">{entry.email}</span>
                  </span>
                  <FixButton label="Grant access" confirm={`Grant ${entry.username}?`} run={() => grant.mutateAsync(entry.userId)} />
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </Card>
  );
}

/** /admin/tradingview: session health, the script catalog, the grant queue and the reconciliation report. */
export function AdminTradingViewPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">TradingView</h1>
      <SessionHealth />
      <ScriptCatalogCard />
      <GrantQueue />
      <ReconciliationReport />
    </div>
  );
}
