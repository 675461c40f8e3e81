import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MAX_LENGTH, VALIDATION_TOASTS } from '@shared/validation';
import { Label } from '@client/components/ui/input';
import { SubmitButton } from '@client/components/ui/submit-button';
import { notifyError } from '@client/lib/notify';
import { PaidEmailField } from './paid-email-field';
import { PasswordField } from './password-field';

export const LOGIN_FORM_TEXTS = {
  title: 'Welcome Back',
  description: 'An account already exists for this email address. Log in to add this purchase to it.',
  password: 'Password',
  submit: 'Log In & Activate Access',
  busy: 'Logging In...',
  forgot: 'Forgot your password?',
} as const;

/** Status `existing_needs_login`: the paid e-mail has an account; its owner logs in here. */
export function LoginForm({ email, busy, onLogin }: { email: string; busy: boolean; onLogin: (password: string) => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password === '') {
      notifyError(VALIDATION_TOASTS.passwordRequired);
      return;
    }
    await onLogin(password);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <PaidEmailField id="login-email" email={email} />
      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="login-password">{LOGIN_FORM_TEXTS.password}</Label>
          <Link to="/forgot-password" className="text-xs text-primary underline-offset-4 hover:underline">
            {LOGIN_FORM_TEXTS.forgot}
          </Link>
        </div>
        <PasswordField
          id="login-password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={password}
          visible={visible}
          onToggle={() => setVisible((shown) => !shown)}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <SubmitButton busy={busy} busyLabel={LOGIN_FORM_TEXTS.busy}>
        {LOGIN_FORM_TEXTS.submit}
      </SubmitButton>
    </form>
  );
}
