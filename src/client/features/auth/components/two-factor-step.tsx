import { useState } from 'react';
import { OneTimeCodeForm } from '@client/components/one-time-code-form';
import { TWO_FACTOR_TEXTS, submitCode, verifyBackupCode, verifyTotp } from '@client/lib/two-factor';

export const TWO_FACTOR_STEP_TEXTS = {
  title: 'Two-factor authentication',
  description: 'Your password was right. Now enter the code from your authenticator app.',
  submit: 'Verify',
  busy: 'Verifying...',
  useBackup: 'Use a backup code instead',
  useApp: 'Use the authenticator app instead',
} as const;

/**
 * The sign-in's second step for an account with two-factor: better-auth keeps the half-done
 * sign-in in its own cookie until a code (or a backup code) completes it.
 */
export function TwoFactorStep({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [kind, setKind] = useState<'totp' | 'backup'>('totp');
  const verify = kind === 'totp' ? verifyTotp : verifyBackupCode;

  return (
    <div className="space-y-4">
      <OneTimeCodeForm
        key={kind}
        kind={kind}
        label={kind === 'totp' ? TWO_FACTOR_TEXTS.codeLabel : TWO_FACTOR_TEXTS.backupLabel}
        hint={kind === 'totp' ? TWO_FACTOR_TEXTS.codeHint : TWO_FACTOR_TEXTS.backupHint}
        submit={TWO_FACTOR_STEP_TEXTS.submit}
        busyLabel={TWO_FACTOR_STEP_TEXTS.busy}
        onCode={submitCode(verify, onSignedIn)}
      />
      <button
        type="button"
        onClick={() => setKind(kind === 'totp' ? 'backup' : 'totp')}
        className="rounded text-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
      >
        {kind === 'totp' ? TWO_FACTOR_STEP_TEXTS.useBackup : TWO_FACTOR_STEP_TEXTS.useApp}
      </button>
    </div>
  );
}
