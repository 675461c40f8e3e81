// The funnel's writes (visit counters, a checkout's UTM) and its reads: each step counted per UTC
// day in the database from an index range (a few hundred grouped rows reach Node), each source
// grouped the same way. Read-only on the other modules' tables.
import { sql, type SQL } from 'drizzle-orm';
import type { FunnelStep, SourceKind, Utm } from '@shared/funnel';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { funnelCheckoutSources } from '../../db/schema';
import { checkoutsPaidSince, checkoutsStartedSince } from '../provider-records/checkout-session-reads';
import type { VisitTally } from './visit-counter';

/** Adds the tallies to the day's counters, one statement for the whole batch. */
export async function saveVisits(db: Db, tallies: readonly VisitTally[]): Promise<void> {
  if (tallies.length === 0) return;
  const values = sql.join(
    tallies.map((t) => sql`(${t.day}::date, ${t.page}, ${t.utm.source}, ${t.utm.medium}, ${t.utm.campaign}, ${t.affiliateCode}, ${t.visits}::int, ${t.visitors}::int)`),
    sql`, `,
  );
  await db.execute(sql`INSERT INTO funnel_visits (day, page, utm_source, utm_medium, utm_campaign, affiliate_code, visits, visitors) VALUES ${values}
    ON CONFLICT ON CONSTRAINT funnel_visits_pk DO UPDATE SET visits = funnel_visits.visits + excluded.visits, visitors = funnel_visits.visitors + excluded.visitors`);
}

export async function saveCheckoutSource(db: Db, checkoutSessionId: string, utm: Utm): Promise<void> {
  await db
    .insert(funnelCheckoutSources)
    .values({
      checkoutSessionId,
      utmSource: utm.source,
      utmMedium: utm.medium,
      utmCampaign: utm.campaign,
    })
    .onConflictDoNothing();
}

type Counted = { day: string; count: string | number };

/**
 * Each step's count per UTC day since `since` (a UTC midnight); days without any are absent.
 * `linkTimes`: each community integration's (user_id, linked_at) of every account linked there.
 */
export async function stepsByDay(db: Db, since: Date, linkTimes: readonly SQL[]): Promise<{ step: FunnelStep; day: string; count: number }[]> {
  const sinceDay = since.toISOString().slice(0, 10);
  const queries: [FunnelStep, ReturnType<typeof sql>][] = [
    ['visits', sql`SELECT day::text AS day, sum(visits) AS count FROM funnel_visits WHERE day >= ${sinceDay}::date GROUP BY day`],
    // a provisional row ('creating') is a checkout the provider never opened
    ['checkoutsStarted', sql`SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*) AS count FROM ${checkoutsStartedSince(since)} started GROUP BY 1`],
    ['paid', sql`SELECT (completed_at AT TIME ZONE 'UTC')::date::text AS day, count(*) AS count FROM ${checkoutsPaidSince(since)} paid GROUP BY 1`],
    ['accountsCreated', sql`SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*) AS count FROM "user" WHERE created_at >= ${since} GROUP BY 1`],
    // a username's first script given by the shop (one member may hold several scripts)
    [
      'accessGranted',
      sql`SELECT day::text AS day, count(*) AS count FROM (SELECT (min(granted_at) AT TIME ZONE 'UTC')::date AS day FROM tradingview_shop_access GROUP BY username HAVING min(granted_at) >= ${since}) firsts GROUP BY day`,
    ],
  ];
  // a member's first link to any community, as the step before counts a username's first grant
  if (linkTimes.length > 0) {
    queries.push([
      'communityLinked',
      sql`SELECT (first_linked AT TIME ZONE 'UTC')::date::text AS day, count(*) AS count FROM (
            SELECT min(linked_at) AS first_linked FROM (${sql.join([...linkTimes], sql` UNION ALL `)}) links GROUP BY user_id HAVING min(linked_at) >= ${since}) firsts GROUP BY 1`,
    ]);
  }
  const results = await Promise.all(
    queries.map(async ([step, query]) =>
      (await queryRows<Counted>(db, query)).map((row) => ({
        step,
        day: row.day,
        count: Number(row.count),
      })),
    ),
  );
  return results.flat();
}

/** Distinct browsers among the visits since `since`. */
export async function visitorsSince(db: Db, since: Date): Promise<number> {
  const [row] = await queryRows<{ count: string | number | null }>(db, sql`SELECT sum(visitors) AS count FROM funnel_visits WHERE day >= ${since.toISOString().slice(0, 10)}::date`);
  return Number(row?.count ?? 0);
}

export type SourceCount = {
  kind: SourceKind;
  value: string;
  visits: number;
  checkoutsStarted: number;
  paid: number;
};

/**
 * Visits, checkouts started since `since` and how many of those were paid, per source: UTM source,
 * affiliate code (their link's click or bound promotion code), promotion code and price list.
 */
export async function countsBySource(db: Db, since: Date): Promise<SourceCount[]> {
  const sinceDay = since.toISOString().slice(0, 10);
  const visits = await queryRows<{
    kind: SourceKind;
    value: string;
    count: string | number;
  }>(
    db,
    sql`SELECT 'utm' AS kind, utm_source AS value, sum(visits) AS count FROM funnel_visits WHERE day >= ${sinceDay}::date GROUP BY utm_source
        UNION ALL SELECT 'affiliate', affiliate_code, sum(visits) FROM funnel_visits WHERE day >= ${sinceDay}::date GROUP BY affiliate_code
        UNION ALL SELECT 'priceList', page, sum(visits) FROM funnel_visits WHERE day >= ${sinceDay}::date GROUP BY page`,
  );
  const checkouts = await queryRows<{
    kind: SourceKind;
    value: string;
    started: string | number;
    paid: string | number;
  }>(
    db,
    sql`WITH started AS (
          SELECT cs.origin_page, coalesce(cs.promotion_code, '') AS promotion, coalesce(src.utm_source, '') AS utm, coalesce(a.code, '') AS affiliate, cs.paid
          FROM ${checkoutsStartedSince(since)} cs
          LEFT JOIN funnel_checkout_sources src ON src.checkout_session_id = cs.id
          LEFT JOIN affiliate_referrals r ON r.checkout_session_id = cs.id
          LEFT JOIN affiliates a ON a.id = r.affiliate_id)
        SELECT 'utm' AS kind, utm AS value, count(*) AS started, count(*) FILTER (WHERE paid) AS paid FROM started GROUP BY utm
        UNION ALL SELECT 'affiliate', affiliate, count(*), count(*) FILTER (WHERE paid) FROM started GROUP BY affiliate
        UNION ALL SELECT 'promotion', promotion, count(*), count(*) FILTER (WHERE paid) FROM started GROUP BY promotion
        UNION ALL SELECT 'priceList', origin_page, count(*), count(*) FILTER (WHERE paid) FROM started GROUP BY origin_page`,
  );
  const rows = new Map<string, SourceCount>();
  const rowOf = (kind: SourceKind, value: string) => {
    const id = `${kind}\u0000${value}`;
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { kind, value, visits: 0, checkoutsStarted: 0, paid: 0 }));
    return row;
  };
  for (const row of visits) rowOf(row.kind, row.value).visits += Number(row.count);
  for (const row of checkouts) {
    const counted = rowOf(row.kind, row.value);
    counted.checkoutsStarted += Number(row.started);
    counted.paid += Number(row.paid);
  }
  return [...rows.values()];
}
