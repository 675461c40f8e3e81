import { TriangleAlert } from 'lucide-react';
import type { OperatorAlert } from '@shared/admin-ops-contract';
import { dateTimeText } from '@client/lib/console-format';

/** The console's banner: one line per alert that is on, with since when. Nothing when all is well. */
export function AlertsBanner({ alerts }: { alerts: readonly OperatorAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <section role="alert" aria-label="Operator alerts" className="space-y-2 rounded-2xl border border-red-500/40 bg-red-500/10 p-4">
      {alerts.map((alert) => (
        <div key={alert.key} className="flex items-start gap-3">
          <TriangleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-400" />
          <div>
            <p className="font-semibold">{alert.title}</p>
            <p className="text-sm text-muted">
              Since {dateTimeText(alert.since)}
              {alert.detail ? ` — ${alert.detail}` : ''}
            </p>
          </div>
        </div>
      ))}
    </section>
  );
}
