import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { rememberFreshPassword, verifyFreshOr } from './fresh-passwords';

const verifyFreshOrStored = verifyFreshOr(verifyPassword);

describe('the password of an account just made', () => {
  it('matches its remembered hash once without hashing again; the next check is the ordinary one', async () => {
    // not a hash scrypt could ever match: only the memo can say yes
    rememberFreshPassword('salt:made-just-now', 'correct horse battery');
    await expect(verifyFreshOrStored({ hash: 'salt:made-just-now', password: 'correct horse battery' })).resolves.toBe(true);
    await expect(verifyFreshOrStored({ hash: 'salt:made-just-now', password: 'correct horse battery' })).resolves.toBe(false);
  });

  it('refuses a wrong password, and the memo is spent on it', async () => {
    rememberFreshPassword('salt:guessed', 'correct horse battery');
    await expect(verifyFreshOrStored({ hash: 'salt:guessed', password: 'wrong guess 123' })).resolves.toBe(false);
    await expect(verifyFreshOrStored({ hash: 'salt:guessed', password: 'correct horse battery' })).resolves.toBe(false);
  });

  it('is forgotten after half a minute', async () => {
    rememberFreshPassword('salt:old', 'correct horse battery', Date.now() - 31_000);
    await expect(verifyFreshOrStored({ hash: 'salt:old', password: 'correct horse battery' })).resolves.toBe(false);
  });

  it('leaves every other password to better-auth’s own check', async () => {
    const hash = await hashPassword('correct horse battery');
    await expect(verifyFreshOrStored({ hash, password: 'correct horse battery' })).resolves.toBe(true);
    await expect(verifyFreshOrStored({ hash, password: 'wrong guess 123' })).resolves.toBe(false);
  });
});
