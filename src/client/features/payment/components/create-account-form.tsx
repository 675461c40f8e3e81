import { useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES, VALIDATION_TOASTS, newPasswordSchema } from '@shared/validation';
import { FieldError, Label } from '@client/components/ui/input';
import { SubmitButton } from '@client/components/ui/submit-button';
import { notifyError } from '@client/lib/notify';
import { PaidEmailField } from './paid-email-field';
import { PasswordField } from './password-field';

export const CREATE_ACCOUNT_TEXTS = {
  title: 'Create your account password to get started',
  description: 'Your account uses the email address you paid with. Choose a password to sign in to your member area.',
  password: 'Password',
  confirm: 'Confirm Password',
  hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
  submit: 'Create Account',
  busy: 'Creating Account...',
} as const;

type Errors = { password?: string; confirmPassword?: string };

/** Status `new`: the buyer picks the password of the account made for the paid e-mail. */
export function CreateAccountForm({ email, busy, onCreate }: { email: string; busy: boolean; onCreate: (password: string) => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const [errors, setErrors] = useState<Errors>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'confirmPassword' ? 'confirmPassword' : 'password';
        next[field] ??= issue.message;
      }
      setErrors(next);
      if (next.password === VALIDATION_MESSAGES.newPasswordTooShort) notifyError(VALIDATION_TOASTS.invalidPassword);
      return;
    }
    setErrors({});
    await onCreate(parsed.data.password);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <PaidEmailField id="account-email" email={email} />
      <div className="space-y-2">
        <Label htmlFor="account-password">{CREATE_ACCOUNT_TEXTS.password}</Label>
        <PasswordField
          id="account-password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          visible={visible}
          onToggle={() => setVisible((shown) => !shown)}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'account-password-error' : 'account-password-hint'}
          onChange={(event) => {
            setPassword(event.target.value);
            setErrors({});
          }}
        />
        {errors.password ? (
          <FieldError id="account-password-error" message={errors.password} />
        ) : (
          <p id="account-password-hint" className="text-xs text-muted">
            {CREATE_ACCOUNT_TEXTS.hint}
          </p>
        )}
      </div>
      <div className="space-y-2">
        <Label htmlFor="account-confirm-password">{CREATE_ACCOUNT_TEXTS.confirm}</Label>
        <PasswordField
          id="account-confirm-password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={confirmPassword}
          visible={visible}
          aria-invalid={errors.confirmPassword ? true : undefined}
          aria-describedby={errors.confirmPassword ? 'account-confirm-password-error' : undefined}
          onChange={(event) => {
            setConfirmPassword(event.target.value);
            setErrors({});
          }}
        />
        <FieldError id="account-confirm-password-error" message={errors.confirmPassword} />
      </div>
      <SubmitButton busy={busy} busyLabel={CREATE_ACCOUNT_TEXTS.busy} disabled={password === '' || confirmPassword === ''}>
        {CREATE_ACCOUNT_TEXTS.submit}
      </SubmitButton>
    </form>
  );
}
