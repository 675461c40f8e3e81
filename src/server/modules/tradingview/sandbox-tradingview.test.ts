import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createSandboxTradingView, OUTAGE_SWITCH_CACHE_MS, type SandboxOperation } from './sandbox-tradingview';
import type { TradingViewPort } from './tradingview.port';
import { sandboxTradingViewSuite } from '../../test-support/tradingview-test-kit';

const SCRIPT = 'PUB;sandbox-script';
const JULY = new Date('2030-07-15T12:00:00.000Z');
const AUGUST = new Date('2030-08-15T12:00:00.000Z');

let now: Date;
let operations: SandboxOperation[];
let sandbox: TradingViewPort;
let database: Database;

sandboxTradingViewSuite({ truncate: sql`TRUNCATE sandbox_tradingview_access, sandbox_switches`, missingUsernames: ['Ghost_Trader', 'nobody'], clock: () => now }, (bench) => {
  ({ operations, sandbox, database } = bench);
  now = new Date('2030-06-01T00:00:00.000Z');
});

const ops = () => operations.map((operation) => operation.op);

describe('sandbox checkUsername', () => {
  it.each([
    ['Trader_Joe', 'Trader_Joe'],
    ['  @alice-charts ', 'alice-charts'],
    ['ghost_trader', null],
    ['NOBODY', null],
    ['has space', null],
    ['semi;colon', null],
    ['', null],
    ['x'.repeat(51), null],
  ])('%j → %j', async (input, expected) => {
    expect(await sandbox.checkUsername(input)).toBe(expected);
  });
});

describe('sandbox grants behave like TradingView', () => {
  it("adds a new user with the expiry, TradingView's ok confirming it", async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    expect(ops()).toEqual(['add']);
    expect(await sandbox.listUsers(SCRIPT)).toEqual([{ username: 'Trader_Joe', expiration: JULY }]);
  });

  it('extends an existing user with modify, not add', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    operations.length = 0;
    await sandbox.grant(SCRIPT, 'Trader_Joe', AUGUST, { expiresAt: JULY });
    expect(ops()).toEqual(['list', 'modify', 'list']);
    expect(await sandbox.listUsers(SCRIPT)).toEqual([{ username: 'Trader_Joe', expiration: AUGUST }]);
  });

  it('keeps no expiry for lifetime access', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', null, null);
    expect(await sandbox.listUsers(SCRIPT)).toEqual([{ username: 'Trader_Joe', expiration: null }]);
  });

  it('drops access once it expires, so a later grant adds it again', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    now = new Date(JULY.getTime() + 1);
    expect(await sandbox.listUsers(SCRIPT)).toEqual([]);
    operations.length = 0;
    await sandbox.grant(SCRIPT, 'Trader_Joe', AUGUST, null);
    expect(ops()).toEqual(['add']);
    expect(await sandbox.listUsers(SCRIPT)).toEqual([{ username: 'Trader_Joe', expiration: AUGUST }]);
  });

  it('revokes, and revoking someone without access is done', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    await expect(sandbox.revoke(SCRIPT, 'Trader_Joe', { expiresAt: JULY })).resolves.toBe('revoked');
    expect(await sandbox.listUsers(SCRIPT)).toEqual([]);
    await expect(sandbox.revoke(SCRIPT, 'Trader_Joe', { expiresAt: JULY })).resolves.toBe('revoked');
  });

  it('keeps each script separate and filters by username like a search', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    await sandbox.grant(SCRIPT, 'trader_joey', null, null);
    await sandbox.grant('PUB;other', 'bob', null, null);
    expect((await sandbox.listUsers(SCRIPT, 'TRADER_JOE')).map((user) => user.username).sort()).toEqual(['Trader_Joe', 'trader_joey']);
    expect(await sandbox.listUsers('PUB;other')).toEqual([{ username: 'bob', expiration: null }]);
  });

  it('reports healthy, with the vendor account its session belongs to', async () => {
    expect(await sandbox.healthCheck()).toEqual({ ok: true });
    expect(await sandbox.currentAccount()).toEqual({ username: 'sandbox_vendor' });
  });

  it("lists the vendor's invite-only scripts it was given, as TradingView lists the vendor's own", async () => {
    const scripts = [
      { id: 'PUB;one', name: 'One' },
      { id: 'PUB;two', name: 'Two' },
    ];
    const vendor = createSandboxTradingView({ db: database.db, missingUsernames: [], scripts, clock: () => now });
    expect(await vendor.listScripts()).toEqual(scripts);
    expect(await sandbox.listScripts()).toEqual([]);
  });
});

describe('a simulated TradingView outage', () => {
  it('fails every call as an unreachable TradingView would, until it ends', async () => {
    await sandbox.grant(SCRIPT, 'Trader_Joe', JULY, null);
    await sandbox.sandbox!.setOutage(true);
    expect(await sandbox.sandbox!.outage()).toBe(true);
    const unreachable = { kind: 'network', message: "TradingView's access endpoints are down (simulated outage)" };
    expect(await sandbox.healthCheck()).toEqual({ ok: false, ...unreachable });
    await expect(sandbox.currentAccount()).rejects.toMatchObject(unreachable);
    // the public username lookup needs no vendor session: it still answers
    expect(await sandbox.checkUsername('Trader_Joe')).toBe('Trader_Joe');
    await expect(sandbox.listUsers(SCRIPT)).rejects.toMatchObject(unreachable);
    await expect(sandbox.listScripts()).rejects.toMatchObject(unreachable);
    await expect(sandbox.grant(SCRIPT, 'bob', JULY, null)).rejects.toMatchObject(unreachable);
    await expect(sandbox.revoke(SCRIPT, 'Trader_Joe', { expiresAt: JULY })).rejects.toMatchObject(unreachable);

    await sandbox.sandbox!.setOutage(false);
    expect(await sandbox.healthCheck()).toEqual({ ok: true });
    expect((await sandbox.listUsers(SCRIPT)).map((user) => user.username)).toEqual(['Trader_Joe']);
  });

  // The switch once lived in one process's memory: the console's instance simulated an outage
  // that the instance running the reconciler never saw.
  it('is one switch for every instance on the database: one turns it on, another sees it, and its end', async () => {
    const other = createSandboxTradingView({ db: database.db, missingUsernames: [], clock: () => now });
    expect(await other.healthCheck()).toEqual({ ok: true });

    await sandbox.sandbox!.setOutage(true);
    expect(await sandbox.sandbox!.outage()).toBe(true);
    now = new Date(now.getTime() + OUTAGE_SWITCH_CACHE_MS);
    expect(await other.sandbox!.outage()).toBe(true);
    expect(await other.healthCheck()).toMatchObject({ ok: false, kind: 'network' });
    await expect(other.grant(SCRIPT, 'bob', JULY, null)).rejects.toMatchObject({ kind: 'network' });

    await other.sandbox!.setOutage(false);
    now = new Date(now.getTime() + OUTAGE_SWITCH_CACHE_MS);
    expect(await sandbox.sandbox!.outage()).toBe(false);
    await sandbox.grant(SCRIPT, 'bob', JULY, null);
    expect((await other.listUsers(SCRIPT)).map((user) => user.username)).toEqual(['bob']);
  });

  it('outlives the instance that set it: a restarted instance starts in the outage', async () => {
    await sandbox.sandbox!.setOutage(true);
    const restarted = createSandboxTradingView({ db: database.db, missingUsernames: [], clock: () => now });
    expect(await restarted.sandbox!.outage()).toBe(true);
    await expect(restarted.currentAccount()).rejects.toMatchObject({ kind: 'network' });
  });
});
