// A console form's last line: its submit button and what the last save came to, a confirmation
// (status) or the server's refusal (alert), so that every settings card answers the same way.
import type { ReactNode } from 'react';
import { Button } from '@client/components/ui/button';

/** What the form's last submit came to; null before the first, and while one is under way. */
export type FormResult = { ok: boolean; message: string } | null;

export function FormFooter({ label, busy, result }: { label: ReactNode; busy: boolean; result: FormResult }) {
  return (
    <div className="flex items-center gap-3">
      <Button type="submit" disabled={busy}>
        {label}
      </Button>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-sm text-primary' : 'text-sm text-danger'}>
          {result.message}
        </p>
      ) : null}
    </div>
  );
}
