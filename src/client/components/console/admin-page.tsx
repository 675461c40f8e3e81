import type { ReactNode } from 'react';

export function AdminPageHeader({ title, description, children }: { title: ReactNode; description?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        {description ? <p className="mt-1 text-sm text-muted">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

/** The console's small inputs and selects, one look on every page. */
export const CONSOLE_FIELD = 'h-9 rounded-lg border border-border bg-transparent px-2 text-sm';

/** A report's period beside its title: "Last N days", "Last N months"… */
export function PeriodSelect({ label, unit, options, value, onChange }: { label: string; unit: string; options: readonly number[]; value: number; onChange: (value: number) => void }) {
  return (
    <label className="text-sm text-muted">
      {label}{' '}
      <select className={CONSOLE_FIELD} value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {options.map((option) => (
          <option key={option} value={option}>
            Last {option} {unit}
          </option>
        ))}
      </select>
    </label>
  );
}

export function LoadError({ what }: { what: string }) {
  return (
    <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-sm text-red-300">
      Could not load {what}. Reload the page to try again.
    </p>
  );
}

/** Previous / next for a server-side paginated list. */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex items-center justify-between text-sm text-muted">
      <span>
        {total} in all · page {page} of {pages}
      </span>
      <div className="flex gap-2">
        <button type="button" className="rounded-lg border border-border px-3 py-1 disabled:opacity-40" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <button type="button" className="rounded-lg border border-border px-3 py-1 disabled:opacity-40" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </div>
    </div>
  );
}
