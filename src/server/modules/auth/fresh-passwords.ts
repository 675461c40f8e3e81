// The password of an account the server has just made, remembered for the sign-in that follows it
// in the same request (verify-payment creates the account, then signs the buyer in through
// better-auth's own sign-in, which sets the session cookie and runs every hook). Without this, that
// sign-in would check with scrypt the password hashed a moment ago: two hashes per purchase, the
// cost that held a sale's buyers in line (decision 036).
import { createHash, timingSafeEqual } from 'node:crypto';

/** Long enough for the sign-in of the same request; the memo never outlives it by much. */
const FRESH_FOR_MS = 30_000;
/** A bound on the memo, whatever the traffic: a forgotten entry only costs the ordinary check. */
const MAX_FRESH = 10_000;

// by stored hash (its salt makes it unique): a digest of the password, never the password itself
const fresh = new Map<string, { digest: Buffer; until: number }>();

const digestOf = (password: string) => createHash('sha256').update(password).digest();

function forgetExpired(now: number): void {
  for (const [hash, entry] of fresh) {
    if (entry.until > now && fresh.size < MAX_FRESH) break;
    fresh.delete(hash);
  }
}

/** Called where the server has just hashed `password` into `hash`; the next check of it is free, once. */
export function rememberFreshPassword(hash: string, password: string, now = Date.now()): void {
  forgetExpired(now);
  fresh.set(hash, { digest: digestOf(password), until: now + FRESH_FOR_MS });
}

/** A password check as better-auth takes it. */
export type VerifyPassword = (input: { hash: string; password: string }) => Promise<boolean>;

/**
 * better-auth's password check: a hash remembered above matches its own password without
 * `verifyStored` (scrypt) and only once; anything else, a wrong password included, gets `verifyStored`.
 */
export function verifyFreshOr(verifyStored: VerifyPassword): VerifyPassword {
  return async ({ hash, password }) => {
    const entry = fresh.get(hash);
    if (entry) {
      fresh.delete(hash);
      if (entry.until > Date.now() && timingSafeEqual(entry.digest, digestOf(password))) return true;
    }
    return verifyStored({ hash, password });
  };
}
