// Subscription rows are read through entitlements too (decision 059): a module that reads the table
// itself would carry its own idea of what a row means (the access rule, who is ending) and drift
// from the core's. The table's definition (db/schema), the migrations, the test support and the
// tests themselves, which set up rows, are the only other places that may name it.
import { describe, expect, it } from 'vitest';
import { serverSources } from '../../test-support/server-sources';

const MODULE = 'modules/entitlements/';
const EXEMPT = ['db/schema/', 'db/migrations/', 'test-support/'];
/** The table by its SQL name or its Drizzle name (sandbox_subscriptions, the sandbox provider's own table, is another). */
const NAMES_TABLE = /\buser_subscriptions\b|\buserSubscriptions\b/;


const files = serverSources(EXEMPT);

describe('one reader of subscription rows', () => {
  it('finds the reads where they are (the check itself sees them)', () => {
    const core = files.filter((file) => file.path.startsWith(MODULE) && NAMES_TABLE.test(file.text)).map((file) => file.path);
    expect(core).toContain('modules/entitlements/entitlement-reads.ts');
  });

  it('no file outside the entitlements module names user_subscriptions', () => {
    const elsewhere = files.filter((file) => !file.path.startsWith(MODULE) && NAMES_TABLE.test(file.text)).map((file) => file.path);
    expect(elsewhere).toEqual([]);
  });
});
