// The console's script catalog through the whole app (sandbox TradingView): who may call it is in
// admin.routes.test.ts's table; here, what it answers, what it refuses and what it audits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PLAN_TYPES } from '@shared/plans';
import { scriptCatalogSchema, scriptSyncResultSchema, setScriptPlansResultSchema } from '@shared/script-catalog';
import { operatorAuditLog, tradingviewScripts } from '../../db/schema';
import { createTestApp, operatorSession, type TestApp } from '../../test-support/test-app';

const OPERATOR = 'operator@example.com';
let t: TestApp;
let operator: string;
const scripts = () => t.deps.config.integrations.tradingview.scriptIds;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: OPERATOR });
  operator = (await operatorSession(t, OPERATOR)).cookie;
});
afterAll(async () => {
  await t.close();
});

const setPlans = (body: unknown) => t.request('/api/admin/tradingview/scripts/plans', { method: 'POST', body, cookie: operator });
const stored = async () => (await t.deps.database.db.select({ id: tradingviewScripts.id, plans: tradingviewScripts.planTypes }).from(tradingviewScripts)).sort((a, b) => a.id.localeCompare(b.id));
const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

describe('the script catalog in the console', () => {
  it('lists the configured scripts with every plan, and a sync names them, audited', async () => {
    const listed = scriptCatalogSchema.parse(await (await t.request('/api/admin/tradingview/scripts', { cookie: operator })).json());
    expect(listed.scripts.map((script) => [script.id, script.plans])).toEqual(scripts().map((id) => [id, [...PLAN_TYPES]]));

    const response = await t.request('/api/admin/tradingview/scripts/sync', { method: 'POST', cookie: operator });
    expect(response.status).toBe(200);
    const synced = scriptSyncResultSchema.parse(await response.json());
    expect(synced.scripts.map((script) => script.name)).toEqual(['Candlewise Pro V2', 'Candlewise Smart Money Concepts', 'Candlewise Volatility Index']);
    const audits = await t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'tradingview.sync_scripts'));
    expect(audits.map((row) => row.operatorEmail)).toEqual([OPERATOR]);
  });

  it("sets a script's plans", async () => {
    const response = await setPlans({ scriptId: scripts()[2], plans: ['lifetime', 'yearly'] });
    expect(response.status).toBe(200);
    expect(setScriptPlansResultSchema.parse(await response.json()).script.plans).toEqual(['yearly', 'lifetime']);
  });

  it.each([
    ['an unknown plan', () => ({ scriptId: scripts()[0], plans: ['weekly'] }), 400, /The plans are monthly, quarterly/],
    ['a malformed id', () => ({ scriptId: 'nope', plans: ['monthly'] }), 400, /A script id is PUB;/],
    ['an unknown script', () => ({ scriptId: 'PUB;unknown', plans: ['monthly'] }), 404, /No script PUB;unknown in the catalog/],
  ])('%s: a clear 4xx and nothing changed', async (_name, body, status, message) => {
    const before = await stored();
    const response = await setPlans(body());
    expect(response.status).toBe(status);
    expect(await messageOf(response)).toMatch(message);
    expect(await stored()).toEqual(before);
  });
});
