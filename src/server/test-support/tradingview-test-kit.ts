// Test helpers for TradingView suites. Only imported by *.test.ts files.
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from './test-database';
import { createSandboxTradingView, type SandboxOperation } from '../modules/tradingview/sandbox-tradingview';
import type { TradingViewPort } from '../modules/tradingview/tradingview.port';

export type SandboxBench = { database: Database; operations: SandboxOperation[]; sandbox: TradingViewPort };

/**
 * One test database per suite (closed after it) and, before each test, `truncate` run and a fresh
 * sandbox TradingView on `clock` that records its operations, handed to `reset` so the suite keeps
 * plain variables.
 */
export function sandboxTradingViewSuite(options: { truncate: SQL; missingUsernames: string[]; clock: () => Date }, reset: (bench: SandboxBench) => void): void {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    if (!database) throw new Error('the test database did not open');
    await database.db.execute(options.truncate);
    const operations: SandboxOperation[] = [];
    const sandbox = createSandboxTradingView({
      db: database.db,
      missingUsernames: options.missingUsernames,
      clock: options.clock,
      onOperation: (operation) => operations.push(operation),
    });
    reset({ database, operations, sandbox });
  });
}
