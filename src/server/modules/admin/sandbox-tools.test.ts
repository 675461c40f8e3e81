// The console's sandbox tool that runs the member mails days ahead (a demo cannot wait a week for
// the win-back mail; e2e/winback.spec.ts reads it as a member would): the pass at now + days, each
// mail once, audited, clear 400s, and refused where mails or payments are live.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberMailsAheadSchema, sandboxToolsSchema } from '@shared/admin-ops-contract';
import { operatorAuditLog, userSubscriptions } from '../../db/schema';
import { consoleSuite, OPERATOR_EMAIL, seedMember, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { DAY_MS } from '../../test-support/billing-test-kit';
import { createTestApp, operatorSession } from '../../test-support/test-app';
import { listOutboxMails } from '../mail/outbox.repository';

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));
const db = () => suite.t.deps.database.db;
const HOUR_MS = 60 * 60 * 1000;

const runAhead = (body: unknown, cookie = suite.operator) => suite.t.request('/api/admin/sandbox/member-mails', { body, cookie });
const templatesTo = async (email: string) => (await listOutboxMails(db(), { to: email })).map((mail) => mail.template).sort();

describe('the member mails run ahead (sandbox tools)', () => {
  it('writes what a pass `days` from now would: the win-back mail once its days are reached, the reminders due then, each once; audited', async () => {
    const created = await suite.t.request('/api/admin/promotion-codes', { body: { code: 'AHEAD30', percentOff: 30, churnedOnly: true }, cookie: suite.operator });
    expect(created.status, await created.clone().text()).toBe(201);
    const set = await suite.t.request('/api/admin/mail-settings', { method: 'PUT', body: { switches: { winback: true }, winbackDays: 7, winbackCode: 'AHEAD30' }, cookie: suite.operator });
    expect(set.status, await set.clone().text()).toBe(200);
    const churned = await seedMember(db(), { username: null, status: 'canceled', isActive: false, expiresAt: new Date(suite.time.now().getTime() - HOUR_MS) });

    // six days on, the win-back mail is a day early
    const early = await runAhead({ days: 6 });
    expect(early.status, await early.clone().text()).toBe(200);
    expect(memberMailsAheadSchema.parse(await early.json()).winback).toBe(0);
    expect(await templatesTo(churned.email)).toEqual([]);

    // a member who bought an hour ago (by the suite's clock) and set nothing up
    const newcomer = await seedMember(db(), { username: null });
    await db().update(userSubscriptions).set({ createdAt: new Date(suite.time.now().getTime() - HOUR_MS) }).where(eq(userSubscriptions.userId, newcomer.userId));

    const due = await runAhead({ days: 7 });
    expect(due.status).toBe(200);
    const answer = memberMailsAheadSchema.parse(await due.json());
    expect(answer).toEqual({ asOf: expect.any(String), winback: 1, reminders: 3 });
    expect(new Date(answer.asOf).getTime() - suite.time.now().getTime()).toBe(7 * DAY_MS);
    expect(await templatesTo(churned.email)).toEqual(['winback']);
    // the last reminder of the series (7 days) for each step the newcomer has not done
    expect(await templatesTo(newcomer.email)).toEqual(['setup_reminder', 'setup_reminder', 'setup_reminder']);
    await suite.t.deps.mailer.runOnce();
    const [winback] = await listOutboxMails(db(), { to: churned.email });
    expect(winback!.subject).toBe('Come back to Candlewise: 30% off on the first payment');

    // the same pass again: every mail is already written
    expect(memberMailsAheadSchema.parse(await (await runAhead({ days: 7 })).json())).toMatchObject({ winback: 0, reminders: 0 });
    expect(await templatesTo(churned.email)).toEqual(['winback']);

    const audit = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'sandbox.member_mails_ahead')).orderBy(operatorAuditLog.createdAt);
    expect(audit.map((entry) => [entry.operatorEmail, entry.details])).toEqual([
      [OPERATOR_EMAIL, { days: 6, winback: 0, reminders: 0 }],
      [OPERATOR_EMAIL, { days: 7, winback: 1, reminders: 3 }],
      [OPERATOR_EMAIL, { days: 7, winback: 0, reminders: 0 }],
    ]);
    expect(sandboxToolsSchema.parse(await (await suite.t.request('/api/admin/sandbox', { cookie: suite.operator })).json()).memberMailsAhead).toBe(true);
  });

  it('answers bad input with a clear 400 and runs nothing', async () => {
    const before = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'sandbox.member_mails_ahead'));
    for (const body of [{ days: 0 }, { days: 366 }, { days: 2.5 }, { days: '7' }, {}]) {
      const response = await runAhead(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe('days: A whole number of days from 1 to 365.');
    }
    expect(await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'sandbox.member_mails_ahead'))).toHaveLength(before.length);
  });

  it('is refused where mails leave the shop: real members would be mailed early', async () => {
    const live = await createTestApp({ ADMIN_EMAILS: OPERATOR_EMAIL }, { mail: { kind: 'smtp', send: async () => {} } });
    try {
      const { cookie } = await operatorSession(live, OPERATOR_EMAIL);
      const refused = await live.request('/api/admin/sandbox/member-mails', { body: { days: 7 }, cookie });
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Mails or payments are live here: running the member mails ahead would mail real members early.');
      expect(sandboxToolsSchema.parse(await (await live.request('/api/admin/sandbox', { cookie })).json()).memberMailsAhead).toBe(false);
    } finally {
      await live.close();
    }
  });
});
