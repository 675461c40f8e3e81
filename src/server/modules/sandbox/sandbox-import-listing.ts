// The sandbox provider's side of `npm run import -- stripe`: what it keeps as Stripe would (its own
// subscriptions that are not canceled, its paid one-time checkouts), a page at a time, in the same
// snapshots as its other reads.
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { isRecurring } from '@shared/plans';
import { sandboxCheckoutSessions, sandboxCustomers, sandboxSubscriptions } from '../../db/schema';
import type { ImportablePurchase, PaymentsCore } from '../payments/payments.port';
import type { SandboxDeps } from './sandbox-store';

const PAGE = 100;

export function createSandboxImportListing(deps: SandboxDeps, reads: Pick<PaymentsCore, 'retrieveSubscription' | 'retrieveCheckoutSession'>) {
  const { db } = deps;

  async function* importablePurchases(): AsyncGenerator<ImportablePurchase[]> {
    for (let after = ''; ; ) {
      const rows = await db
        .select({ id: sandboxSubscriptions.id, email: sandboxCustomers.email })
        .from(sandboxSubscriptions)
        .innerJoin(sandboxCustomers, eq(sandboxCustomers.id, sandboxSubscriptions.customerId))
        .where(and(ne(sandboxSubscriptions.status, 'canceled'), gt(sandboxSubscriptions.id, after)))
        .orderBy(asc(sandboxSubscriptions.id))
        .limit(PAGE);
      const page: ImportablePurchase[] = [];
      for (const row of rows) {
        const subscription = await reads.retrieveSubscription(row.id);
        if (subscription) page.push({ kind: 'subscription', subscription, email: row.email });
      }
      yield page;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    for (let after = ''; ; ) {
      const rows = await db
        .select({ id: sandboxCheckoutSessions.id, planType: sandboxCheckoutSessions.planType })
        .from(sandboxCheckoutSessions)
        .where(and(eq(sandboxCheckoutSessions.mode, 'payment'), eq(sandboxCheckoutSessions.paymentStatus, 'paid'), gt(sandboxCheckoutSessions.id, after)))
        .orderBy(asc(sandboxCheckoutSessions.id))
        .limit(PAGE);
      const page: ImportablePurchase[] = [];
      for (const row of rows.filter((candidate) => !isRecurring(candidate.planType))) {
        const session = await reads.retrieveCheckoutSession(row.id);
        if (session) page.push({ kind: 'one_time', session: { ...session, planType: row.planType } });
      }
      yield page;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
  }

  return { importablePurchases };
}
