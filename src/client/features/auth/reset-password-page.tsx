import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { RESET_TEXTS, resetError } from '@shared/error-messages';
import { REDIRECT_DELAYS_MS } from '@shared/timing';
import { PASSWORD_MAX_LENGTH, newPasswordSchema, type NewPasswordInput } from '@shared/validation';
import { FieldError, Label } from '@client/components/ui/input';
import { PageSpinner } from '@client/components/ui/spinner';
import { SubmitButton } from '@client/components/ui/submit-button';
import { useAuth } from '@client/lib/auth-state';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { errorInputOf } from '@client/lib/auth-request';
import { useResetPassword } from './api/reset-password';
import { useResetTokenStatus } from './api/reset-token-status';
import { AuthLayout } from './components/auth-layout';
import { PasswordInput } from './components/password-input';

export const RESET_PAGE_TEXTS = {
  title: 'Set a new password',
  description: 'Choose a new password for your account. You will be signed in right after.',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  submit: 'Update Password',
  busy: 'Updating...',
  checking: 'Checking your reset link...',
  updatedTitle: 'Password Updated',
  updatedDescription: 'Taking you to your dashboard...',
} as const;

/**
 * The token of the mailed link (/reset-password?token=…). The hash is read too, as the spec's
 * links carried their tokens there. A link that says `error=…` carries no usable token.
 */
function tokenFrom(search: string, hash: string): string | null {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  if (query.get('error') || fragment.get('error')) return null;
  const token = query.get('token') ?? fragment.get('token');
  return token && token.trim() ? token.trim() : null;
}

/** /reset-password: sets a new password with the mailed token, then /dashboard. */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { refreshSession } = useAuth();
  const [token] = useState(() => tokenFrom(location.search, location.hash));
  const status = useResetTokenStatus(token);
  const reset = useResetPassword();
  const [done, setDone] = useState(false);

  const form = useForm<NewPasswordInput>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const confirmPassword = useWatch({ control: form.control, name: 'confirmPassword' });

  // A link without a usable token: say so once and send the visitor to ask for a new one.
  const linkInvalid = token === null || status.data?.valid === false;
  const toldInvalid = useRef(false);
  useEffect(() => {
    if (!linkInvalid || toldInvalid.current) return;
    toldInvalid.current = true;
    notifyError(RESET_TEXTS.invalidLink);
    void navigate('/forgot-password', { replace: true });
  }, [linkInvalid, navigate]);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => {
      void refreshSession().finally(() => navigate('/dashboard', { replace: true }));
    }, REDIRECT_DELAYS_MS.afterPasswordReset);
    return () => clearTimeout(timer);
  }, [done, refreshSession, navigate]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!token) return;
    try {
      await reset.mutateAsync({ token, newPassword: values.password });
    } catch (error) {
      const shown = resetError(errorInputOf(error), 'update');
      notifyError(shown);
      // The link expired or was used meanwhile: only a new one helps.
      if (shown.title === RESET_TEXTS.linkError.title) void navigate('/forgot-password', { replace: true });
      return;
    }
    notifySuccess(RESET_TEXTS.passwordUpdated);
    setDone(true);
  });

  if (linkInvalid) return null;
  // While the link is being checked; if the check itself fails, the form still works and the submit tells.
  if (status.isPending) return <PageSpinner label={RESET_PAGE_TEXTS.checking} />;

  if (done) {
    return (
      <AuthLayout title={RESET_PAGE_TEXTS.updatedTitle} description={RESET_PAGE_TEXTS.updatedDescription}>
        <div className="flex flex-col items-center gap-4" role="status">
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-primary/15 text-primary">
            <CircleCheck aria-hidden="true" className="h-7 w-7" />
          </span>
          <Loader2 aria-hidden="true" className="h-5 w-5 animate-spin text-muted" />
        </div>
      </AuthLayout>
    );
  }

  const clearOnEdit = (field: keyof NewPasswordInput) => () => {
    if (form.formState.errors[field]) form.clearErrors(field);
  };

  /** One of the two password fields, described by its error while it has one. */
  const passwordField = (field: keyof NewPasswordInput, id: string, label: string, toggleName: string) => (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <PasswordInput
        id={id}
        toggleName={toggleName}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `${id}-error` : undefined}
        {...form.register(field, { onChange: clearOnEdit(field) })}
      />
      <FieldError id={`${id}-error`} message={errors[field]?.message} />
    </div>
  );

  return (
    <AuthLayout title={RESET_PAGE_TEXTS.title} description={RESET_PAGE_TEXTS.description}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label="Set a new password">
        {passwordField('password', 'reset-password', RESET_PAGE_TEXTS.newPassword, 'new password')}
        {passwordField('confirmPassword', 'reset-confirm-password', RESET_PAGE_TEXTS.confirmPassword, 'password confirmation')}
        <SubmitButton busy={reset.isPending} busyLabel={RESET_PAGE_TEXTS.busy} disabled={!password || !confirmPassword}>
          {RESET_PAGE_TEXTS.submit}
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
