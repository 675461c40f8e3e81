import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState, type FocusEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { RESET_TEXTS, resetError } from '@shared/error-messages';
import { RESET_LINK_MINUTES } from '@shared/timing';
import { forgotPasswordSchema, sanitizeEmail, type ForgotPasswordInput } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { SubmitButton } from '@client/components/ui/submit-button';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { errorInputOf } from '@client/lib/auth-request';
import { useRequestPasswordReset } from './api/request-password-reset';
import { AuthLayout } from './components/auth-layout';
import { EmailField } from './components/email-field';

export const FORGOT_PASSWORD_TEXTS = {
  title: 'Forgot your password?',
  description: "Enter your account's e-mail address and we will send you a link to set a new password.",
  submit: 'Send Reset Link',
  busy: 'Sending...',
  backToSignIn: 'Back to Sign In',
  sentTitle: 'Check Your Email',
  tryAgain: 'Use a different e-mail address',
} as const;

/** /forgot-password: asks for a reset link; the answer never tells whether an account exists. */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: sanitizeEmail(params.get('email') ?? '') },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await request.mutateAsync(values);
    } catch (error) {
      notifyError(resetError(errorInputOf(error), 'request'));
      return;
    }
    notifySuccess(RESET_TEXTS.linkSent);
    setSentTo(values.email);
  });

  if (sentTo) {
    return (
      <AuthLayout
        title={FORGOT_PASSWORD_TEXTS.sentTitle}
        description={
          <>
            If an account exists for <span className="font-medium text-foreground">{sentTo}</span>, we have sent it a link to set a new
            password. The link expires in {RESET_LINK_MINUTES} minutes.
          </>
        }
      >
        <div className="flex flex-col items-center gap-6">
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-primary/15 text-primary">
            <MailCheck aria-hidden="true" className="h-7 w-7" />
          </span>
          <p className="text-center text-sm text-muted">No e-mail after a few minutes? Check your spam folder, or ask again.</p>
          <div className="flex w-full flex-col gap-3">
            <Button asChild size="lg" className="w-full">
              <Link to={`/auth?email=${encodeURIComponent(sentTo)}`}>{FORGOT_PASSWORD_TEXTS.backToSignIn}</Link>
            </Button>
            <Button variant="ghost" className="w-full" onClick={() => setSentTo(null)}>
              {FORGOT_PASSWORD_TEXTS.tryAgain}
            </Button>
          </div>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={FORGOT_PASSWORD_TEXTS.title}
      description={FORGOT_PASSWORD_TEXTS.description}
      back={{ to: '/auth', label: FORGOT_PASSWORD_TEXTS.backToSignIn }}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label="Request a password reset link">
        <EmailField
          id="forgot-email"
          error={errors.email?.message}
          {...form.register('email', {
            onChange: () => errors.email && form.clearErrors('email'),
            onBlur: (event: FocusEvent<HTMLInputElement>) => form.setValue('email', sanitizeEmail(event.target.value)),
          })}
        />
        <SubmitButton busy={request.isPending} busyLabel={FORGOT_PASSWORD_TEXTS.busy} disabled={!email}>
          {FORGOT_PASSWORD_TEXTS.submit}
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
