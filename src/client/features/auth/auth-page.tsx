import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type FocusEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LOGIN_TEXTS, SIGN_UP_TEXTS, loginError, signUpError } from '@shared/error-messages';
import { PASSWORD_MAX_LENGTH, sanitizeEmail, signInSchema, signUpSchema, type SignInInput } from '@shared/validation';
import { FieldError, Label } from '@client/components/ui/input';
import { PageSpinner } from '@client/components/ui/spinner';
import { SubmitButton } from '@client/components/ui/submit-button';
import { SESSION_QUERY_KEY, useAuth } from '@client/lib/auth-state';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { errorInputOf } from '@client/lib/auth-request';
import { useSignIn } from './api/sign-in';
import { useSignUp } from './api/sign-up';
import { AuthLayout } from './components/auth-layout';
import { EmailField } from './components/email-field';
import { PasswordInput } from './components/password-input';
import { TWO_FACTOR_STEP_TEXTS, TwoFactorStep } from './components/two-factor-step';
import { safeRedirectTarget } from './redirect-target';

/** 'two-factor': the password was right and the account asks for its second factor. */
type Mode = 'sign-in' | 'sign-up' | 'two-factor';

export const AUTH_PAGE_TEXTS = {
  signIn: { title: 'Welcome back', description: 'Sign in to reach your indicators and member area.', submit: 'Sign In', busy: 'Signing In...' },
  signUp: { title: 'Create your account', description: 'Sign up with your e-mail address and a password.', submit: 'Sign Up', busy: 'Creating Account...' },
  toSignUp: { prompt: "Don't have an account?", action: 'Sign up' },
  toSignIn: { prompt: 'Already have an account?', action: 'Sign in' },
  passwordHint: 'At least 8 characters, with lowercase and uppercase letters and numbers.',
  forgot: 'Forgot your password?',
  back: 'Back to Homepage',
  redirecting: 'Signing you in...',
  cookiesBlocked: {
    title: LOGIN_TEXTS.failedTitle,
    description: 'Your browser did not keep the sign-in. Please allow cookies for this site and try again.',
  },
} as const;

/**
 * /auth: sign in or sign up with e-mail and password. A signed-in visitor
 * (already, or just now) goes to `redirect` or /dashboard when they have premium access, else to
 * /premium-access-required.
 */
