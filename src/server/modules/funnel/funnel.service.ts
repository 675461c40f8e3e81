// The funnel report: each step per UTC day over the last N days and per source, after adding this
// instance's landing visits still held in memory (other instances add theirs within seconds).
import { FUNNEL_STEPS, utmFromCookie, type FunnelDay, type FunnelReport } from '@shared/funnel';
import type { Db } from '../../db/client';
import type { Community } from '../../linked-accounts';
import { countsBySource, saveCheckoutSource, stepsByDay, visitorsSince } from './funnel.repository';
import type { VisitCounter } from './visit-counter';

const DAY_MS = 24 * 60 * 60 * 1000;

const emptyDay = (day: string): FunnelDay => ({
  day,
  visits: 0,
  checkoutsStarted: 0,
  paid: 0,
  accountsCreated: 0,
  accessGranted: 0,
  communityLinked: 0,
});

export function createFunnelService(deps: {
  db: Db;
  clock: () => Date;
  visits: Pick<VisitCounter, 'flush'>;
  /** The community integrations: a member linked to any of them reached "community linked". */
  communities: readonly Pick<Community, 'links'>[];
}) {
  const { db, clock } = deps;
  const linkTimes = deps.communities.map((community) => community.links.linkTimes());

  return {
    /** Keeps the UTM the buyer's landing visit left in the shop's cookie with the checkout it started. */
    async recordCheckout(checkoutSessionId: string, utmCookie: string | undefined): Promise<void> {
      const utm = utmFromCookie(utmCookie);
      await saveCheckoutSource(db, checkoutSessionId, utm);
    },

    async report(days: number): Promise<FunnelReport> {
      await deps.visits.flush();
      const now = clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const since = new Date(today - (days - 1) * DAY_MS);
      const [steps, visitors, bySource] = await Promise.all([stepsByDay(db, since, linkTimes), visitorsSince(db, since), countsBySource(db, since)]);
      const byDay = Array.from({ length: days }, (_, i) => emptyDay(new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10)));
      const index = new Map(byDay.map((day) => [day.day, day]));
      for (const { step, day, count } of steps) {
        const row = index.get(day);
        if (row) row[step] += count;
      }
      const totals = Object.fromEntries(FUNNEL_STEPS.map((step) => [step, byDay.reduce((sum, day) => sum + day[step], 0)])) as Record<(typeof FUNNEL_STEPS)[number], number>;
      bySource.sort((a, b) => a.kind.localeCompare(b.kind) || b.visits + b.checkoutsStarted - (a.visits + a.checkoutsStarted) || a.value.localeCompare(b.value));
      return {
        days,
        from: byDay[0]!.day,
        to: byDay[byDay.length - 1]!.day,
        ...totals,
        visitors,
        byDay,
        bySource,
      };
    },
  };
}

export type FunnelService = ReturnType<typeof createFunnelService>;
