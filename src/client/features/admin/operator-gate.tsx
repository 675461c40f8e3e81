// What a named operator sees at /admin before the console opens: confirm the e-mail, enrol an
// authenticator app, or sign in again. The server decides (GET /api/operator); these screens
// only help the operator do what it asks.
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { renderSVG } from 'uqr';
import { OPERATOR_SESSION_HOURS, type OperatorStanding } from '@shared/operator-standing';
import { Brand } from '@client/components/brand';
import { OneTimeCodeForm } from '@client/components/one-time-code-form';
import { Button } from '@client/components/ui/button';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { SubmitButton } from '@client/components/ui/submit-button';
import { authRequest, errorInputOf } from '@client/lib/auth-request';
import { useAuth } from '@client/lib/auth-state';
import { operatorQueryKey } from '@client/lib/operator';
import { TWO_FACTOR_TEXTS, codeErrorText, enableTwoFactor, setupKeyOf, submitCode, verifyTotp, type TwoFactorEnrolment } from '@client/lib/two-factor';

export const OPERATOR_GATE_TEXTS = {
  confirmEmail: {
    title: 'Confirm your e-mail to open the console',
    body: (email: string) =>
      `${email} is named as an operator, but this account has not confirmed its address yet. Anyone can sign up with an address; only its owner can open a link sent to it.`,
    send: 'Send confirmation link',
    sending: 'Sending...',
    sent: (email: string) => `We sent a link to ${email}. Open it to continue to the console.`,
    failed: 'The link could not be sent. Please try again in a minute.',
  },
  enrol: {
    title: 'Protect the console with two-factor authentication',
    body: 'Operators sign in with a password and a code from an authenticator app (Google Authenticator, 1Password, Authy…). Confirm your password to set it up.',
    password: 'Your password',
    start: 'Set up two-factor',
    starting: 'Setting up...',
    wrongPassword: 'That password is not right.',
    scan: 'Scan this QR code with your authenticator app, then enter the 6-digit code it shows.',
    qrAlt: 'QR code for your authenticator app',
    setupKey: 'Or enter this setup key by hand:',
    backupTitle: 'Backup codes',
    backupBody: 'Keep these somewhere safe: each one signs you in once if you lose your phone. They are shown only now.',
    verify: 'Verify and open the console',
    verifying: 'Verifying...',
  },
  signInAgain: {
    title: 'Sign in again to open the console',
    body: `For your security, the console needs a sign-in from the last ${OPERATOR_SESSION_HOURS} hours that passed two-factor authentication where it is set up.`,
    action: 'Sign in again',
  },
} as const;

function GateCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-lg space-y-6 rounded-2xl border border-border bg-card/90 p-8 shadow-2xl shadow-black/40">
        <div className="flex flex-col items-center gap-4 text-center">
          <Brand />
          <ShieldCheck aria-hidden="true" className="h-8 w-8 text-primary" />
          <h1 className="text-2xl font-semibold tracking-tight text-white">{title}</h1>
        </div>
        {children}
      </div>
    </main>
  );
}

