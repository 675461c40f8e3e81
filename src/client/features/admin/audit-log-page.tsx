import { useState } from 'react';
import { Link } from 'react-router';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { useAuditLog } from './api/get-audit-log';
import { AdminPageHeader, LoadError, Pager } from './components/admin-page';
import { dateTimeText } from './format';

const detailsText = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');

export function AuditLogPage() {
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);

  return (
    <div className="space-y-6">
      <AdminPageHeader title="Audit log" description="Every operator action: who, what, on which member, when." />
      <Card className="space-y-4">
        {log.isPending ? (
          <Spinner label="Loading the audit log..." />
        ) : log.isError ? (
          <LoadError what="the audit log" />
        ) : (
          <>
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase tracking-wider text-muted">
                <tr>
                  <th className="py-2 font-medium">When</th>
                  <th className="py-2 font-medium">Operator</th>
                  <th className="py-2 font-medium">Action</th>
                  <th className="py-2 font-medium">Member</th>
                  <th className="py-2 font-medium">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {log.data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td className="py-2 text-muted">{dateTimeText(entry.createdAt)}</td>
                    <td className="py-2">{entry.operatorEmail}</td>
                    <td className="py-2 font-medium text-white">{entry.action.replaceAll('_', ' ')}</td>
                    <td className="py-2">
                      {entry.targetUserId ? (
                        <Link to={`/admin/members/${entry.targetUserId}`} className="hover:text-primary">
                          {entry.targetEmail ?? entry.targetUserId}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="py-2 text-muted">{detailsText(entry.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {log.data.entries.length === 0 ? <p className="text-sm text-muted">No operator action yet.</p> : null}
            <Pager page={log.data.page} pageSize={log.data.pageSize} total={log.data.total} onPage={setPage} />
          </>
        )}
      </Card>
    </div>
  );
}
