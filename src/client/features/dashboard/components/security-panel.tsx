import { AlertTriangle, ChevronDown, Info, ShieldAlert, ShieldCheck, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { SecurityAlertDto } from '@shared/api-contract';
import { MAX_ALERTS_SHOWN, scoreColour } from '@shared/security';
import { cn } from '@client/lib/cn';
import { useSecurityAlerts } from '../api/get-security-alerts';
import { readCollapsed, writeCollapsed } from './collapsed-panel';
import { pruneDismissed, readDismissed, writeDismissed } from './dismissed-alerts';

const SCORE_TEXT = { green: 'text-green-400', yellow: 'text-yellow-300', red: 'text-red-400' } as const;
const SCORE_BAR = { green: 'bg-green-500', yellow: 'bg-yellow-400', red: 'bg-red-500' } as const;

const ALERT_STYLE: Record<SecurityAlertDto['type'], { icon: typeof Info; className: string; label: string }> = {
  critical: { icon: ShieldAlert, className: 'border-red-500/30 bg-red-500/10 text-red-200', label: 'Critical' },
  warning: { icon: AlertTriangle, className: 'border-yellow-500/30 bg-yellow-500/10 text-yellow-100', label: 'Warning' },
  info: { icon: Info, className: 'border-blue-500/30 bg-blue-500/10 text-blue-100', label: 'Info' },
};

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

function timeAgo(iso: string, now: number): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000);
  if (Math.abs(minutes) < 1) return 'just now';
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
  return relative.format(Math.round(minutes / 60), 'hour');
}

/**
 * Security Score with the newest alerts (at most 3 shown), each dismissible. It sits in
 * the dashboard sidebar's flow, never over the page; the alert list folds away and stays folded.
 */
export function SecurityPanel({ userId }: { userId: string }) {
  const { data, dataUpdatedAt } = useSecurityAlerts(userId);
  const [dismissed, setDismissed] = useState<string[]>(() => readDismissed(userId));
  const [collapsed, setCollapsed] = useState(() => readCollapsed(userId));
  const toggleCollapsed = () => {
    writeCollapsed(userId, !collapsed);
    setCollapsed(!collapsed);
  };

  // Forget dismissals of alerts that have aged out, so the stored list never grows.
  const alertIds = useMemo(() => data?.alerts.map((alert) => alert.id), [data]);
  useEffect(() => {
    if (!alertIds) return;
    const pruned = pruneDismissed(readDismissed(userId), alertIds);
    writeDismissed(userId, pruned);
  }, [alertIds, userId]);

  if (!data) return null;

  const colour = scoreColour(data.score);
  const dismissedSet = new Set(dismissed);
  const visible = data.alerts.filter((alert) => !dismissedSet.has(alert.id)).slice(0, MAX_ALERTS_SHOWN);
  const dismiss = (id: string) => {
    const next = [...readDismissed(userId).filter((existing) => existing !== id), id];
    writeDismissed(userId, next);
    setDismissed(next);
  };
  const Icon = colour === 'green' ? ShieldCheck : ShieldAlert;

  return (
    <aside aria-label="Security">
      <div className="overflow-hidden rounded-2xl border border-border bg-card">
        <div className="px-3 py-3">
          <div className="flex items-center gap-2">
            <Icon aria-hidden="true" className={cn('h-4.5 w-4.5 shrink-0', SCORE_TEXT[colour])} />
            <span className="flex-1 whitespace-nowrap text-sm font-semibold text-white">Security Score</span>
            <span data-testid="security-score" data-colour={colour} className={cn('text-sm font-bold tabular-nums', SCORE_TEXT[colour])}>
              {data.score}/100
            </span>
          </div>
          <div className="mt-2 flex items-center gap-2">
            <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-white/10" aria-hidden="true">
              <div className={cn('h-full rounded-full transition-all', SCORE_BAR[colour])} style={{ width: `${data.score}%` }} />
            </div>
            {visible.length > 0 && (
              <button
                type="button"
                onClick={toggleCollapsed}
                aria-expanded={!collapsed}
                aria-controls={collapsed ? undefined : 'security-alerts'}
                aria-label={collapsed ? `Show security alerts (${visible.length})` : 'Hide security alerts'}
                className="-my-1 inline-flex shrink-0 items-center gap-1 rounded-md p-1 text-muted hover:bg-white/10 hover:text-white"
              >
                {collapsed ? (
                  <span aria-hidden="true" className="rounded-full bg-white/10 px-1.5 text-[11px] font-semibold tabular-nums text-white">
                    {visible.length}
                  </span>
                ) : null}
                <ChevronDown aria-hidden="true" className={cn('h-4 w-4 transition-transform', collapsed ? '' : 'rotate-180')} />
              </button>
            )}
          </div>
        </div>
        {visible.length > 0 && !collapsed && (
          <ul id="security-alerts" className="space-y-2 border-t border-border px-2 py-2" aria-label="Security alerts">
            {visible.map((alert) => {
              const style = ALERT_STYLE[alert.type];
              const AlertIcon = style.icon;
              return (
                <li key={alert.id} className={cn('flex gap-2 rounded-xl border p-2.5 text-xs leading-5', style.className)}>
                  <AlertIcon aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
                  <div className="min-w-0 flex-1">
                    <p>
                      <span className="sr-only">{style.label}: </span>
                      {alert.message}
                    </p>
                    <p className="mt-1 opacity-70">{timeAgo(alert.timestamp, dataUpdatedAt)}</p>
                  </div>
                  <button
                    type="button"
                    onClick={() => dismiss(alert.id)}
                    aria-label="Dismiss alert"
                    className="h-6 w-6 shrink-0 rounded-md p-1 opacity-70 hover:bg-white/10 hover:opacity-100"
                  >
                    <X aria-hidden="true" className="h-4 w-4" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </aside>
  );
}
