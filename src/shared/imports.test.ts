import { describe, expect, it } from 'vitest';
import { BAD_ROWS_SHOWN, emptyImportReport, formatImportReport, parseUsernameMap } from './imports';

describe('parseUsernameMap', () => {
  it('reads e-mail and username per line, after an optional header, lowercasing the address and dropping a leading @', () => {
    const result = parseUsernameMap('email,tradingview_username\nAlice@Example.com,@Alice-Charts\n\nbob@example.com,bob\r\n');
    expect(result).toEqual({ ok: true, map: new Map([['alice@example.com', 'Alice-Charts'], ['bob@example.com', 'bob']]) });
  });

  it('names every broken line by number and keeps nothing', () => {
    const result = parseUsernameMap('a@example.com,alice\nnot-an-email,bob\nc@example.com\nd@example.com,bad name!\ne@example.com,x,y\nf@example.com,alice\na@example.com,other');
    expect(result).toEqual({
      ok: false,
      errors: [
        'line 2: "not-an-email" is not an e-mail address',
        'line 3: expected 2 fields (email,tradingview_username), found 1',
        'line 4: "bad name!": TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).',
        'line 5: expected 2 fields (email,tradingview_username), found 3',
        'line 6: alice already belongs to a@example.com',
        'line 7: a@example.com already has the username alice',
      ],
    });
  });

  it('accepts the same pair twice', () => {
    expect(parseUsernameMap('a@example.com,Alice\nA@example.com,alice')).toEqual({ ok: true, map: new Map([['a@example.com', 'Alice']]) });
  });
});

describe('formatImportReport', () => {
  it('says a dry run changed nothing and lists what would be done', () => {
    const report = { ...emptyImportReport(), read: 2, created: [{ subject: 'a@example.com', detail: 'monthly until 2026-12-01' }], unchanged: 1 };
    const text = formatImportReport('stripe', true, report);
    expect(text).toContain('Stripe import (dry run: nothing was changed)');
    expect(text).toContain('members to create: 1');
    expect(text).toContain('  a@example.com: monthly until 2026-12-01');
  });

  it('names at most 20 unmatched and 20 conflicting rows, then counts the rest; what was done is listed whole (#46)', () => {
    const rows = (count: number, what: string) => Array.from({ length: count }, (_, index) => ({ subject: `${what}-${index}@example.com`, detail: what }));
    const report = { ...emptyImportReport(), read: 100_000, created: rows(30, 'created'), unmatched: rows(21, 'unmatched'), conflicts: rows(5_000, 'conflict') };
    const lines = formatImportReport('stripe', false, report).split('\n');
    const after = (title: string) => lines.slice(lines.indexOf(title) + 1);
    expect(after('Done:').filter((line) => line.includes('created-'))).toHaveLength(30);
    expect(after('Unmatched:').slice(0, BAD_ROWS_SHOWN + 2)).toEqual([...rows(20, 'unmatched').map((row) => `  ${row.subject}: unmatched`), '  … and 1 more row (21 in all)', 'Conflicts:']);
    expect(after('Conflicts:')).toEqual([...rows(20, 'conflict').map((row) => `  ${row.subject}: conflict`), '  … and 4980 more rows (5000 in all)']);
  });

  it('tells how to continue after a failure', () => {
    const text = formatImportReport('tradingview', false, { ...emptyImportReport(), error: 'TradingView is unavailable' });
    expect(text).toContain('Stopped: TradingView is unavailable');
    expect(text).toContain('run the same command again to continue');
  });
});
