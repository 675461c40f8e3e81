import { Loader2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MAX_LENGTH, VALIDATION_TOASTS } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { Input, Label } from '@client/components/ui/input';
import { notifyError } from '@client/lib/notify';
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
      <div className="space-y-2">
        <Label htmlFor="login-email">Email</Label>
        <Input id="login-email" type="email" value={email} disabled readOnly autoComplete="username" />
      </div>
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
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        {busy ? LOGIN_FORM_TEXTS.busy : LOGIN_FORM_TEXTS.submit}
      </Button>
    </form>
  );
}
