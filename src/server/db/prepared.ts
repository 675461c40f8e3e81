import { oncePerKey } from '@shared/once-per-key';
import type { Db } from './client';

/**
 * A statement built once per database handle (or transaction) and kept: Drizzle otherwise builds
 * a query's SQL on every call, about 0.1 ms of CPU, as much as a member route's own work. For
 * the statements a member's pages run on every visit.
 */
export const preparedPerDb = <Statement>(build: (db: Db) => Statement): ((db: Db) => Statement) => oncePerKey(build);
