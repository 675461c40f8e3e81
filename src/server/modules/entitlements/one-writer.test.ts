// Subscription rows and orders have one writer, the entitlements core: a write anywhere else would
// change a member's access without the change being recorded and told to the integrations.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../project-root';

const SERVER = join(PROJECT_ROOT, 'src/server');
const MODULE = 'modules/entitlements/';
const TABLES = { userSubscriptions: 'user_subscriptions', orders: 'orders' };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' || entry.name === 'test-support' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The writes of the two tables a file makes: Drizzle calls on the tables (or an alias of them) and raw SQL. */
function writesIn(text: string): string[] {
  const names = Object.keys(TABLES).filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  for (const alias of text.matchAll(/const (\w+) = (userSubscriptions|orders);/g)) names.push(alias[1]!);
  const drizzle = names.length ? [...text.matchAll(new RegExp(`\\.(insert|update|delete)\\(\\s*(${names.join('|')})\\s*\\)`, 'g'))].map((match) => match[0]) : [];
  const raw = [...text.matchAll(/\b(INSERT INTO|UPDATE|DELETE FROM)\s+"?(user_subscriptions|orders)\b/gi)].map((match) => match[0]);
  return [...drizzle, ...raw];
}

const files = sourceFiles(SERVER).map((path) => ({ path: relative(SERVER, path), text: readFileSync(path, 'utf8') }));

describe('one writer of subscription rows and orders', () => {
  it('finds the writes where they are (the check itself sees them)', () => {
    const core = files.filter((file) => file.path.startsWith(MODULE) && writesIn(file.text).length > 0).map((file) => file.path);
    expect(core).toContain('modules/entitlements/entitlement-rows.ts');
  });

  it('no file outside the entitlements module writes them', () => {
    const elsewhere = files.filter((file) => !file.path.startsWith(MODULE)).flatMap((file) => writesIn(file.text).map((write) => `${file.path}: ${write}`));
    expect(elsewhere).toEqual([]);
  });

  it('the writes that change access are reached only through the core (entitlements.ts)', () => {
    const importers = files.filter((file) => /from '[./]*(modules\/entitlements\/)?entitlement-rows'/.test(file.text) || /entitlements\/entitlement-rows'/.test(file.text)).map((file) => file.path);
    expect(importers.filter((path) => !path.startsWith(MODULE))).toEqual([]);
  });
});
