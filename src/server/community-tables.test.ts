// A community integration's link tables are its own (decision 060): the member page, /metrics, the
// funnel and the set-up reminders read them through its `links` (linked-accounts.ts). A module that
// named them would miss the next community, as the member page, the gauges and the funnel once
// missed Telegram. The tables' definitions (db/schema), the migrations, the test support and the
// tests themselves, which set up rows, are the only other places that may name them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-root';

const SERVER = join(PROJECT_ROOT, 'src/server');
const EXEMPT = ['db/schema/', 'db/migrations/', 'test-support/'];
/** Each integration's folder and its tables, by their SQL names and their Drizzle names. */
const OWNERS = [
  { module: 'modules/discord/', tables: /\bdiscord_(members|repairs)\b|\bdiscord(Members|Repairs)\b/ },
  { module: 'modules/telegram/', tables: /\btelegram_(members|chats|plan_chats|link_tokens|invites|repairs)\b|\btelegram(Members|Chats|PlanChats|LinkTokens|Invites|Repairs)\b/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(SERVER)
  .map((path) => ({ path: relative(SERVER, path), text: readFileSync(path, 'utf8') }))
  .filter((file) => !EXEMPT.some((prefix) => file.path.startsWith(prefix)));

describe.each(OWNERS)('the link tables of $module', ({ module, tables }) => {
  it('are read where they are (the check itself sees them)', () => {
    expect(files.filter((file) => file.path.startsWith(module) && tables.test(file.text)).length).toBeGreaterThan(0);
  });

  it('are named by no file outside the integration', () => {
    expect(files.filter((file) => !file.path.startsWith(module) && tables.test(file.text)).map((file) => file.path)).toEqual([]);
  });
});

// An integration is its folders (the server module, its shared rules, its client feature): outside
// them only a few files name it, the registry line, the configuration, its tables and the client's
// routes. A reminder, a label or a step written elsewhere comes from its descriptor instead.
describe('the Telegram integration', () => {
  const SRC = join(PROJECT_ROOT, 'src');
  const naming = sourceFiles(SRC)
    .map((path) => relative(SRC, path))
    .filter((path) => !/(^|\/)telegram\//.test(path) && !path.startsWith('server/db/migrations/'))
    .filter((path) => /telegram/i.test(readFileSync(join(SRC, path), 'utf8')));

  it('is named by at most six source files outside its folders', () => {
    expect(naming).toContain('server/integrations.ts');
    expect(naming.length, naming.join('\n')).toBeLessThanOrEqual(6);
  });
});
