import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAlertsResponseSchema } from '@shared/api-contract';
import { securityEvents, userSubscriptions } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { recordSecurityEvent, type SecurityEventType } from './security.repository';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUser(email: string): Promise<{ cookie: string; id: string }> {
  const cookie = await signUp(t, email);
  const session = (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string } };
  return { cookie, id: session.user.id };
}

async function record(userId: string, event: SecurityEventType, times = 1) {
  for (let i = 0; i < times; i++) await recordSecurityEvent(t.deps.database.db, { userId, event });
}

async function alertsOf(cookie: string) {
  const response = await t.request('/api/security/alerts', { cookie });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { colour: string };
  return { ...securityAlertsResponseSchema.parse(body), colour: body.colour };
}

async function eventsOf(userId: string) {
  return t.deps.database.db.select().from(securityEvents).where(eq(securityEvents.userId, userId));
}

describe('GET /api/security/alerts', () => {
  it('needs a session', async () => {
    const response = await t.request('/api/security/alerts');
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('unauthorized');
  });

  it('gives a clean account a green 100 and no alerts', async () => {
    const { cookie } = await newUser('clean@example.com');
    expect(await alertsOf(cookie)).toEqual({ score: 100, colour: 'green', alerts: [] });
  });

  it('warns after 3 failed sign-ins and takes 5 points for each', async () => {
    const { cookie, id } = await newUser('failures@example.com');
    await record(id, 'AUTH_FAILURE', 2);
    expect(await alertsOf(cookie)).toMatchObject({ score: 90, alerts: [] });
    await record(id, 'AUTH_FAILURE');
    const result = await alertsOf(cookie);
    expect(result.score).toBe(85);
    expect(result.colour).toBe('green');
    expect(result.alerts).toHaveLength(1);
    expect(result.alerts[0]).toMatchObject({ type: 'warning' });
    expect(result.alerts[0]?.message).toContain('3 failed sign-in attempts');
  });

  it('reports two subscription changes within an hour as info, without lowering the score', async () => {
    const { cookie, id } = await newUser('changes@example.com');
    await record(id, 'SUBSCRIPTION_CHANGE', 2);
    const result = await alertsOf(cookie);
    expect(result.score).toBe(100);
    expect(result.alerts.map((alert) => alert.type)).toEqual(['info']);
  });

  it('turns yellow, then red, and keeps at most 10 alerts', async () => {
    const { cookie, id } = await newUser('attacked@example.com');
    await record(id, 'UNAUTHORIZED_ACCESS', 2); // 100 − 30
    expect(await alertsOf(cookie)).toMatchObject({ score: 70, colour: 'yellow' });
    await record(id, 'SUSPICIOUS_ACTIVITY', 1); // − 10
    expect(await alertsOf(cookie)).toMatchObject({ score: 60, colour: 'yellow' });
    await record(id, 'UNAUTHORIZED_ACCESS', 10);
    const result = await alertsOf(cookie);
    expect(result.score).toBe(0);
    expect(result.colour).toBe('red');
    expect(result.alerts).toHaveLength(10);
    expect(result.alerts.some((alert) => alert.type === 'critical')).toBe(true);
  });

  it('only shows a user their own alerts', async () => {
    const victim = await newUser('victim@example.com');
    const bystander = await newUser('bystander@example.com');
    await record(victim.id, 'UNAUTHORIZED_ACCESS', 3);
    expect(await alertsOf(bystander.cookie)).toMatchObject({ score: 100, alerts: [] });
  });
});

describe('POST /api/security/events/unauthorized-access', () => {
  const path = '/api/security/events/unauthorized-access';

  it('needs a session', async () => {
    const response = await t.request(path, { body: { path: '/dashboard/guides' } });
    expect(response.status).toBe(401);
  });

  it('records one UNAUTHORIZED_ACCESS for a user without access, at most once a minute', async () => {
    const { cookie, id } = await newUser('no-access@example.com');
    const first = await t.request(path, { cookie, body: { path: '/dashboard/guides' } });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ recorded: true });
    const again = await t.request(path, { cookie, body: { path: '/dashboard/strategies' } });
    expect(await again.json()).toEqual({ recorded: false });

    const events = await eventsOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'UNAUTHORIZED_ACCESS', details: { path: '/dashboard/guides' }, ipAddress: '203.0.113.7' });
    const alerts = await alertsOf(cookie);
    expect(alerts.score).toBe(85);
    expect(alerts.alerts.map((alert) => alert.type)).toEqual(['critical']);
  });

  it('ignores any event type the client sends: the server decides what is written', async () => {
    const { cookie, id } = await newUser('forger@example.com');
    const response = await t.request(path, { cookie, body: { path: '/dashboard', event: 'SUBSCRIPTION_CHANGE', userId: 'someone-else' } });
    expect(response.status).toBe(200);
    expect((await eventsOf(id)).map((event) => event.event)).toEqual(['UNAUTHORIZED_ACCESS']);
  });

  it('records nothing for a member who has access', async () => {
    const { cookie, id } = await newUser('has-access@example.com');
    await t.deps.database.db
      .insert(userSubscriptions)
      .values({ userId: id, planType: 'lifetime', status: 'active', isActive: true, provider: 'sandbox' });
    const response = await t.request(path, { cookie, body: { path: '/dashboard' } });
    expect(await response.json()).toEqual({ recorded: false });
    expect(await eventsOf(id)).toHaveLength(0);
  });

  it('refuses a malformed path with a 400', async () => {
    const { cookie } = await newUser('malformed@example.com');
    const response = await t.request(path, { cookie, body: { path: 'javascript:alert(1)' } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('validation_failed');
    const notJson = await t.request(path, { cookie, body: '{not json' });
    expect(notJson.status).toBe(400);
  });
});
