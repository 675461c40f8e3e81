import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_TYPES } from '@shared/plans';
import type { Database } from '../db/client';
import { loadConfig } from '../config';
import { operatorAuditLog, tradingviewScripts } from '../db/schema';
import { createLogger } from '../logger';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { createScriptCatalogService } from '../modules/tradingview/script-catalog.service';
import { buildTradingViewAccess } from '../modules/tradingview/tradingview.integration';
import { createTestDatabase } from '../test-support/test-database';
import { CLI_OPERATOR, runAdminCommand } from './admin-command';

// A clean clone's configuration: the sandbox TradingView with its three scripts.
const config = loadConfig({ BRAND_NAME: 'Candlewise', BRAND_SLUG: 'candlewise' });
const settings = config.integrations.tradingview;
const [PRO, SMC, VOL] = settings.scriptIds as [string, string, string];
let database: Database;
const clock = () => new Date('2026-11-26T12:00:00Z');
const run = (...args: string[]) =>
  runAdminCommand(
    {
      db: database.db,
      config,
      clock,
      scripts: async () => {
        const { port, reconciler } = buildTradingViewAccess({ settings, db: database.db, logger: createLogger('silent'), clock });
        return createScriptCatalogService({ db: database.db, port, reconciler, initialBundle: settings.scriptIds, clock, audit: (entry) => recordOperatorAction(database.db, entry) });
      },
    },
    args,
  );
const stored = async () => (await database.db.select({ id: tradingviewScripts.id, plans: tradingviewScripts.planTypes }).from(tradingviewScripts)).sort((a, b) => a.id.localeCompare(b.id));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('npm run admin -- scripts', () => {
  it('sync then list: the three sandbox scripts, named, each with every plan', async () => {
    const synced = await run('scripts', 'sync');
    expect(synced.exitCode).toBe(0);
    expect(synced.output).toContain('3 script(s) in the catalog');

    const listed = await run('scripts', 'list');
    expect(listed.exitCode).toBe(0);
    const every = PLAN_TYPES.join(',');
    expect(listed.output.split('\n')).toEqual([
      `${PRO}  Candlewise Pro V2  plans: ${every}`,
      `${SMC}  Candlewise Smart Money Concepts  plans: ${every}`,
      `${VOL}  Candlewise Volatility Index  plans: ${every}`,
    ]);
    const [audit] = await database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'tradingview.sync_scripts'));
    expect(audit?.operatorEmail).toBe(CLI_OPERATOR);
  });

  it('set-plans gives a script to the plans named, audited as the command line', async () => {
    const result = await run('scripts', 'set-plans', VOL, 'yearly,lifetime');
    expect(result.exitCode).toBe(0);
    expect(result.output.split('\n')[0]).toBe(`${VOL}  Candlewise Volatility Index  plans: yearly,lifetime`);
    expect((await run('scripts', 'list')).output).toContain(`${VOL}  Candlewise Volatility Index  plans: yearly,lifetime`);
    expect((await run('scripts', 'set-plans', VOL, 'none')).output).toContain('plans: none');
    const audits = await database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'tradingview.set_script_plans'));
    expect(audits.map((row) => [row.operatorEmail, (row.details as { after: string[] }).after])).toEqual([
      [CLI_OPERATOR, ['yearly', 'lifetime']],
      [CLI_OPERATOR, []],
    ]);
  });

  it.each([
    ['an unknown script id', ['PUB;nope', 'monthly'], /No script PUB;nope in the catalog/],
    ['an unknown plan', [PRO, 'monthly,weekly'], /Unknown plan weekly: the plans are monthly, quarterly/],
    ['not a script id', ['abc', 'monthly'], /A script id is PUB; followed by/],
    ['no plans at all', [PRO, ','], /Name the plans/],
  ])('%s: a clear message, exit 2, nothing changed', async (_name, args, message) => {
    const before = await stored();
    const result = await run('scripts', 'set-plans', ...args);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it('anything else prints the usage', async () => {
    expect(await run('scripts', 'remove', PRO)).toMatchObject({ exitCode: 2, output: expect.stringContaining('usage: npm run admin -- scripts sync') });
  });
});
