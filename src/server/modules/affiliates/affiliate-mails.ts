// The affiliate's mails, through the outbox: "you earned a commission" at most once a day (a
// digest of the commissions not yet told, keyed by affiliate and day), and "your payout was sent"
// once per payout. The first commission of a day is told at once; the ones after it wait for the
// daily digest pass (createAffiliateDigestJob), which tells every affiliate still owed a mail.
import type { Db } from '../../db/client';
import { createBackgroundLoop, type BackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import { enqueueMail } from '../mail/outbox.repository';
import { affiliatesToTell, markMailed, readTerms, unmailedOf, type AffiliateRow } from './affiliates.repository';

/** A pass every hour: a commission earned after its day's mail is told soon after the next day begins (UTC). */
const DIGEST_INTERVAL_MS = 60 * 60_000;
const DIGEST_BATCH = 200;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export function affiliateMails(deps: { db: Db; clock: () => Date; kickMailer: () => void }) {
  const { db, clock } = deps;

  /** Writes the day's digest of the affiliate's untold commissions; false when there is none or the day's mail is already written. */
  async function writeDigest(affiliate: AffiliateRow, day: string): Promise<boolean> {
    return db.transaction(async (tx) => {
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
  }

  return {
    async commissionEarned(affiliate: AffiliateRow): Promise<void> {
      if (await writeDigest(affiliate, dayOf(clock()))) deps.kickMailer();
    },
    async payoutSent(affiliate: AffiliateRow, payout: { id: string; amount: number; currency: string; email: string }): Promise<void> {
      await enqueueMail(db, { template: 'affiliate_payout', to: affiliate.email, data: { amount: payout.amount, currency: payout.currency, payoutEmail: payout.email }, dedupeKey: `affiliate_payout:${payout.id}` });
      deps.kickMailer();
    },
    /**
     * The digest pass: one mail today to each affiliate with commissions not yet told. Safe on any
     * number of instances (the day's dedupe key); answers how many mails it wrote and whether more wait.
     */
    async sendDigests(): Promise<{ written: number; more: boolean }> {
      const day = dayOf(clock());
      const due = await affiliatesToTell(db, day, DIGEST_BATCH);
      let written = 0;
      for (const affiliate of due) if (await writeDigest(affiliate, day)) written += 1;
      if (written > 0) deps.kickMailer();
      return { written, more: due.length === DIGEST_BATCH };
    },
  };
}

export type AffiliateMails = ReturnType<typeof affiliateMails>;

/** The digest's loop for main.ts, like the mail schedule's; tests run single passes (runOnce). */
export function createAffiliateDigestJob(mails: Pick<AffiliateMails, 'sendDigests'>, logger: Logger): BackgroundLoop & { runOnce: AffiliateMails['sendDigests'] } {
  const loop = createBackgroundLoop({
    async pass() {
      const { written, more } = await mails.sendDigests();
      if (written > 0) logger.info({ written }, 'affiliate commission digests written');
      return more;
    },
    intervalMs: DIGEST_INTERVAL_MS,
    firstDelayMs: 60_000,
    logger,
    label: 'affiliate digest',
  });
  return { ...loop, runOnce: () => mails.sendDigests() };
}
