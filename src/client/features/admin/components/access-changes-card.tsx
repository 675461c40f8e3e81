import type { AccessChangesBacklog } from '@shared/admin-contract';
import { TableScroll } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { useAccessChangesBacklog } from '../api/get-access-changes';
import { ageText, dateTimeText } from '@client/lib/console-format';

const SUBSCRIBER_NAMES: Record<string, string> = { tradingview: 'TradingView', mail: 'Mail', discord: 'Discord' };
const subscriberName = (name: string) => SUBSCRIBER_NAMES[name] ?? name;

function BacklogTable({ subscribers }: { subscribers: AccessChangesBacklog['subscribers'] }) {
  return (
    <TableScroll>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Access changes waiting per subscriber</caption>
        <thead className="text-xs uppercase tracking-wider text-muted">
          <tr>
            <th className="py-2 pr-3 font-medium">Subscriber</th>
            <th className="py-2 pr-3 font-medium">Waiting</th>
            <th className="py-2 pr-3 font-medium">Failing</th>
            <th className="py-2 pr-3 font-medium">Oldest waiting since</th>
            <th className="py-2 pr-3 font-medium">Last error</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {subscribers.map((row) => (
            <tr key={row.subscriber}>
              <td className="py-2 pr-3 font-medium text-white">{subscriberName(row.subscriber)}</td>
              <td className="py-2 pr-3">{row.waiting}</td>
              <td className="py-2 pr-3">{row.failing > 0 ? <Badge tone="red">{row.failing}</Badge> : 0}</td>
              <td className="py-2 pr-3">{row.oldest ? `${dateTimeText(row.oldest)} (${ageText(row.oldest)})` : '—'}</td>
              <td className="py-2 pr-3 text-danger">{row.lastError ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * Whether the integrations (TradingView, mail, Discord…) keep up with members' access: the access
 * changes each has yet to take. A change waits while its subscriber fails and is retried.
 */
export function AccessChangesCard() {
  const backlog = useAccessChangesBacklog();
  return (
    <Card aria-labelledby="access-changes" className="space-y-4">
      <div>
        <CardTitle id="access-changes">Access changes</CardTitle>
        <CardDescription>Purchases, renewals, cancellations and ends of access still to reach each integration.</CardDescription>
      </div>
      {backlog.isPending ? (
        <Spinner label="Loading the access changes..." />
      ) : backlog.isError ? (
        <p role="alert" className="text-sm text-danger">
          Could not load the access changes.
        </p>
      ) : backlog.data.subscribers.length === 0 ? (
        <p className="text-sm text-muted">All delivered.</p>
      ) : (
        <BacklogTable subscribers={backlog.data.subscribers} />
      )}
    </Card>
  );
}
