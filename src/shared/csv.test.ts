import { describe, expect, it } from 'vitest';
import { csvAmount, csvCell, csvExportPath, csvLine } from './csv';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ['+49 30 123', '"\'+49 30 123"'],
    ['-1+1', '"\'-1+1"'],
    ['@SUM(A1)', '"\'@SUM(A1)"'],
    ['\t=1', '"\'\t=1"'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('writes the text %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    [42, '42'],
    [-12, '-12'],
    [Number.NaN, ''],
    [true, 'true'],
    [false, 'false'],
    [null, ''],
    [undefined, ''],
    [new Date('2026-03-01T10:00:00Z'), '2026-03-01T10:00:00.000Z'],
  ])('writes %j as %j (numbers keep their sign: only text is defused)', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
});

describe('csvLine and csvAmount', () => {
  it('joins cells with commas and ends the line with CRLF', () => {
    expect(csvLine(['a', 1, null, '=x'])).toBe('a,1,,"\'=x"\r\n');
  });

  it.each([
    [2900, 'usd', '29.00'],
    [5, 'eur', '0.05'],
    [500, 'jpy', '500'],
    [null, 'usd', ''],
  ] as const)('writes %j %s as %j', (minor, currency, expected) => {
    expect(csvAmount(minor, currency)).toBe(expected);
  });

  it('serves each download under /api/admin/exports', () => {
    expect(csvExportPath('churn-reasons')).toBe('/api/admin/exports/churn-reasons.csv');
  });
});
