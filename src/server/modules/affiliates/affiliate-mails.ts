// The affiliate's mails, through the outbox: "you earned a commission" at most once a day (a
// digest of the commissions not yet told, keyed by affiliate and day; later ones wait for the
// next day's mail), and "your payout was sent" once per payout.
import type { Db } from '../../db/client';
import { enqueueMail } from '../mail/outbox.repository';
import { markMailed, readTerms, unmailedOf, type AffiliateRow } from './affiliates.repository';

export function affiliateMails(deps: { db: Db; clock: () => Date; kickMailer: () => void }) {
  const { db, clock } = deps;
  return {
    async commissionEarned(affiliate: AffiliateRow): Promise<void> {
      const day = clock().toISOString().slice(0, 10);
      const queued = await db.transaction(async (tx) => {
        const rows = await unmailedOf(tx, affiliate.id);
        if (rows.length === 0) return false;
        const sums = new Map<string, number>();
        for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + row.amount);
        const { terms } = await readTerms(tx);
        const written = await enqueueMail(tx, {
          template: 'affiliate_commission',
          to: affiliate.email,
          data: { count: rows.length, amounts: [...sums].map(([currency, amount]) => ({ currency, amount })), holdDays: terms.holdDays },
          dedupeKey: `affiliate_commission:${affiliate.id}:${day}`,
        });
        if (written) await markMailed(tx, rows.map((row) => row.id));
        return written;
      });
      if (queued) deps.kickMailer();
    },
    async payoutSent(affiliate: AffiliateRow, payout: { id: string; amount: number; currency: string; email: string }): Promise<void> {
      await enqueueMail(db, { template: 'affiliate_payout', to: affiliate.email, data: { amount: payout.amount, currency: payout.currency, payoutEmail: payout.email }, dedupeKey: `affiliate_payout:${payout.id}` });
      deps.kickMailer();
    },
  };
}