export function AuthPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { user, isLoading, premium, refreshSession } = useAuth();
  const target = safeRedirectTarget(params.get('redirect'));
  const [mode, setMode] = useState<Mode>('sign-in');
  // The last refusal of the form (a wrong password, a taken address…), shown beside it as well as
  // in the toast: a toast goes away, and a screen reader may never reach it.
  const [refusal, setRefusal] = useState<{ title: string; description: string } | null>(null);
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const signUp = useSignUp();

  const form = useForm<SignInInput>({
    resolver: zodResolver(mode === 'sign-up' ? signUpSchema : signInSchema),
    defaultValues: { email: sanitizeEmail(params.get('email') ?? ''), password: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });
  const password = useWatch({ control: form.control, name: 'password' });

  // Signed in, now or from an earlier visit: wait for the access check, then move on.
  useEffect(() => {
    if (!user || premium.hasAccess === 'unknown') return;
    // A check that failed is not a "no": the target's own guard decides (it lets failures through).
    // The operator console decides for itself: an operator needs no subscription.
    const allowed = premium.hasAccess || !premium.isSecurityValid || target?.startsWith('/admin') === true;
    void navigate(allowed ? (target ?? '/dashboard') : '/premium-access-required', { replace: true });
  }, [user, premium.hasAccess, premium.isSecurityValid, target, navigate]);

  const busy = signIn.isPending || signUp.isPending;
  const texts = mode === 'sign-up' ? AUTH_PAGE_TEXTS.signUp : AUTH_PAGE_TEXTS.signIn;

  // The server started a session; read it back. No session means the cookie was not kept.
  const continueSignedIn = async () => {
    await refreshSession();
    if (!queryClient.getQueryData(SESSION_QUERY_KEY)) notifyError(AUTH_PAGE_TEXTS.cookiesBlocked);
  };

  const switchMode = (next: Mode) => {
    form.clearErrors();
    setRefusal(null);
    setMode(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setRefusal(null);
    if (mode === 'sign-in') {
      let result;
      try {
        result = await signIn.mutateAsync(values);
      } catch (error) {
        const shown = loginError(errorInputOf(error));
        notifyError(shown);
        setRefusal(shown);
        return;
      }
      if ('twoFactorRedirect' in result) {
        setMode('two-factor');
        return;
      }
      await continueSignedIn();
      return;
    }
    let result;
    try {
      result = await signUp.mutateAsync(values);
    } catch (error) {
      const shown = signUpError(errorInputOf(error));
      notifyError(shown);
      if (shown.switchToSignIn) switchMode('sign-in');
      setRefusal(shown);
      return;
    }
    if (result.token) {
      notifySuccess(SIGN_UP_TEXTS.welcome);
      await continueSignedIn();
      return;
    }
    // No session: the address must be confirmed first, so the form asks the new member to log in.
    notifySuccess(SIGN_UP_TEXTS.pleaseLogIn);
    form.setValue('password', '');
    switchMode('sign-in');
  });

  if (isLoading) return <PageSpinner label="Loading..." />;
  if (user) return <PageSpinner label={AUTH_PAGE_TEXTS.redirecting} />;

  const clearOnEdit = (field: keyof SignInInput) => () => {
    if (form.formState.errors[field]) form.clearErrors(field);
    setRefusal(null);
  };

  if (mode === 'two-factor') {
    return (
      <AuthLayout title={TWO_FACTOR_STEP_TEXTS.title} description={TWO_FACTOR_STEP_TEXTS.description} back={{ to: target ?? '/', label: AUTH_PAGE_TEXTS.back }}>
        <TwoFactorStep onSignedIn={continueSignedIn} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={texts.title}
      description={texts.description}
      back={{ to: target ?? '/', label: AUTH_PAGE_TEXTS.back }}
      footer={
        <>
          {mode === 'sign-in' ? AUTH_PAGE_TEXTS.toSignUp.prompt : AUTH_PAGE_TEXTS.toSignIn.prompt}{' '}
          <button
            type="button"
            onClick={() => switchMode(mode === 'sign-in' ? 'sign-up' : 'sign-in')}
            className="rounded font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
          >
            {mode === 'sign-in' ? AUTH_PAGE_TEXTS.toSignUp.action : AUTH_PAGE_TEXTS.toSignIn.action}
          </button>
        </>
      }
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label={texts.submit}>
        <EmailField
          id="auth-email"
          error={errors.email?.message}
          {...form.register('email', {
            onChange: clearOnEdit('email'),
            onBlur: (event: FocusEvent<HTMLInputElement>) => form.setValue('email', sanitizeEmail(event.target.value)),
          })}
        />

        <div className="space-y-2">
          <div className="flex items-center justify-between">
            <Label htmlFor="auth-password">Password</Label>
            {mode === 'sign-in' ? (
              <Link
                to="/forgot-password"
                className="rounded text-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
              >
                {AUTH_PAGE_TEXTS.forgot}
              </Link>
            ) : null}
          </div>
          <PasswordInput
            id="auth-password"
            autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={[errors.password ? 'auth-password-error' : null, mode === 'sign-up' ? 'auth-password-hint' : null].filter(Boolean).join(' ') || undefined}
            {...form.register('password', { onChange: clearOnEdit('password') })}
          />
          {mode === 'sign-up' && !errors.password ? (
            <p id="auth-password-hint" className="text-xs text-muted">
              {AUTH_PAGE_TEXTS.passwordHint}
            </p>
          ) : null}
          <FieldError id="auth-password-error" message={errors.password?.message} />
        </div>

        {refusal ? (
          <div role="alert" data-testid="auth-form-error" className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm">
            <p className="font-semibold text-red-300">{refusal.title}</p>
            <p className="mt-0.5 text-foreground/85">{refusal.description}</p>
          </div>
        ) : null}

        <SubmitButton busy={busy} busyLabel={texts.busy} disabled={!email || !password}>
          {texts.submit}
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
