import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';

/** A form's full-width submit button; while `busy` it is disabled, spins and says `busyLabel`. */
export function SubmitButton({ busy, busyLabel, disabled = false, children }: { busy: boolean; busyLabel: string; disabled?: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={busy || disabled}>
      {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
      {busy ? busyLabel : children}
    </Button>
  );
}
