// The console's CSV downloads of members, orders, churn reasons and the audit log (decision 057):
// each is recorded in the audit log when it starts, then streamed a page at a time, so a download
// of 300,000 orders never holds more than one page of them.
import { auditSentence } from '@shared/audit-sentences';
import { csvAmount, csvLine, type CsvExport, type CsvValue } from '@shared/csv';
import { CANCELLATION_OUTCOME_LABELS, CANCELLATION_REASON_LABELS, type CancellationOutcome, type CancellationReason } from '@shared/retention';
import type { Db } from '../../db/client';
import { dateOrNull } from '../../db/query';
import type { OperatorAction } from '../admin/audit.repository';
import { auditPage, cancellationPage, memberPage, orderPage, type ExportCursor, type Paged } from './exports.repository';

/** Rows a page; about 200 kB of CSV. */
export const EXPORT_PAGE_SIZE = 1000;

type Export<Row extends Paged> = { header: string[]; page: (cursor: ExportCursor | null, now: Date) => Promise<Row[]>; line: (row: Row) => CsvValue[] };
/** One export with its row type put away: a page of lines and where the next page starts. */
type Pages = { header: string[]; next: (cursor: ExportCursor | null, now: Date) => Promise<{ lines: CsvValue[][]; cursor: ExportCursor | null }> };

function define<Row extends Paged>({ header, page, line }: Export<Row>): Pages {
  return {
    header,
    async next(cursor, now) {
      const rows = await page(cursor, now);
      const last = rows[rows.length - 1];
      return { lines: rows.map(line), cursor: last ? { at: last.cursorAt, id: last.id } : null };
    },
  };
}

function exportsOf(db: Db): Record<CsvExport, Pages> {
  return {
    members: define({
      header: ['id', 'email', 'name', 'joined_at', 'email_verified', 'plan', 'status', 'provider', 'access_until', 'cancel_at_period_end', 'banned'],
      page: (cursor, now) => memberPage(db, cursor, EXPORT_PAGE_SIZE, now),
      line: (row) => [row.id, row.email, row.name, dateOrNull(row.createdAt), row.emailVerified, row.plan, row.status, row.provider, dateOrNull(row.accessUntil), row.cancelAtPeriodEnd, row.banned],
    }),
    orders: define({
      header: ['id', 'created_at', 'email', 'plan', 'amount', 'tax', 'discount', 'currency', 'status', 'promotion_code', 'provider_payment_id'],
      page: (cursor) => orderPage(db, cursor, EXPORT_PAGE_SIZE),
      line: (row) => [row.id, dateOrNull(row.createdAt), row.email, row.plan, csvAmount(row.amount, row.currency), csvAmount(row.tax, row.currency), csvAmount(row.discount, row.currency), row.currency.toUpperCase(), row.status, row.promotionCode, row.providerPaymentId],
    }),
    'churn-reasons': define({
      header: ['created_at', 'email', 'plan', 'reason', 'reason_text', 'outcome', 'pause_months', 'pause_resumes_at'],
      page: (cursor) => cancellationPage(db, cursor, EXPORT_PAGE_SIZE),
      line: (row) => [dateOrNull(row.createdAt), row.email, row.plan, CANCELLATION_REASON_LABELS[row.reason as CancellationReason] ?? row.reason, row.text, CANCELLATION_OUTCOME_LABELS[row.outcome as CancellationOutcome] ?? row.outcome, row.pauseMonths, dateOrNull(row.pauseResumesAt)],
    }),
    'audit-log': define({
      header: ['created_at', 'operator', 'action', 'member', 'what_happened', 'details'],
      page: (cursor) => auditPage(db, cursor, EXPORT_PAGE_SIZE),
      line: (row) => [dateOrNull(row.createdAt), row.operatorEmail, row.action, row.targetEmail, auditSentence(row), JSON.stringify(row.details)],
    }),
  };
}

export function createExportsService(deps: { db: Db; clock: () => Date; audit: (entry: OperatorAction) => Promise<void> }) {
  const exports = exportsOf(deps.db);
  return {
    /** Records the download in the audit log, then answers its CSV as a stream of pages. */
    async csv(kind: CsvExport, operator: string): Promise<ReadableStream<Uint8Array>> {
      await deps.audit({ operator, action: 'export_csv', details: { export: kind } });
      const { header, next } = exports[kind];
      const now = deps.clock();
      const encoder = new TextEncoder();
      let cursor: ExportCursor | null = null;
      let headerSent = false;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!headerSent) {
            headerSent = true;
            controller.enqueue(encoder.encode(csvLine(header)));
            return;
          }
          const page = await next(cursor, now);
          if (page.lines.length > 0) controller.enqueue(encoder.encode(page.lines.map(csvLine).join('')));
          cursor = page.cursor;
          if (page.lines.length < EXPORT_PAGE_SIZE) controller.close();
        },
      });
    },
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
