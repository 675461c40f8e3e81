import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { withChanges } from '@client/lib/search-params';
import { MEMBER_STATUSES, type MemberList, type MemberStatus } from '@shared/admin-contract';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { EmailAddress } from '@client/components/email-address';
import { useMembers, type MembersFilter } from './api/get-members';
import { AdminPageHeader, LoadError, Pager } from '@client/components/console/admin-page';
import { CsvDownload } from './components/csv-download';
import { dateText, planLabel } from '@client/lib/console-format';

export const STATUS_TONES: Record<MemberStatus, BadgeTone> = { active: 'green', comp: 'purple', past_due: 'yellow', churned: 'red', none: 'neutral' };
export const STATUS_LABELS: Record<MemberStatus, string> = { active: 'Active', comp: 'Comp', past_due: 'Renewal failed', churned: 'Churned', none: 'No plan' };

const MEMBER_COLUMNS: Column<MemberList['members'][number]>[] = [
  {
    header: 'E-mail',
    cell: (member) => (
      <span className="inline-flex flex-wrap items-center gap-2">
        <Link to={`/admin/members/${member.id}`} className="font-medium text-white hover:text-primary">
          <EmailAddress email={member.email} />
        </Link>
        {member.isOperator ? (
          <Badge tone="purple" title="An operator of this shop: their purchases and comps are not a customer's">
            Operator
          </Badge>
        ) : null}
      </span>
    ),
  },
  { header: 'TradingView', className: 'text-muted', cell: (member) => member.tradingviewUsername ?? '—' },
  { header: 'Plan', className: 'text-muted', cell: (member) => planLabel(member.plan) },
  { header: 'Status', cell: (member) => <Badge tone={STATUS_TONES[member.status]}>{STATUS_LABELS[member.status]}</Badge> },
  { header: 'Joined', className: 'text-muted', cell: (member) => dateText(member.createdAt) },
];

const isStatus = (value: string | null): value is MemberStatus => value !== null && (MEMBER_STATUSES as readonly string[]).includes(value);

/** The filter lives in the address, so the overview's numbers link straight to their lists. */
function filterFrom(params: URLSearchParams): MembersFilter {
  const status = params.get('status');
  return {
    q: params.get('q') ?? undefined,
    status: isStatus(status) ? status : undefined,
    plan: params.get('plan') ?? undefined,
    since: params.get('since') ?? undefined,
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}

export function MembersPage() {
  const [params, setParams] = useSearchParams();
  const filter = filterFrom(params);
  const [search, setSearch] = useState(filter.q ?? '');
  const members = useMembers(filter);

  const update = (changes: Record<string, string | undefined>) => {
    setParams(withChanges(params, changes));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: search.trim() || undefined, page: undefined });
  };

  return (
    <div className="space-y-6">
      <AdminPageHeader title="Members" description="Search by e-mail, TradingView username or order id (checkout session, subscription or payment).">
        <CsvDownload kind="members" />
      </AdminPageHeader>
      <Card className="space-y-4">
        <form role="search" onSubmit={submit} className="flex gap-3">
          <Input aria-label="Search members" placeholder="E-mail, TradingView username or order id" value={search} onChange={(event) => setSearch(event.target.value)} />
          <select
            aria-label="Status"
            className="h-10 rounded-lg border border-border bg-black/30 px-3 text-sm"
            value={filter.status ?? ''}
            onChange={(event) => update({ status: event.target.value || undefined, page: undefined })}
          >
            <option value="">Any status</option>
            {MEMBER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
          <Button type="submit">Search</Button>
        </form>
        {filter.plan || filter.since ? (
          <p className="text-sm text-muted">
            {filter.plan ? `Plan: ${planLabel(filter.plan)}. ` : ''}
            {filter.since ? `First subscribed on or after ${filter.since}. ` : ''}
            <button type="button" className="text-primary hover:underline" onClick={() => update({ plan: undefined, since: undefined, page: undefined })}>
              Clear
            </button>
          </p>
        ) : null}

        {members.isPending ? (
          <Spinner label="Loading members..." />
        ) : members.isError ? (
          <LoadError what="the members" />
        ) : (
          <>
            <DataTable columns={MEMBER_COLUMNS} rows={members.data.members} rowKey={(member) => member.id} busy={members.isPlaceholderData} />
            {members.data.members.length === 0 ? <p className="text-sm text-muted">No member matches.</p> : null}
            <Pager page={members.data.page} pageSize={members.data.pageSize} total={members.data.total} onPage={(page) => update({ page: String(page) })} />
          </>
        )}
      </Card>
    </div>
  );
}
