// Shared Playwright helpers for journeys that need an account or a mailed link. Other specs
// import these: keep the signatures stable.
import { randomInt, randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type ConsoleMessage, type Locator, type Page } from '@playwright/test';

/** A password that satisfies the sign-up rule (8+ characters, lower, upper, digit). */
export const TEST_PASSWORD = 'Sup3rSecret!';

/** A fresh address per call, so that specs never collide on one database. */
export function uniqueEmail(prefix = 'buyer'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * Every browser in a test run comes from 127.0.0.1, and sign-in/sign-up are rate-limited per
 * client address (10 a minute), while several workers sign up at once. A visitor of its own, from
 * the benchmarking range (RFC 2544, 131,072 addresses), makes the run look like many visitors
 * instead of one very busy one. The server trusts the header from 127.0.0.1 (TRUST_PROXY).
 */
export function newVisitorAddress(): string {
  return `198.${randomInt(18, 20)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export const asNewVisitor = () => ({ 'x-forwarded-for': newVisitorAddress() });

/**
 * The Origin a browser sends with every POST of the page's own scripts. A test that posts to
 * better-auth from a context holding cookies (every page gives the browser its checkout token)
 * must send it too: better-auth refuses a cookie-bearing POST without an Origin (CSRF).
 */
export const sameOrigin = () => ({ origin: new URL(test.info().project.use.baseURL!).origin });

export async function actAsNewVisitor(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders(asNewVisitor());
}

/**
 * Scrolls what `target` finds into view (`block`: where in the window), finding it again on each try: a locator's own
 * scrollIntoViewIfNeeded keeps the element it found first and fails if the page replaces it
 * meanwhile (a busy machine can still be hydrating the page when the test looks).
 */
export async function scrollIntoView(target: Locator, block: ScrollLogicalPosition = 'center'): Promise<void> {
  await expect(async () => {
    await target.evaluate((element, where) => element.scrollIntoView({ block: where, behavior: 'instant' }), block);
    await expect(target).toBeInViewport({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

type AuthOptions = {
  /** Sent as /auth?redirect=…; after sign-in the app goes there (with premium access). */
  redirect?: string;
};

const authUrl = (options: AuthOptions) => (options.redirect ? `/auth?redirect=${encodeURIComponent(options.redirect)}` : '/auth');

/**
 * Creates an account on /auth and resolves once the app has left /auth: a fresh user has no
 * premium access, so that is /premium-access-required.
 */
export async function signUpViaUi(page: Page, email: string, password = TEST_PASSWORD, options: AuthOptions = {}): Promise<void> {
  await actAsNewVisitor(page);
  await page.goto(authUrl(options));
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/auth');
}

/** Signs in on /auth and resolves once the app has left /auth (premium users: /dashboard or `redirect`). */
export async function signInViaUi(page: Page, email: string, password = TEST_PASSWORD, options: AuthOptions = {}): Promise<void> {
  await actAsNewVisitor(page);
  await page.goto(authUrl(options));
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/auth');
}

/** The sandbox mailbox API for one recipient: everyone's mails soon overflow its page of 50. */
export function mailboxPathFor(to: string): string {
  return `/api/sandbox/mailbox?to=${encodeURIComponent(to)}`;
}

export type SandboxMail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

/**
 * The newest mail the sandbox outbox holds for `to` (GET /api/sandbox/mailbox), waiting up to
 * the expect timeout for it: mails leave in the background. `subject` narrows the search.
 */
export async function readLatestMail(request: APIRequestContext, to: string, options: { subject?: string | RegExp } = {}): Promise<SandboxMail> {
  let found: SandboxMail | undefined;
  const matches = (mail: SandboxMail) =>
    mail.to.toLowerCase() === to.toLowerCase() &&
    (options.subject === undefined || (typeof options.subject === 'string' ? mail.subject.includes(options.subject) : options.subject.test(mail.subject)));
  await expect
    .poll(
      async () => {
        const response = await request.get(mailboxPathFor(to));
        if (!response.ok()) return `mailbox answered ${response.status()}`;
        const { mails } = (await response.json()) as { mails: SandboxMail[] };
        found = mails.find(matches);
        return found ? 'found' : `no mail to ${to} yet`;
      },
      { message: `a mail to ${to}` },
    )
    .toBe('found');
  return found!;
}

/** The first link in a mail's text whose path starts with `path`, e.g. '/reset-password'. */
export function linkInMail(mail: SandboxMail, path: string): string {
  const link = (mail.text.match(/https?:\/\/\S+/g) ?? []).find((candidate) => new URL(candidate).pathname.startsWith(path));
  if (!link) throw new Error(`no ${path} link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/**
 * Chromium's report that a mail preview refused a script: the sandbox mailbox shows each mail in an
 * iframe sandboxed without scripts, and the test browser's own helpers (its trace snapshots, its
 * evaluations) are refused there too. That is the sandbox working, not something a page logged
 * (the mails carry no scripts).
 */
export const isMailPreviewScriptBlock = (message: ConsoleMessage) => message.text().startsWith("Blocked script execution in 'about:srcdoc'");
