// Checkout sessions and processed provider events are read through provider-records (decisions
// 064, 065): a report that joined checkout_sessions itself carried its own idea of a session
// (what "paid" means was written four times) and would miss a change of the table. Reports read
// a session's e-mail, status or start through checkout-session-reads.ts. The tables' definitions
// (db/schema), the migrations, the test support and the tests themselves, which set up rows, are
// the only other places that may name them, and the shop copy, which lists the tables whose rows
// mean a database already runs a shop.
import { describe, expect, it } from 'vitest';
import { serverSources } from '../../test-support/server-sources';

const MODULE = 'modules/provider-records/';
const EXEMPT = ['db/schema/', 'db/migrations/', 'test-support/', 'admin-cli/shop-copy.ts'];
/** The tables by their SQL names and their Drizzle names (sandbox_checkout_sessions, the sandbox provider's own table, is another). */
const NAMES_TABLE = /\bcheckout_sessions\b|\bcheckoutSessions\b|\bprocessed_events\b|\bprocessedEvents\b/;


const files = serverSources(EXEMPT);

describe('one reader of checkout sessions and processed events', () => {
  it('finds the reads where they are (the check itself sees them)', () => {
    const owner = files.filter((file) => file.path.startsWith(MODULE) && NAMES_TABLE.test(file.text)).map((file) => file.path);
    expect(owner).toEqual(expect.arrayContaining(['modules/provider-records/checkout-session-reads.ts', 'modules/provider-records/processed-events.repository.ts']));
  });

  it('no file outside provider-records names checkout_sessions or processed_events', () => {
    const elsewhere = files.filter((file) => !file.path.startsWith(MODULE) && NAMES_TABLE.test(file.text)).map((file) => file.path);
    expect(elsewhere).toEqual([]);
  });
});