function ConfirmEmail({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const texts = OPERATOR_GATE_TEXTS.confirmEmail;
  const send = async () => {
    setState('sending');
    try {
      await authRequest('/api/auth/send-verification-email', { email, callbackURL: '/admin' });
      setState('sent');
    } catch {
      setState('failed');
    }
  };
  return (
    <GateCard title={texts.title}>
      <p className="text-sm text-muted">{texts.body(email)}</p>
      {state === 'sent' ? (
        <p role="status" className="rounded-xl border border-primary/30 bg-primary/10 p-4 text-sm text-white">
          {texts.sent(email)}
        </p>
      ) : (
        <>
          <Button type="button" size="lg" className="w-full" disabled={state === 'sending'} onClick={() => void send()}>
            {state === 'sending' ? texts.sending : texts.send}
          </Button>
          {state === 'failed' ? <FieldError id="confirm-email-error" message={texts.failed} /> : null}
        </>
      )}
    </GateCard>
  );
}

function EnrolTwoFactor({ onEnrolled }: { onEnrolled: () => Promise<void> }) {
  const texts = OPERATOR_GATE_TEXTS.enrol;
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      setEnrolment(await enableTwoFactor(password));
      setError(null);
    } catch (failure) {
      const input = errorInputOf(failure);
      setError(input.status === 400 || input.status === 401 ? texts.wrongPassword : codeErrorText(failure));
    } finally {
      setBusy(false);
    }
  };

  if (!enrolment) {
    return (
      <GateCard title={texts.title}>
        <p className="text-sm text-muted">{texts.body}</p>
        <form noValidate onSubmit={(event) => void start(event)} className="space-y-4" aria-label={texts.start}>
          <div className="space-y-2">
            <Label htmlFor="enrol-password">{texts.password}</Label>
            <Input
              id="enrol-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'enrol-password-error' : undefined}
            />
            <FieldError id="enrol-password-error" message={error ?? undefined} />
          </div>
          <SubmitButton busy={busy} busyLabel={texts.starting} disabled={!password}>
            {texts.start}
          </SubmitButton>
        </form>
      </GateCard>
    );
  }

  const qr = `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(enrolment.totpURI, { whiteColor: '#ffffff', blackColor: '#000000' }))}`;
  return (
    <GateCard title={texts.title}>
      <p className="text-sm text-muted">{texts.scan}</p>
      <img src={qr} alt={texts.qrAlt} width={200} height={200} className="mx-auto rounded-lg bg-white p-2" />
      <p className="text-center text-sm text-muted">
        {texts.setupKey}{' '}
        <code aria-label="Setup key" className="break-all font-mono text-white">
          {setupKeyOf(enrolment.totpURI)}
        </code>
      </p>
      <section aria-label={texts.backupTitle} className="space-y-2 rounded-xl border border-border p-4">
        <h2 className="text-sm font-semibold text-white">{texts.backupTitle}</h2>
        <p className="text-xs text-muted">{texts.backupBody}</p>
        <ul className="grid grid-cols-2 gap-1 font-mono text-sm text-white">
          {enrolment.backupCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </section>
      <OneTimeCodeForm
        kind="totp"
        label={TWO_FACTOR_TEXTS.codeLabel}
        hint={TWO_FACTOR_TEXTS.codeHint}
        submit={texts.verify}
        busyLabel={texts.verifying}
        onCode={submitCode(verifyTotp, onEnrolled)}
      />
    </GateCard>
  );
}

function SignInAgain({ email }: { email: string }) {
  const { signOut } = useAuth();
  const texts = OPERATOR_GATE_TEXTS.signInAgain;
  const signInPage = `/auth?redirect=${encodeURIComponent('/admin')}&email=${encodeURIComponent(email)}`;
  return (
    <GateCard title={texts.title}>
      <p className="text-sm text-muted">{texts.body}</p>
      <Button type="button" size="lg" className="w-full" onClick={() => void signOut(signInPage)}>
        {texts.action}
      </Button>
    </GateCard>
  );
}

/** The screen for a named operator who may not open the console yet; null for anyone else. */
export function OperatorGate({ standing, email, userId }: { standing: OperatorStanding; email: string; userId: string }) {
  const queryClient = useQueryClient();
  const { refreshSession } = useAuth();
  // Enrolment made a new session (the one that passed the code): read it, then ask again.
  const recheck = async () => {
    await refreshSession();
    await queryClient.invalidateQueries({ queryKey: operatorQueryKey(userId) });
  };
  if (standing === 'confirm_email') return <ConfirmEmail email={email} />;
  if (standing === 'enrol_two_factor') return <EnrolTwoFactor onEnrolled={recheck} />;
  if (standing === 'sign_in_again') return <SignInAgain email={email} />;
  return null;
}
