// Who holds an operator's power. Being named (ADMIN_EMAILS, the operators table) is only the first
// step: an address anyone can type proves nothing, so the account must also have proven its
// e-mail, and where two-factor is required, every sign-in that opens the console must have passed it.

/** How long one sign-in holds an operator's power; after it the console asks to sign in again. */
export const OPERATOR_SESSION_HOURS = 12;
/** How long an invitation to become an operator can be used. */
export const OPERATOR_INVITATION_HOURS = 24;

export const OPERATOR_STANDINGS = ['member', 'confirm_email', 'enrol_two_factor', 'sign_in_again', 'operator'] as const;
/**
 * - member: not named as an operator;
 * - confirm_email: named, but the account has not proven its e-mail (a stranger could have made it);
 * - enrol_two_factor: named and proven, two-factor is required and not set up yet;
 * - sign_in_again: this sign-in is too old, or did not pass the second factor the account has;
 * - operator: may open the console.
 */
export type OperatorStanding = (typeof OPERATOR_STANDINGS)[number];

export type OperatorFacts = {
  named: boolean;
  emailVerified: boolean;
  twoFactorRequired: boolean;
  twoFactorEnabled: boolean;
  /** When this session's sign-in happened. */
  signedInAt: Date;
  /** Whether this session's sign-in passed the second factor. */
  signInPassedTwoFactor: boolean;
  now: Date;
};

export function operatorStanding(facts: OperatorFacts): OperatorStanding {
  if (!facts.named) return 'member';
  if (!facts.emailVerified) return 'confirm_email';
  if (facts.twoFactorRequired && !facts.twoFactorEnabled) return 'enrol_two_factor';
  if (facts.now.getTime() - facts.signedInAt.getTime() > OPERATOR_SESSION_HOURS * 3_600_000) return 'sign_in_again';
  // An account with a second factor must use it even where it is not required: a password reset
  // or a mailed link signs in without it, and must not open the console.
  if ((facts.twoFactorRequired || facts.twoFactorEnabled) && !facts.signInPassedTwoFactor) return 'sign_in_again';
  return 'operator';
}
