// The console's view of the access-change outbox: what each subscriber (TradingView, mail…) has
// yet to take. An empty list means every change has been delivered.
import type { AccessChangesBacklog } from '@shared/admin-contract';
import type { Db } from '../../db/client';
import { deliveryBacklog } from '../entitlements/access-changes.repository';

export type AccessChangesBacklogService = { backlog(): Promise<AccessChangesBacklog> };

export function createAccessChangesBacklog(deps: { db: Db }): AccessChangesBacklogService {
  return {
    async backlog() {
      const rows = await deliveryBacklog(deps.db);
      return {
        subscribers: rows.map((row) => ({
          subscriber: row.subscriber,
          waiting: row.waiting,
          failing: row.failing,
          oldest: row.oldest ? row.oldest.toISOString() : null,
          lastError: row.lastError,
        })),
      };
    },
  };
}
