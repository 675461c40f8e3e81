import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERTISED_PRICES, seedCatalogue } from '@shared/plans';
import type { Database } from '../db/client';
import { operatorAuditLog, sandboxPromotionCodes } from '../db/schema';
import { createLogger } from '../logger';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { createPromotionsService } from '../modules/promotions/promotions.service';
import { createSandboxPayments } from '../modules/sandbox/sandbox-payments';
import { createTestDatabase } from '../test-support/test-database';
import { CLI_OPERATOR, runAdminCommand } from './admin-command';

let database: Database;
const now = new Date('2026-11-24T12:00:00Z');
const clock = () => now;
const run = (...args: string[]) =>
  runAdminCommand(
    {
      db: database.db,
      config: { adminEmails: [], publicUrl: 'https://shop.example.com' },
      clock,
      promotions: async () => {
        const payments = createSandboxPayments({ db: database.db, clock, prices: () => ADVERTISED_PRICES, catalogue: () => seedCatalogue(), portalReturnUrl: '/' });
        return createPromotionsService({ db: database.db, payments, clock, logger: createLogger('silent'), audit: (entry) => recordOperatorAction(database.db, entry) });
      },
    },
    args,
  );

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('npm run admin -- promo', () => {
  it('creates BF20 at 20 % off, mirrored at the sandbox provider, audited as the command line', async () => {
    const result = await run('promo', 'create', 'bf20', '--percent-off', '20');
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/^Created BF20 {2}20% off on the first payment {2}all plans {2}\[active\] {2}0 redemptions, revenue \$0\.00 {2}at sandbox as promo_sbx_\w+$/);
    const [mirrored] = await database.db.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.code, 'BF20'));
    expect(mirrored?.active).toBe(true);
    const audit = await database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'create_promotion_code'));
    expect(audit.map((entry) => entry.operatorEmail)).toEqual([CLI_OPERATOR]);
  });

  it('takes every option', async () => {
    const result = await run('promo', 'create', 'TEN-OFF', '--amount-off', '1000', '--currency', 'usd', '--duration', 'repeating', '--months', '3', '--plans', 'monthly,quarterly', '--first-time', '--max-redemptions', '50', '--expires', '2027-01-31');
    expect(result.output).toBe(
      `Created TEN-OFF  $10.00 off for 3 months  plans monthly,quarterly, first-time buyers, max 50, expires 2027-01-31  [active]  0 redemptions, revenue $0.00  at sandbox as ${(await database.db.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.code, 'TEN-OFF')))[0]!.id}`,
    );
  });

  it('makes a win-back code with --churned-only', async () => {
    const result = await run('promo', 'create', 'COMEBACK', '--percent-off', '30', '--churned-only');
    expect(result.output).toMatch(/^Created COMEBACK {2}30% off on the first payment {2}all plans, returning members only {2}\[active\]/);
  });

  it.each([
    [['promo', 'create', 'BOTH', '--percent-off', '10', '--first-time', '--churned-only'], 'A code is for first-time buyers or for members whose access ended, not both.'],
    [['promo', 'create', 'ZERO', '--percent-off', '0'], 'Percent off must be a whole number from 1 to 100.'],
    [['promo', 'create', 'NEG', '--amount-off', '-5', '--currency', 'usd'], 'Amount off must be a positive whole number of cents (minor units).'],
    [['promo', 'create', 'MONTHS', '--percent-off', '10', '--months', '3'], 'Months go with a repeating discount only (--duration repeating).'],
    [['promo', 'create', 'PLANS', '--percent-off', '10', '--plans', 'weekly'], 'Unknown plan: weekly.'],
    [['promo', 'create', 'X'.repeat(200), '--percent-off', '10'], 'A promotion code has 3 to 40 characters.'],
    [['promo', 'create', 'Bf20', '--percent-off', '10'], 'The code BF20 already exists.'],
    [['promo', 'deactivate', 'NOPE'], 'The code NOPE is not valid.'],
  ])('%j is refused: %s', async (args, message) => {
    expect(await run(...args)).toEqual({ output: message, exitCode: 2 });
  });

  it('refuses an unknown option with the usage', async () => {
    const result = await run('promo', 'create', 'OPT', '--percent', '10');
    expect(result.exitCode).toBe(2);
    expect(result.output.split('\n')[0]).toBe('Unknown option --percent.');
  });

  it('lists the codes and deactivates one, here and at the provider', async () => {
    const deactivated = await run('promo', 'deactivate', 'bf20');
    expect(deactivated.output).toMatch(/^Deactivated BF20 .*\[inactive\]/);
    const [mirrored] = await database.db.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.code, 'BF20'));
    expect(mirrored?.active).toBe(false);
    const list = await run('promo', 'list');
    expect(list.output.split('\n').map((line) => line.split('  ')[0])).toEqual(['BF20', 'COMEBACK', 'TEN-OFF']);
  });
});
