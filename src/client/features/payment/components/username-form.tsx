import { useState, type FormEvent } from 'react';
import type { Toast } from '@shared/error-messages';
import { TRADINGVIEW_USERNAME_MAX_LENGTH, tradingViewUsernameSchema } from '@shared/validation';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { SubmitButton } from '@client/components/ui/submit-button';
import { notifyError } from '@client/lib/notify';

export const USERNAME_FORM_TEXTS = {
  label: 'TradingView Username',
  placeholder: 'e.g. ChartWizard',
  hint: 'Your exact TradingView username (not your email). You find it by clicking your profile picture in TradingView.',
  warning: 'Access is granted to this username. A wrong username means the indicators will not appear.',
} as const;

type UsernameFormProps = {
  submitLabel: string;
  busyLabel: string;
  /** The toast for an empty field (the two activation screens word it differently). */
  emptyToast: Toast;
  busy: boolean;
  /** Resolves with the error text to show under the field, or null on success. */
  onActivate: (username: string) => Promise<string | null>;
};

/** Statuses `existing_needs_tv` and `new_needs_tv`: the TradingView username access goes to. */
export function UsernameForm({ submitLabel, busyLabel, emptyToast, busy, onActivate }: UsernameFormProps) {
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '') {
      notifyError(emptyToast);
      setError(emptyToast.description);
      return;
    }
    const parsed = tradingViewUsernameSchema.safeParse(username);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? emptyToast.description);
      return;
    }
    setError(null);
    setError(await onActivate(parsed.data));
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <div className="space-y-2">
        <Label htmlFor="tradingview-username">{USERNAME_FORM_TEXTS.label}</Label>
        <Input
          id="tradingview-username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={TRADINGVIEW_USERNAME_MAX_LENGTH + 10}
          placeholder={USERNAME_FORM_TEXTS.placeholder}
          value={username}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'tradingview-username-error' : 'tradingview-username-hint'}
          onChange={(event) => {
            setUsername(event.target.value);
            setError(null);
          }}
        />
        {error ? (
          <FieldError id="tradingview-username-error" message={error} />
        ) : (
          <p id="tradingview-username-hint" className="text-xs text-muted">
            {USERNAME_FORM_TEXTS.hint}
          </p>
        )}
      </div>
      <p className="rounded-lg border border-warning/30 bg-warning/10 px-3 py-2 text-xs text-warning">{USERNAME_FORM_TEXTS.warning}</p>
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
