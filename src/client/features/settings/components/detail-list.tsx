import type { ReactNode } from 'react';
import { SUBSCRIPTION_LOAD_TEXTS } from '@shared/error-messages';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/cn';

export const LOADING_TEXT = 'Loading...';

export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('divide-y divide-border/70', className)}>{children}</dl>;
}

/** One labelled value; `loading` shows the spec's 'Loading...' in place of the value. */
export function DetailRow({ label, loading = false, children }: { label: string; loading?: boolean; children?: ReactNode }) {
  return (
    <div className="flex min-h-12 items-center justify-between gap-6 py-3">
      <dt className="shrink-0 text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-right text-sm font-medium text-foreground">
        {loading ? <span className="font-normal text-muted">{LOADING_TEXT}</span> : children}
      </dd>
    </div>
  );
}

/** The small heading block every settings card starts with. */
export function SettingsCardHeader({
  icon,
  title,
  titleId,
  description,
  action,
}: {
  icon: ReactNode;
  title: string;
  titleId: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="mb-5 flex items-start gap-3">
      <span aria-hidden="true" className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary">
        {icon}
      </span>
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="text-lg font-semibold leading-tight">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-muted">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

/** What a subscription card shows when the subscription could not be read: the message and a retry. */
export function SubscriptionLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex min-h-40 flex-col items-center justify-center gap-3 text-center">
      <p role="alert" className="text-sm font-medium text-danger">
        {SUBSCRIPTION_LOAD_TEXTS.settingsCard}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}
