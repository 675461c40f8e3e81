// CSV as the console's downloads write it (RFC 4180 quoting), with the guard against formula
// injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return
// before one) as a formula, so such a text cell is written with a leading apostrophe.
import { minorUnitDivisor } from './plans';

export type CsvValue = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\n\r]/;

/** One cell: numbers and booleans as they are, instants in ISO 8601, empty for null; text quoted when it must be and defused when it starts like a formula. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, ended by CRLF as RFC 4180 has it. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** An amount in minor units as the decimal a spreadsheet sums (2900 USD → 29.00, 500 JPY → 500). */
export function csvAmount(minor: number | null, currency: string): string {
  if (minor === null) return '';
  const divisor = minorUnitDivisor(currency);
  return (minor / divisor).toFixed(Math.round(Math.log10(divisor)));
}

/** The console's CSV downloads: what each holds, for the button, the file name and the audit log. */
export const CSV_EXPORTS = {
  members: { label: 'members', file: 'members.csv' },
  orders: { label: 'orders', file: 'orders.csv' },
  'churn-reasons': { label: 'churn reasons', file: 'churn-reasons.csv' },
  'audit-log': { label: 'audit log', file: 'audit-log.csv' },
} as const;
export type CsvExport = keyof typeof CSV_EXPORTS;
export const CSV_EXPORT_KINDS = Object.keys(CSV_EXPORTS) as CsvExport[];

/** Where a download is served (operator only). */
export function csvExportPath(kind: CsvExport): string {
  return `/api/admin/exports/${CSV_EXPORTS[kind].file}`;
}
