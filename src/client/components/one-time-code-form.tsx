import { useId, useState, type FormEvent } from 'react';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { SubmitButton } from '@client/components/ui/submit-button';

type OneTimeCodeFormProps = {
  label: string;
  hint: string;
  submit: string;
  busyLabel: string;
  /** Backup codes are longer and not only digits. */
  kind: 'totp' | 'backup';
  /** Resolves with an error text to show, or null when the code was accepted. */
  onCode: (code: string) => Promise<string | null>;
};

/** One field for a code from an authenticator app (or a backup code) and its submit button. */
export function OneTimeCodeForm({ label, hint, submit, busyLabel, kind, onCode }: OneTimeCodeFormProps) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cleaned = kind === 'totp' ? code.replace(/\D/g, '') : code.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const problem = await onCode(cleaned);
    setBusy(false);
    setError(problem);
    if (problem) setCode('');
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label={submit}>
      <div className="space-y-2">
        <Label htmlFor={`${id}-code`}>{label}</Label>
        <Input
          id={`${id}-code`}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          inputMode={kind === 'totp' ? 'numeric' : 'text'}
          autoComplete="one-time-code"
          maxLength={kind === 'totp' ? 7 : 32}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
        <FieldError id={`${id}-error`} message={error ?? undefined} />
      </div>
      <SubmitButton busy={busy} busyLabel={busyLabel} disabled={kind === 'totp' ? cleaned.length !== 6 : cleaned.length === 0}>
        {submit}
      </SubmitButton>
    </form>
  );
}
