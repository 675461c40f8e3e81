import { eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SECURITY_EVENTS_PER_USER } from '@shared/security';
import type { Database } from '../../db/client';
import { securityEvents, user } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { ANONYMOUS_EVENT_RETENTION_DAYS, recordSecurityEvent } from './security.repository';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('recordSecurityEvent retention', () => {
  it(`keeps at most ${MAX_SECURITY_EVENTS_PER_USER} events per user, dropping the oldest`, async () => {
    const [member] = await database.db.insert(user).values({ name: 'm', email: 'log-cap@example.com' }).returning();
    await database.db.execute(sql`
      INSERT INTO security_events (user_id, event, created_at)
      SELECT ${member!.id}, 'AUTH_FAILURE', now() - (n || ' minutes')::interval FROM generate_series(1, ${MAX_SECURITY_EVENTS_PER_USER}) AS n`);
    await recordSecurityEvent(database.db, { userId: member!.id, event: 'SUBSCRIPTION_CHANGE' });
    const rows = await database.db.select().from(securityEvents).where(eq(securityEvents.userId, member!.id));
    expect(rows).toHaveLength(MAX_SECURITY_EVENTS_PER_USER);
    expect(rows.some((row) => row.event === 'SUBSCRIPTION_CHANGE')).toBe(true);
  });

  it(`drops events without an account after ${ANONYMOUS_EVENT_RETENTION_DAYS} days`, async () => {
    await database.db.execute(sql`INSERT INTO security_events (user_id, event, created_at) VALUES
      (NULL, 'AUTH_FAILURE', now() - interval '${sql.raw(String(ANONYMOUS_EVENT_RETENTION_DAYS + 1))} days'),
      (NULL, 'AUTH_FAILURE', now() - interval '2 days')`);
    await recordSecurityEvent(database.db, { userId: null, event: 'AUTH_FAILURE', details: { email: 'nobody@example.com' } });
    const anonymous = await database.db.select().from(securityEvents).where(isNull(securityEvents.userId));
    expect(anonymous).toHaveLength(2);
  });
});
