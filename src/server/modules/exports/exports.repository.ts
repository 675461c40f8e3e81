// The console's CSV downloads, read a page at a time in creation order: each call returns up to
// `limit` rows after the cursor (the last row's created_at, as exact text, and id), so a download
// of 300,000 orders holds one page in memory and every page is one range of a created_at index.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { longestAccessRowOf } from '../entitlements/entitlement-reads';
import { checkoutEmailOf } from '../provider-records/checkout-session-reads';

/** Where the previous page ended: created_at as Postgres wrote it (microseconds kept) and the id. */
export type ExportCursor = { at: string; id: string };

export type Paged = { cursorAt: string; id: string };
const after = (column: string, cursor: ExportCursor | null, alias: string) =>
  cursor ? sql`(${sql.identifier(alias)}.${sql.identifier(column)}, ${sql.identifier(alias)}.id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql`true`;

export type MemberLine = Paged & {
  email: string;
  name: string;
  createdAt: Date | string;
  emailVerified: boolean;
  plan: string | null;
  status: string | null;
  provider: string | null;
  accessUntil: Date | string | null;
  cancelAtPeriodEnd: boolean | null;
  banned: boolean;
};

/** Members oldest first, each with the row that gives access at `now` and lasts longest (none: empty). */
export async function memberPage(db: Db, cursor: ExportCursor | null, limit: number, now: Date): Promise<MemberLine[]> {
  return queryRows<MemberLine>(
    db,
    sql`SELECT u.created_at::text AS "cursorAt", u.id, u.email, u.name, u.created_at AS "createdAt", u.email_verified AS "emailVerified",
          a.plan_type AS plan, a.status, a.provider, a.expires_at AS "accessUntil", a.cancel_at_period_end AS "cancelAtPeriodEnd",
          EXISTS (SELECT 1 FROM member_bans b WHERE b.user_id = u.id) AS banned
        FROM "user" u
        LEFT JOIN LATERAL ${longestAccessRowOf(sql`u.id`, now)} a ON true
        WHERE ${after('created_at', cursor, 'u')}
        ORDER BY u.created_at, u.id LIMIT ${limit}`,
  );
}

export type OrderLine = Paged & {
  createdAt: Date | string;
  email: string | null;
  plan: string;
  amount: number;
  tax: number | null;
  discount: number;
  currency: string;
  status: string;
  promotionCode: string | null;
  providerPaymentId: string | null;
};

/** Orders oldest first with the buyer's e-mail (the account's, else the checkout's). */
export async function orderPage(db: Db, cursor: ExportCursor | null, limit: number): Promise<OrderLine[]> {
  return queryRows<OrderLine>(
    db,
    sql`SELECT o.created_at::text AS "cursorAt", o.id, o.created_at AS "createdAt", coalesce(u.email, ${checkoutEmailOf(sql`o.checkout_session_id`)}) AS email, o.plan_type AS plan,
          o.amount, o.amount_tax AS tax, o.amount_discount AS discount, o.currency, o.status, o.promotion_code AS "promotionCode", o.provider_payment_id AS "providerPaymentId"
        FROM orders o LEFT JOIN "user" u ON u.id = o.user_id
        WHERE ${after('created_at', cursor, 'o')}
        ORDER BY o.created_at, o.id LIMIT ${limit}`,
  );
}

export type CancellationLine = Paged & {
  createdAt: Date | string;
  email: string;
  plan: string;
  reason: string;
  text: string | null;
  outcome: string;
  pauseMonths: number | null;
  pauseResumesAt: Date | string | null;
};

/** The cancellation flow's choices oldest first (pending ones left out: the provider has not answered). */
export async function cancellationPage(db: Db, cursor: ExportCursor | null, limit: number): Promise<CancellationLine[]> {
  return queryRows<CancellationLine>(
    db,
    sql`SELECT c.created_at::text AS "cursorAt", c.id, c.created_at AS "createdAt", u.email, c.plan_type AS plan, c.reason, c.reason_text AS text,
          c.outcome, c.pause_months AS "pauseMonths", c.pause_resumes_at AS "pauseResumesAt"
        FROM cancellations c JOIN "user" u ON u.id = c.user_id
        WHERE c.state = 'done' AND ${after('created_at', cursor, 'c')}
        ORDER BY c.created_at, c.id LIMIT ${limit}`,
  );
}

export type AuditLine = Paged & {
  createdAt: Date | string;
  operatorEmail: string;
  action: string;
  targetEmail: string | null;
  details: Record<string, unknown>;
};

/** The operator audit log oldest first, with the member's e-mail. */
export async function auditPage(db: Db, cursor: ExportCursor | null, limit: number): Promise<AuditLine[]> {
  return queryRows<AuditLine>(
    db,
    sql`SELECT l.created_at::text AS "cursorAt", l.id, l.created_at AS "createdAt", l.operator_email AS "operatorEmail", l.action, u.email AS "targetEmail", l.details
        FROM operator_audit_log l LEFT JOIN "user" u ON u.id = l.target_user_id
        WHERE ${after('created_at', cursor, 'l')}
        ORDER BY l.created_at, l.id LIMIT ${limit}`,
  );
}
