import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordRulesMessage } from '@shared/password-rules';
import { PASSWORD_MAX_LENGTH } from '@shared/validation';
import { FieldError, Label } from '@client/components/ui/input';
import { PageSpinner } from '@client/components/ui/spinner';
import { SubmitButton } from '@client/components/ui/submit-button';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useAuth } from '@client/lib/auth-state';
import { useSiteSettings } from '@client/lib/site-settings';
import { acceptOperatorInvitation, useOperatorInvitation } from './api/operator-invitation';
import { AuthLayout } from './components/auth-layout';
import { PasswordInput } from './components/password-input';

export const OPERATOR_INVITATION_TEXTS = {
  title: 'Become an operator',
  newAccount: (email: string, brand: string) => `Choose the password of ${email} to open the ${brand} operator console.`,
  existingAccount: (email: string) => `Choose a new password for ${email}. It replaces the current one and signs the account out everywhere else.`,
  password: 'Password',
  hint: 'At least 8 characters, with lowercase and uppercase letters and numbers.',
  submit: 'Set password and open the console',
  busy: 'Setting password...',
  unusableTitle: 'This invitation cannot be used',
  unusable: 'The link is invalid, expired or already used. Ask an operator for a new one.',
  back: 'Back to Homepage',
  failed: 'The password could not be set. Please try again.',
} as const;

/** /operator-invitation?token=…: the one-time link of `npm run admin -- add` or a console invitation. */
export function OperatorInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { refreshSession } = useAuth();
  const { brandName } = useSiteSettings();
  const invitation = useOperatorInvitation(token);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const texts = OPERATOR_INVITATION_TEXTS;

  if (token !== '' && invitation.isPending) return <PageSpinner label="Loading..." />;
  if (!invitation.data) {
    return (
      <AuthLayout title={texts.unusableTitle} back={{ to: '/', label: texts.back }}>
        <p role="alert" className="text-center text-sm text-muted">
          {texts.unusable}
        </p>
      </AuthLayout>
    );
  }
  const { email, accountExists } = invitation.data;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // only the rules this password does not meet yet (the sign-up form keeps the spec's sentence)
    const unmet = passwordRulesMessage(password);
    if (unmet !== null) {
      setError(unmet);
      return;
    }
    setBusy(true);
    try {
      const accepted = await acceptOperatorInvitation({ token, password });
      if (accepted.signedIn) {
        await refreshSession();
        await navigate('/admin', { replace: true });
      } else {
        // the account has a second factor: the sign-in page asks for it
        await navigate(`/auth?redirect=${encodeURIComponent('/admin')}&email=${encodeURIComponent(email)}`, { replace: true });
      }
    } catch (failure) {
      setError(failure instanceof ApiRequestError && failure.status === 404 ? texts.unusable : texts.failed);
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={texts.title} description={accountExists ? texts.existingAccount(email) : texts.newAccount(email, brandName)} back={{ to: '/', label: texts.back }}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label={texts.submit}>
        <div className="space-y-2">
          <Label htmlFor="invitation-password">{texts.password}</Label>
          <PasswordInput
            id="invitation-password"
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'invitation-password-error' : 'invitation-password-hint'}
          />
          {error ? null : (
            <p id="invitation-password-hint" className="text-xs text-muted">
              {texts.hint}
            </p>
          )}
          <FieldError id="invitation-password-error" message={error ?? undefined} />
        </div>
        <SubmitButton busy={busy} busyLabel={texts.busy} disabled={!password}>
          {texts.submit}
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-xs text-muted">
        <Link to="/" className="hover:text-primary">
          {brandName}
        </Link>
      </p>
    </AuthLayout>
  );
}
