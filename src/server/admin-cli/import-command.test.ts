import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyImportReport } from '@shared/imports';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { buy } from '../test-support/billing-test-kit';
import { importFootprint } from '../test-support/import-test-kit';
import { IMPORT_USAGE, runImportCommand, type ImportCommandDeps } from './import-command';

const noFiles = async (path: string): Promise<string> => {
  throw new Error(`ENOENT: no such file or directory, open '${path}'`);
};

describe('npm run import: what it refuses before reading anything', () => {
  const runs: unknown[] = [];
  const deps: ImportCommandDeps = {
    imports: { run: async (...args) => (runs.push(args), emptyImportReport()) },
    readFile: async (path) => {
      if (path === 'broken.csv') return 'email,tradingview_username\nada@example.com,Ada\nnot-an-email,bob\nbob@example.com\n';
      // 100,000 lines, one in five broken
      if (path === 'huge.csv') return ['email,tradingview_username', ...Array.from({ length: 100_000 }, (_, i) => (i % 5 === 0 ? `broken-${i}` : `m${i}@example.com,user_${i}`))].join('\n');
      return noFiles(path);
    },
    settle: async () => ({ succeeded: 0, failed: 0 }),
  };

  it('names each broken line of the map by number and imports nothing', async () => {
    const result = await runImportCommand(deps, ['stripe', '--map', 'broken.csv']);
    expect(result).toEqual({
      exitCode: 2,
      output: ['broken.csv has broken lines; nothing was imported:', '  line 3: "not-an-email" is not an e-mail address', '  line 4: expected 2 fields (email,tradingview_username), found 1'].join('\n'),
    });
    expect(runs).toEqual([]);
  });

  it('names at most 20 broken lines of a large map, then counts the rest (#46)', async () => {
    const result = await runImportCommand(deps, ['stripe', '--map', 'huge.csv']);
    const lines = result.output.split('\n');
    expect(result.exitCode).toBe(2);
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[1]).toBe('  line 2: expected 2 fields (email,tradingview_username), found 1');
    expect(lines[21]).toBe('  … and 19980 more broken lines (20000 in all)');
    expect(runs).toEqual([]);
  });

  it('says what is wrong with the command line', async () => {
    expect(await runImportCommand(deps, [])).toEqual({ output: IMPORT_USAGE, exitCode: 2 });
    expect(await runImportCommand(deps, ['paypal'])).toEqual({ output: IMPORT_USAGE, exitCode: 2 });
    expect(await runImportCommand(deps, ['stripe', '--force'])).toEqual({ output: `Unknown or incomplete option: --force\n${IMPORT_USAGE}`, exitCode: 2 });
    expect(await runImportCommand(deps, ['stripe', '--map'])).toEqual({ output: `Unknown or incomplete option: --map\n${IMPORT_USAGE}`, exitCode: 2 });
    expect(await runImportCommand(deps, ['tradingview', '--map=missing.csv'])).toEqual({
      output: "Cannot read missing.csv: ENOENT: no such file or directory, open 'missing.csv'",
      exitCode: 2,
    });
    expect(runs).toEqual([]);
  });

  it('exits 1 with the report when a provider stopped the run', async () => {
    const failing: ImportCommandDeps = { ...deps, imports: { run: async () => ({ ...emptyImportReport(), error: 'The payment provider is unavailable.' }) } };
    const result = await runImportCommand(failing, ['stripe']);
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('Stopped: The payment provider is unavailable.');
  });
});

describe('npm run import on the sandbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const command = (args: string[]) => runImportCommand({ imports: t.services.imports, readFile: noFiles, settle: async () => ({ succeeded: 0, failed: 0 }) }, args);

  it('dry runs of both sources print their reports and exit 0 on an empty shop', async () => {
    const stripe = await command(['stripe', '--dry-run']);
    expect(stripe).toEqual({ exitCode: 0, output: expect.stringContaining('Stripe import (dry run: nothing was changed)\n  read: 0\n  members to create: 0') });
    const tradingView = await command(['tradingview', '--dry-run']);
    expect(tradingView).toEqual({ exitCode: 0, output: expect.stringContaining('TradingView import (dry run: nothing was changed)\n  read: 0\n  access to adopt: 0') });
  });

  it("lists the sandbox provider's own subscriptions, and leaves one bought in this shop and not yet set up to its finish-setup mail", async () => {
    await buy(t, 'sandbox-buyer@example.com');
    const before = await importFootprint(t);
    const report = await t.services.imports.run('stripe', { dryRun: true, map: new Map(), operator: 'command-line' });
    expect(report).toMatchObject({ read: 1, created: [], error: null });
    // bought but not set up yet: the shop's own finish-setup mail is its way in, not the import
    expect(report.conflicts).toEqual([{ subject: 'sandbox-buyer@example.com', detail: expect.stringMatching(/^sub_sbx_\w+ was bought in this shop and waits for its buyer to finish setting up$/) }]);
    expect(await importFootprint(t)).toEqual(before);
  });
});
