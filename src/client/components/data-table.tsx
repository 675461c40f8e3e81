import type { ReactNode } from 'react';
import { cn } from '@client/lib/cn';

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes of this column's cells (tone, font, alignment). */
  className?: string;
  /** Classes of this column's header, when it differs from the others (alignment). */
  headerClassName?: string;
};

const LOOKS = {
  /** A page's main list: small capitals over roomy rows divided by a line. */
  list: { head: 'text-xs uppercase tracking-wider text-muted', th: 'py-2 font-medium', body: 'divide-y divide-border', row: undefined, td: 'py-2' },
  /** A table inside a card section: plain headers over tight rows. */
  compact: { head: 'text-muted', th: 'py-1 font-medium', body: undefined, row: 'border-t border-border align-top', td: 'py-1' },
  /** A document-like table (the sandbox portal's invoices): plain headers over roomy rows. */
  plain: { head: 'text-muted', th: 'pb-2 font-medium', body: 'divide-y divide-border', row: undefined, td: 'py-2' },
} as const;

/**
 * Holds a table that may be wider than a phone: it scrolls inside its card rather than widening the
 * page. `relative` keeps the table's screen-reader-only texts (absolutely placed) inside it too:
 * without it they are placed against the page and widen it all the same.
 */
export function TableScroll({ children }: { children: ReactNode }) {
  return <div className="relative overflow-x-auto">{children}</div>;
}

/**
 * A read-only table of `rows`, one column per entry of `columns`; `caption` names it for screen
 * readers. `busy`: the rows shown are the last answer while the next (another search or page)
 * loads: they are dimmed and marked busy, so that nobody takes them for the answer to the new question.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  look = 'list',
  busy = false,
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  caption?: string;
  look?: keyof typeof LOOKS;
  busy?: boolean;
}) {
  const style = LOOKS[look];
  return (
    <TableScroll>
      <table className={cn('w-full text-left text-sm', busy && 'opacity-60')} aria-busy={busy}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={style.head}>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={cn(style.th, column.headerClassName)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={style.body}>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={style.row}>
              {columns.map((column) => (
                <td key={column.header} className={cn(style.td, column.className)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
