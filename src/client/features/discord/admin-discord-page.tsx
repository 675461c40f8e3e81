// The console's Discord page (/admin/discord), the Discord integration's own (decision 046),
// registered by the app shell: the counts, the linked accounts with failures first and "Retry
// now", the audit and its repairs.
import { Link, useSearchParams } from 'react-router';
import { withChanges } from '@client/lib/search-params';
import type { DiscordAccount, DiscordRepairs } from '@shared/admin-contract';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { AdminPageHeader, LoadError, Pager } from '@client/components/console/admin-page';
import { ConfirmAction } from '@client/components/console/confirm-action';
import { dateTimeText, roleChangeLabel } from '@client/lib/console-format';
import { useDiscordAccounts, useDiscordOverview, useDiscordRepairs, useDiscordRoles, useRetryDiscordAccount, useRunDiscordAudit, type DiscordAccountsFilter } from './discord-console-api';
import { AccountLinkBadge, AccountStatusBadge, GivenNames } from '@client/components/console/linked-account';
import { RoleNamesUnavailable } from './discord-roles';

function Counts() {
  const overview = useDiscordOverview();
  if (overview.isPending) return <Spinner label="Loading the counts..." />;
  if (overview.isError) return <LoadError what="the Discord counts" />;
  const { adapter, linkedMembers, synced, pending, failing } = overview.data;
  const figures = [
    { label: 'Linked members', value: linkedMembers },
    { label: 'Synced', value: synced },
    { label: 'Pending', value: pending },
    { label: 'Failing', value: failing },
  ];
  return (
    <Card role="region" aria-label="Discord at a glance" className="space-y-3">
      {adapter === 'sandbox' ? <Badge tone="purple">sandbox guild</Badge> : null}
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label}>
            <dt className="text-sm text-muted">{figure.label}</dt>
            <dd className={figure.label === 'Failing' && figure.value > 0 ? 'text-2xl font-semibold text-danger' : 'text-2xl font-semibold text-white'}>{figure.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function RetryButton({ row }: { row: DiscordAccount }) {
  const retry = useRetryDiscordAccount();
  return (
    <ConfirmAction
      label="Retry now"
      title={`Retry ${row.username} now`}
      description="The reconciler tries this account's roles again right away instead of waiting out its back-off."
      confirmLabel="Retry now"
      run={() => retry.mutateAsync(row.id)}
    />
  );
}

const ACCOUNT_COLUMNS: Column<DiscordAccount>[] = [
  {
    header: 'Member',
    cell: (row) => (
      <Link to={`/admin/members/${row.userId}`} className="font-medium text-white hover:text-primary">
        {row.email}
      </Link>
    ),
  },
  { header: 'Discord', cell: (row) => row.username },
  { header: 'Link', cell: (row) => <AccountLinkBadge current={row.current} /> },
  { header: 'Roles wanted', cell: (row) => <GivenNames items={row.wantedRoles} /> },
  { header: 'Roles held', cell: (row) => <GivenNames items={row.heldRoles} /> },
  { header: 'Status', cell: (row) => <AccountStatusBadge status={row.status} gives="roles" /> },
  { header: 'Attempts', cell: (row) => row.attempts },
  { header: 'Last error', className: 'text-danger', cell: (row) => row.lastError ?? '—' },
  { header: 'Next retry', className: 'text-muted', cell: (row) => dateTimeText(row.nextAttemptAt) },
  { header: 'Action', cell: (row) => (row.status === 'failed' ? <RetryButton row={row} /> : null) },
];

/** The filter lives in the address, like the members list's. */
function filterFrom(params: URLSearchParams): DiscordAccountsFilter {
  return { failing: params.get('failing') === '1', page: Math.max(1, Number(params.get('page')) || 1) };
}

function LinkedAccounts() {
  const [params, setParams] = useSearchParams();
  const filter = filterFrom(params);
  const accounts = useDiscordAccounts(filter);
  const update = (changes: Record<string, string | undefined>) => {
    setParams(withChanges(params, changes));
  };

  return (
    <Card aria-labelledby="discord-accounts" className="space-y-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <CardTitle id="discord-accounts">Linked accounts</CardTitle>
          <CardDescription>Each member&apos;s Discord account, and an old one until its roles are off. Failing first.</CardDescription>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={filter.failing} onChange={(event) => update({ failing: event.target.checked ? '1' : undefined, page: undefined })} />
          Failing only
        </label>
      </header>
      {accounts.isPending ? (
        <Spinner label="Loading the linked accounts..." />
      ) : accounts.isError ? (
        <LoadError what="the linked accounts" />
      ) : accounts.data.accounts.length === 0 ? (
        <p className="text-sm text-muted">{filter.failing ? 'No account is failing.' : 'No member has linked Discord yet.'}</p>
      ) : (
        <>
          <DataTable columns={ACCOUNT_COLUMNS} rows={accounts.data.accounts} rowKey={(row) => row.id} caption="Linked Discord accounts" busy={accounts.isPlaceholderData} />
          <Pager page={accounts.data.page} pageSize={accounts.data.pageSize} total={accounts.data.total} onPage={(page) => update({ page: page > 1 ? String(page) : undefined })} />
        </>
      )}
    </Card>
  );
}

type Repair = DiscordRepairs['repairs'][number];

const REPAIR_COLUMNS: Column<Repair>[] = [
  { header: 'When', className: 'text-muted', cell: (row) => dateTimeText(row.repairedAt) },
  {
    header: 'Member',
    cell: (row) =>
      row.userId && row.email ? (
        <Link to={`/admin/members/${row.userId}`} className="text-white hover:text-primary">
          {row.email}
        </Link>
      ) : (
        <span className="text-muted">no member</span>
      ),
  },
  { header: 'Discord user', cell: (row) => row.username ?? <span className="font-mono text-xs">{row.discordUserId}</span> },
  { header: 'Role', cell: (row) => <GivenNames items={[row.role]} /> },
  { header: 'Change', cell: (row) => <Badge tone={row.action === 'added' ? 'green' : 'red'}>{roleChangeLabel(row.action)}</Badge> },
  { header: 'Reason', className: 'text-muted', cell: (row) => row.reason },
];

function AuditRepairs() {
  const repairs = useDiscordRepairs();
  const audit = useRunDiscordAudit();
  return (
    <Card aria-labelledby="discord-repairs" className="space-y-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <CardTitle id="discord-repairs">Audit repairs</CardTitle>
          <CardDescription>The audit reads the whole guild and repairs managed roles both ways. Its latest 20 repairs, newest first.</CardDescription>
        </div>
        <ConfirmAction
          label="Run audit now"
          title="Run the Discord audit now"
          description="Reads every member of the guild: managed roles held without access are taken away, missing ones given back. Every repair is listed here."
          confirmLabel="Run audit"
          run={() => audit.mutateAsync()}
        />
      </header>
      {repairs.isPending ? (
        <Spinner label="Loading the repairs..." />
      ) : repairs.isError ? (
        <LoadError what="the audit's repairs" />
      ) : repairs.data.repairs.length === 0 ? (
        <p className="text-sm text-muted">No repair yet: the guild has matched who pays.</p>
      ) : (
        <DataTable columns={REPAIR_COLUMNS} rows={repairs.data.repairs} rowKey={(row) => row.id} caption="Audit repairs" look="compact" />
      )}
    </Card>
  );
}

/** /admin/discord: how linked members' roles stand, the accounts to act on, and the audit's repairs. */
export function AdminDiscordPage() {
  const roles = useDiscordRoles();
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Discord" description="Roles follow payment: the reconciler gives and takes the managed roles; the audit repairs the guild." />
      <Counts />
      <RoleNamesUnavailable roles={roles.data} />
      <LinkedAccounts />
      <AuditRepairs />
    </div>
  );
}
