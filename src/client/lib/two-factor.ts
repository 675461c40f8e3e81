// better-auth's two-factor calls, shared by the sign-in page (the code after the password) and
// the operator console (enrolment).
import { LOGIN_TEXTS } from '@shared/error-messages';
import { authRequest, errorInputOf } from './auth-request';

export type TwoFactorEnrolment = { totpURI: string; backupCodes: string[] };

/** Starts enrolment: a new secret (shown as a QR code) and backup codes; effective once a code is verified. */
export const enableTwoFactor = (password: string) => authRequest<TwoFactorEnrolment>('/api/auth/two-factor/enable', { password });

/** A code from the authenticator app: finishes enrolment, or the sign-in that asked for it. */
export const verifyTotp = (code: string) => authRequest<unknown>('/api/auth/two-factor/verify-totp', { code });

/** A one-time backup code, for a sign-in without the authenticator app. */
export const verifyBackupCode = (code: string) => authRequest<unknown>('/api/auth/two-factor/verify-backup-code', { code });

/** The key an authenticator app takes by hand when the QR code cannot be scanned, in groups of four. */
export function setupKeyOf(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

export const TWO_FACTOR_TEXTS = {
  codeLabel: 'Authentication code',
  codeHint: 'The 6-digit code from your authenticator app.',
  backupLabel: 'Backup code',
  backupHint: 'One of the backup codes you kept when you set up two-factor authentication.',
  wrongCode: 'That code is not valid. Check the time on your phone and try again.',
} as const;

/** What the code field says when a code was refused. */
export function codeErrorText(error: unknown): string {
  const input = errorInputOf(error);
  if (input.status === 429) return LOGIN_TEXTS.tooManyAttempts.description;
  if (input.network) return 'The connection failed. Please try again.';
  return TWO_FACTOR_TEXTS.wrongCode;
}

/** A code field's submit: `verify`, then `onAccepted`; a refused code answers the text the field shows. */
export function submitCode(verify: (code: string) => Promise<unknown>, onAccepted: () => Promise<void>) {
  return async (code: string): Promise<string | null> => {
    try {
      await verify(code);
    } catch (error) {
      return codeErrorText(error);
    }
    await onAccepted();
    return null;
  };
}
