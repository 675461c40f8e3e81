// Calendar-month arithmetic in SQL, counted in UTC whatever the session's time zone: the
// retention report's statements (its own and the subscription history entitlements reads for it)
// count by month with these, so both sides agree on where a month begins.
import { sql, type SQL } from 'drizzle-orm';

const utc = (at: SQL) => sql`((${at}) AT TIME ZONE 'UTC')`;

/** The month of an instant as 'YYYY-MM'. */
export const monthOf = (at: SQL) => sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM')`;

/** `months` calendar months after an instant. */
export const monthsAfter = (at: SQL, months: SQL) => sql`(((${at}) AT TIME ZONE 'UTC') + ${months} * interval '1 month') AT TIME ZONE 'UTC'`;

/** The calendar month of an instant as a number (year × 12 + month). */
export const monthNumber = (at: SQL) => sql`((extract(year from ${utc(at)}) * 12 + extract(month from ${utc(at)}))::int)`;

/** Whether an instant is its month's first. */
export const isMonthStart = (at: SQL) => sql`(${utc(at)} = date_trunc('month', ${utc(at)}))`;

/** Whole calendar months from `from`'s month to `to`'s. */
export const monthsFrom = (from: SQL, to: SQL) => sql`(${monthNumber(to)} - ${monthNumber(from)})`;

/** The last k with `from` + k months ≤ `to`: how many whole months after `from` `to` has reached. */
export const monthsReached = (from: SQL, to: SQL) => sql`(${monthsFrom(from, to)} - CASE WHEN ${monthsAfter(from, monthsFrom(from, to))} <= ${to} THEN 0 ELSE 1 END)`;
