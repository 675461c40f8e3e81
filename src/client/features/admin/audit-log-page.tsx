import { useState } from 'react';
import { Link } from 'react-router';
import type { AuditLog } from '@shared/admin-contract';
import { auditSentence } from '@shared/audit-sentences';
import { DataTable, type Column } from '@client/components/data-table';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { EmailAddress } from '@client/components/email-address';
import { useAuditLog } from './api/get-audit-log';
import { AdminPageHeader, LoadError, Pager } from '@client/components/console/admin-page';
import { CsvDownload } from './components/csv-download';
import { dateTimeText } from '@client/lib/console-format';

const detailsText = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');

const AUDIT_COLUMNS: Column<AuditLog['entries'][number]>[] = [
  { header: 'When', className: 'text-muted', cell: (entry) => dateTimeText(entry.createdAt) },
  {
    header: 'What happened',
    cell: (entry) => (
      <span className="flex flex-col gap-0.5">
        <span className="font-medium text-white">{auditSentence(entry)}</span>
        <span className="text-xs text-muted">{entry.action.replaceAll('_', ' ')}</span>
      </span>
    ),
  },
  {
    header: 'Member',
    cell: (entry) =>
      entry.targetUserId ? (
        <Link to={`/admin/members/${entry.targetUserId}`} className="hover:text-primary">
          {entry.targetEmail ? <EmailAddress email={entry.targetEmail} /> : entry.targetUserId}
        </Link>
      ) : (
        '—'
      ),
  },
  { header: 'Details', className: 'text-muted', cell: (entry) => detailsText(entry.details) },
];

export function AuditLogPage() {
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);

  return (
    <div className="space-y-6">
      <AdminPageHeader title="Audit log" description="Every operator action: who, what, on which member, when.">
        <CsvDownload kind="audit-log" />
      </AdminPageHeader>
      <Card className="space-y-4">
        {log.isPending ? (
          <Spinner label="Loading the audit log..." />
        ) : log.isError ? (
          <LoadError what="the audit log" />
        ) : (
          <>
            <DataTable columns={AUDIT_COLUMNS} rows={log.data.entries} rowKey={(entry) => entry.id} busy={log.isPlaceholderData} />
            {log.data.entries.length === 0 ? <p className="text-sm text-muted">No operator action yet.</p> : null}
            <Pager page={log.data.page} pageSize={log.data.pageSize} total={log.data.total} onPage={setPage} />
          </>
        )}
      </Card>
    </div>
  );
}
