// The test app's password hash: scrypt at a test's cost. The shop's own (better-auth's scrypt, N
// 16384 and r 16: 32 MB and tens of milliseconds of a core for each hash and each check) was an
// eighth of the server tests' CPU, spent on hundreds of sign-ups and sign-ins that test what the
// shop does with a password, not the cost of guessing one. The hash is still a real salted scrypt
// checked in constant time, so a wrong password fails as it does in the shop; the shop's own
// hashing is what the builds without this option use (main.test.ts's servers, the browser tests,
// auth.test.ts's instances on one database).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { PasswordHashing } from '../modules/auth/auth';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keyLength: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
const COST = { N: 1024, r: 1, p: 1 };
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer) => scryptAsync(password.normalize('NFKC'), salt, KEY_LENGTH, COST);

export const testPasswordHashing: PasswordHashing = {
  hash: async (password) => {
    const salt = randomBytes(16);
    return `${salt.toString('hex')}:${(await derive(password, salt)).toString('hex')}`;
  },
  verify: async ({ hash, password }) => {
    const [salt, key] = hash.split(':');
    if (!salt || !key) return false;
    const expected = Buffer.from(key, 'hex');
    const actual = await derive(password, Buffer.from(salt, 'hex'));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
