import { useId, useState, type ReactNode } from 'react';
import type { ActionResult } from '@shared/admin-contract';
import { Button, type ButtonProps } from '@client/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@client/components/ui/dialog';
import { ApiRequestError } from '@client/lib/api/api-client';

type ConfirmActionProps = {
  label: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  variant?: ButtonProps['variant'];
  /** Fields the action needs (a date, a username); their values are the caller's state. */
  children?: ReactNode;
  /** Runs the action; its message (or the error's) is the visible result, shown in the dialog. */
  run: () => Promise<ActionResult>;
  disabled?: boolean;
  /** Why the action does not apply to this member (member-actions.ts): the button is disabled and says so beneath. */
  blocked?: string | null;
};

/** A member action behind a confirmation dialog that shows its result until closed. */
export function ConfirmAction({ label, title, description, confirmLabel, variant = 'outline', children, run, disabled, blocked }: ConfirmActionProps) {
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  async function confirm() {
    setPending(true);
    try {
      setResult({ ok: true, message: (await run()).message });
    } catch (error) {
      setResult({ ok: false, message: error instanceof ApiRequestError ? error.message : 'The action failed.' });
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setResult(null);
      }}
    >
      {blocked ? (
        <span className="inline-flex max-w-56 flex-col items-start gap-1">
          <Button variant={variant} size="sm" disabled aria-describedby={reasonId}>
            {label}
          </Button>
          <span id={reasonId} className="text-xs text-muted">
            {blocked}
          </span>
        </span>
      ) : (
        <DialogTrigger asChild>
          <Button variant={variant} size="sm" disabled={disabled}>
            {label}
          </Button>
        </DialogTrigger>
      )}
      <DialogContent title={title} description={description}>
        {result ? (
          <div className="space-y-4">
            <p role="status" className={result.ok ? 'text-sm text-green-400' : 'text-sm text-red-400'}>
              {result.message}
            </p>
            <DialogClose asChild>
              <Button variant="secondary">Close</Button>
            </DialogClose>
          </div>
        ) : (
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              void confirm();
            }}
          >
            {children}
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="ghost">Cancel</Button>
              </DialogClose>
              <Button type="submit" variant={variant === 'danger' ? 'danger' : 'primary'} disabled={pending}>
                {pending ? 'Working…' : confirmLabel}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
