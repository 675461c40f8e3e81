// The console's CSV downloads through the whole app: each answers a CSV file of every row (paged
// past one page without a row lost or repeated), defuses cells that start like a formula, and
// leaves an entry in the audit log; members are refused.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditLogSchema } from '@shared/admin-contract';
import { cancellations, orders, user } from '../../db/schema';
import { consoleSuite, OPERATOR_EMAIL } from '../../test-support/admin-test-kit';
import type { TestApp } from '../../test-support/test-app';
import { EXPORT_PAGE_SIZE } from './exports.service';

let t: TestApp;
let operator: string;
let member: string;
consoleSuite((suite) => ({ t, operator, member } = suite));

const db = () => t.deps.database.db;

async function download(file: string) {
  const response = await t.request(`/api/admin/exports/${file}`, { cookie: operator });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
  const text = await response.text();
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

describe('CSV downloads', () => {
  it('streams every order over several pages, each once, in creation order', async () => {
    const userId = randomUUID();
    await db().insert(user).values({ id: userId, name: 'buyer', email: `buyer-${userId.slice(0, 8)}@example.com` });
    // one instant for all: the id decides the order within it, so no row is lost at a page's edge
    const at = new Date('2026-01-15T10:00:00Z');
    const rows = Array.from({ length: EXPORT_PAGE_SIZE + 5 }, (_, index) => ({ userId, planType: 'monthly' as const, amount: 2900 + index, currency: 'usd', status: 'paid', createdAt: at }));
    await db().insert(orders).values(rows);
    const lines = await download('orders.csv');
    expect(lines[0]).toBe('id,created_at,email,plan,amount,tax,discount,currency,status,promotion_code,provider_payment_id');
    const body = lines.slice(1);
    expect(body).toHaveLength(EXPORT_PAGE_SIZE + 5);
    expect(new Set(body.map((line) => line.split(',')[0])).size).toBe(EXPORT_PAGE_SIZE + 5);
    expect(body.map((line) => line.split(',')[4]).sort()).toEqual(rows.map((row) => (row.amount / 100).toFixed(2)).sort());
    expect(body[0]).toContain(',2026-01-15T10:00:00.000Z,buyer-');
  });

  it('defuses a member name that starts like a formula, and lists the members with their access', async () => {
    const userId = randomUUID();
    await db().insert(user).values({ id: userId, name: '=HYPERLINK("http://evil.example","click")', email: `formula-${userId.slice(0, 8)}@example.com` });
    const lines = await download('members.csv');
    expect(lines[0]).toBe('id,email,name,joined_at,email_verified,plan,status,provider,access_until,cancel_at_period_end,banned');
    const line = lines.find((entry) => entry.startsWith(userId))!;
    expect(line).toContain(',"\'=HYPERLINK(""http://evil.example"",""click"")",');
    expect(line.endsWith(',false,,,,,,false')).toBe(true);
  });

  it('writes the churn reasons in words, with the member’s own text quoted', async () => {
    const userId = randomUUID();
    const email = `leaver-${userId.slice(0, 8)}@example.com`;
    await db().insert(user).values({ id: userId, name: 'leaver', email });
    await db().insert(cancellations).values({ userId, provider: 'sandbox', providerSubscriptionId: `sub_${userId}`, planType: 'monthly', reason: 'other', reasonText: '+1, "too noisy"\nbye', outcome: 'declined', state: 'done' });
    const text = (await download('churn-reasons.csv')).join('\r\n');
    expect(text).toContain(`,${email},monthly,Other,"'+1, ""too noisy""\nbye",Canceled at period end,,`);
  });

  it('records each download in the audit log, which downloads as CSV too; a member is refused', async () => {
    expect((await t.request('/api/admin/exports/audit-log.csv', { cookie: member })).status).toBe(403);
    expect((await t.request('/api/admin/exports/audit-log.csv')).status).toBe(401);
    const lines = await download('audit-log.csv');
    expect(lines[0]).toBe('created_at,operator,action,member,what_happened,details');
    expect(lines.some((line) => line.includes(`,${OPERATOR_EMAIL},export_csv,,${OPERATOR_EMAIL} downloaded the orders as CSV,`))).toBe(true);
    const log = auditLogSchema.parse(await (await t.request('/api/admin/audit-log', { cookie: operator })).json());
    const exported = log.entries.filter((entry) => entry.action === 'export_csv').map((entry) => entry.details.export);
    expect(exported).toEqual(expect.arrayContaining(['orders', 'members', 'churn-reasons', 'audit-log']));
    expect(exported.filter((kind) => kind === 'audit-log')).toHaveLength(1);
  });
});
