// Test helpers for billing suites: a movable clock, the sandbox journey through the real app,
// and direct reads of what billing wrote. Only imported by *.test.ts files.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CreateCheckoutRequest } from '@shared/api-contract';
import { queryRows } from '../db/query';
import { checkoutSessions, orders, sandboxEvents, userSubscriptions } from '../db/schema';
import { cookieFrom, createTestApp, type TestApp } from './test-app';
import type { SandboxPaymentsPort } from '../modules/payments/payments.port';
import type { SandboxJobs } from '../modules/sandbox/sandbox-jobs';

export const CARDS = {
  ok: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
  failsLater: '4000 0000 0000 0341',
} as const;

export type MovableClock = { clock: () => Date; now: () => Date; advance: (ms: number) => void; set: (date: Date) => void };

/** A clock tests move by hand; starts at the real time so the database's now() agrees with it. */
export function movableClock(start = new Date()): MovableClock {
  let current = start.getTime();
  return {
    clock: () => new Date(current),
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One real app per suite on a movable clock: created before the suite (handed to `setApp`, so the
 * suite keeps a plain `t`) and closed after it. `email` gives a fresh address on every call.
 */
export function billingSuite(setApp: (app: TestApp) => void): { time: MovableClock; email: (name: string) => string } {
  const time = movableClock();
  let app: TestApp | undefined;
  let counter = 0;
  beforeAll(async () => {
    app = await createTestApp({}, { clock: time.clock });
    setApp(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  return { time, email: (name) => `${name}-${++counter}@example.com` };
}

export function sandboxOf(t: TestApp): SandboxPaymentsPort {
  if (t.deps.payments.kind !== 'sandbox') throw new Error('this suite needs the sandbox payments adapter');
  return t.deps.payments;
}

export function jobsOf(t: TestApp): SandboxJobs {
  const jobs = t.jobs.sandbox;
  if (!jobs) throw new Error('no sandbox jobs');
  return jobs;
}

export function checkoutBody(overrides: Partial<CreateCheckoutRequest> = {}): CreateCheckoutRequest {
  return { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', ...overrides };
}

const checkoutCookies = new Map<string, string>();

/** The cookie header of the browser that started `sessionId` (its checkout cookie), plus `cookie`. */
export function buyerBrowser(sessionId: string, cookie?: string): string {
  return [checkoutCookies.get(sessionId), cookie].filter(Boolean).join('; ');
}

export async function startCheckout(t: TestApp, overrides: Partial<CreateCheckoutRequest> = {}, cookie?: string): Promise<{ url: string; sessionId: string }> {
  const response = await t.request('/api/create-checkout', { body: checkoutBody(overrides), ...(cookie ? { cookie } : {}) });
  expect(response.status, await response.clone().text()).toBe(200);
  const started = (await response.json()) as { url: string; sessionId: string };
  checkoutCookies.set(started.sessionId, cookieFrom(response));
  return started;
}

export function payBody(email: string | null, cardNumber: string = CARDS.ok) {
  return { email, cardNumber, expiry: '12 / 39', cvc: '123', name: 'Ada Buyer' };
}

/** Pays on the sandbox page's API (which also delivers the resulting events at once). */
export async function payOnPage(t: TestApp, sessionId: string, email: string | null, cardNumber: string = CARDS.ok): Promise<Response> {
  return t.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: payBody(email, cardNumber) });
}

/** Checkout + payment; returns the session id. The buyer's e-mail is typed on the page unless the shop fixed it. */
export async function buy(t: TestApp, email: string, overrides: Partial<CreateCheckoutRequest> = {}, cookie?: string, card: string = CARDS.ok): Promise<string> {
  const { sessionId } = await startCheckout(t, overrides, cookie);
  const paid = await payOnPage(t, sessionId, email, card);
  expect(paid.status, await paid.clone().text()).toBe(200);
  return sessionId;
}

export async function rowsOfSession(t: TestApp, sessionId: string) {
  return t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.checkoutSessionId, sessionId));
}

export async function rowsOfUser(t: TestApp, userId: string) {
  return t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
}

export async function ordersOfSession(t: TestApp, sessionId: string) {
  return t.deps.database.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
}

/** Every order of a provider subscription: its first payment's and its renewals'. */
export async function ordersOfSubscription(t: TestApp, subscriptionId: string) {
  return t.deps.database.db.select().from(orders).where(eq(orders.providerSubscriptionId, subscriptionId));
}

export async function checkoutRow(t: TestApp, sessionId: string) {
  const [row] = await t.deps.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  return row;
}

export async function countRows(t: TestApp, table: 'user_subscriptions' | 'orders' | 'processed_events') {
  const [row] = await queryRows<{ count: string | number }>(t.deps.database.db, sql`SELECT count(*) AS count FROM ${sql.raw(table)}`);
  return Number(row?.count ?? 0);
}

export async function undeliveredEvents(t: TestApp) {
  return t.deps.database.db.select().from(sandboxEvents).where(sql`${sandboxEvents.deliveredAt} IS NULL`).orderBy(sandboxEvents.createdAt, sandboxEvents.id);
}

export async function userIdOf(t: TestApp, cookie: string): Promise<string> {
  const response = await t.request('/api/auth/get-session', { cookie });
  const body = (await response.json()) as { user: { id: string } };
  return body.user.id;
}

let signUps = 0;

/** Signs up from its own address each time, so a suite's many members stay under the sign-up rate limit. */
export async function signUp(t: TestApp, email: string, password = 'Sup3rSecret!'): Promise<string> {
  signUps += 1;
  const ip = `198.51.${Math.floor(signUps / 250) % 250}.${(signUps % 250) + 1}`;
  const response = await t.request('/api/auth/sign-up/email', { body: { email, password, name: email.split('@')[0] }, headers: { 'x-forwarded-for': ip } });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}
