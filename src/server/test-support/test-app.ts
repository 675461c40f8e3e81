import { createApp } from '../app';
import { compose, type Jobs, type Services } from '../composition';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { buildDependencies, type Dependencies } from '../dependencies';
import { createLogger } from '../logger';
import type { PaymentsPort } from '../modules/payments/payments.port';
import type { ContentCatalogue } from '../modules/content/content-loader';
import type { Mail, MailPort } from '../modules/mail/mail.port';
import { inviteOperator } from '../modules/auth/operator-invitations';
import type { PasswordHashing } from '../modules/auth/auth';
import { testPasswordHashing } from './test-password-hashing';
import { createTestDatabase } from './test-database';
import type { Integration } from '../integration';
import { secretOfTotpUri, totpCode } from './totp';

export type TestApp = {
  app: Awaited<ReturnType<typeof createApp>>;
  deps: Dependencies;
  /** The services and jobs the app runs on, from the same composition root as main.ts. */
  services: Services;
  jobs: Jobs;
  /** The integrations of integrations.ts, as the composition built them. */
  integrations: Integration[];
  /** Mails the outbox worker "sent" during the suite, newest last (empty with options.mail). */
  mails: Mail[];
  /** A request with a JSON body and optional cookie, through the whole app. */
  request: (path: string, init?: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> }) => Promise<Response>;
  close: () => Promise<void>;
};

export const TEST_ORIGIN = 'http://localhost:3000';

/**
 * In-process requests arrive as if through a reverse proxy on the loopback address, which the
 * test app trusts (TRUST_PROXY), so a test names its client address in x-forwarded-for honestly,
 * as a proxy would. Attacks on the address resolution itself use a real socket instead
 * (src/server/security/attacks-throttles.test.ts).
 */
export const TEST_PROXY_ADDRESS = '127.0.0.1';
const throughTestProxy = { incoming: { socket: { remoteAddress: TEST_PROXY_ADDRESS, remoteFamily: 'IPv4' } } };

/** The real app on a fresh test database (or the one given, which close() closes) with a mail port that keeps what it sends. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { clock?: () => Date; content?: ContentCatalogue; payments?: PaymentsPort; mail?: MailPort; database?: Database; passwordHashing?: PasswordHashing } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN, TRUST_PROXY: TEST_PROXY_ADDRESS, ...env });
  const mails: Mail[] = [];
  const mail: MailPort = options.mail ?? { kind: 'outbox', send: async (message) => void mails.push(message) };
  const deps = await buildDependencies(config, database, createLogger('silent'), {
    secret: 'test-secret-test-secret-test-secret-1234',
    mail,
    passwordHashing: testPasswordHashing,
    ...options,
  });
  const composition = compose(deps);
  const app = await createApp(composition);
  return {
    app,
    deps,
    services: composition.services,
    jobs: composition.jobs,
    integrations: composition.integrations ?? [],
    mails,
    request: async (path, init = {}) =>
      app.request(path, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          origin: TEST_ORIGIN,
          'x-forwarded-for': '203.0.113.7',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.cookie ? { cookie: init.cookie } : {}),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      }, throughTestProxy),
    close: () => database.close(),
  };
}

/** The cookie header a browser would send back after this response. */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Signs up through better-auth and returns the session cookie. */
export async function signUp(testApp: TestApp, email: string, password = 'Sup3rSecret!'): Promise<string> {
  const response = await testApp.request('/api/auth/sign-up/email', { body: { email, password, name: email.split('@')[0] } });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}

/**
 * A signed-in operator, made the way a vendor makes one: an invitation (`npm run admin -- add`)
 * whose link sets the password. With `twoFactor`, the operator also enrols an authenticator app,
 * and the session returned is the one the enrolment's code made.
 */
export async function operatorSession(
  testApp: TestApp,
  email: string,
  options: { password?: string; twoFactor?: boolean } = {},
): Promise<{ cookie: string; totpSecret: string | null }> {
  const password = options.password ?? 'Sup3rSecret!';
  const { deps } = testApp;
  const { url } = await inviteOperator({ db: deps.database.db, config: deps.config, clock: deps.clock }, { email, invitedBy: 'test' });
  const token = new URL(url).searchParams.get('token');
  const accepted = await testApp.request('/api/operator-invitations/accept', { body: { token, password } });
  if (accepted.status !== 200) throw new Error(`invitation not accepted: ${accepted.status} ${await accepted.text()}`);
  const cookie = cookieFrom(accepted);
  if (!options.twoFactor) return { cookie, totpSecret: null };
  const enabled = await testApp.request('/api/auth/two-factor/enable', { cookie, body: { password } });
  if (enabled.status !== 200) throw new Error(`two-factor not enabled: ${enabled.status} ${await enabled.text()}`);
  const totpSecret = secretOfTotpUri(((await enabled.json()) as { totpURI: string }).totpURI);
  const verified = await testApp.request('/api/auth/two-factor/verify-totp', { cookie, body: { code: totpCode(totpSecret) } });
  if (verified.status !== 200) throw new Error(`two-factor not verified: ${verified.status} ${await verified.text()}`);
  return { cookie: cookieFrom(verified), totpSecret };
}
