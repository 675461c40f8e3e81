import { cn } from '@client/lib/cn';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-3">
      <span
        aria-hidden="true"
        className={cn('h-6 w-6 animate-spin rounded-full border-2 border-white/20 border-t-primary', className)}
      />
      {label ? <span className="text-sm text-muted">{label}</span> : <span className="sr-only">Loading</span>}
    </span>
  );
}

/** Full-screen centred spinner with a text, e.g. 'Loading...'. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
