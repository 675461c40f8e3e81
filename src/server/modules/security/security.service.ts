import type { SecurityAlertsResponse } from '@shared/api-contract';
import {
  SCORE_WINDOW_MS,
  SECURITY_EVENT_TYPES,
  scoreColour,
  securityAlerts,
  securityScore,
  type SecurityEvent,
  type SecurityEventType,
} from '@shared/security';
import type { Db } from '../../db/client';
import { userHasPremiumAccess } from '../access/access.repository';
import { recentSecurityEvents, recordSecurityEvent } from './security.repository';

/**
 * A member bouncing off the dashboard (reloads, several tabs) would otherwise cost 15 points per
 * page load; one event per minute is enough to tell them someone tried.
 */
const UNAUTHORIZED_ACCESS_DEDUPE_MS = 60_000;

export type SecurityAlertsDto = SecurityAlertsResponse & { colour: 'green' | 'yellow' | 'red' };

const isKnownEvent = (event: string): event is SecurityEventType => (SECURITY_EVENT_TYPES as readonly string[]).includes(event);

export function createSecurityService({ db, clock }: { db: Db; clock: () => Date }) {
  return {
    /** Security score and alerts from the user's log of the last 24 h (the longest window used). */
    async alerts(userId: string): Promise<SecurityAlertsDto> {
      const now = clock();
      const rows = await recentSecurityEvents(db, userId, new Date(now.getTime() - SCORE_WINDOW_MS));
      const events: SecurityEvent[] = rows
        .filter((row) => isKnownEvent(row.event))
        .map((row) => ({
          event: row.event as SecurityEventType,
          // The database stamps rows with its own clock; one a few ms ahead of ours must still count.
          timestamp: row.seenAt.getTime() > now.getTime() ? now : row.seenAt,
          count: row.count,
        }));
      const score = securityScore(events, now);
      return {
        score,
        colour: scoreColour(score),
        alerts: securityAlerts(events, now).map((alert) => ({ ...alert, timestamp: alert.timestamp.toISOString() })),
      };
    },

    /**
     * The dashboard guard reports that the signed-in user was turned away. The server checks that
     * this is true (no premium access) before writing anything, and writes only this one event
     * type, so a client cannot put arbitrary entries in its log.
     */
    async recordUnauthorizedAccess(userId: string, input: { path: string; ipAddress: string | null }): Promise<{ recorded: boolean }> {
      if (await userHasPremiumAccess(db, userId)) return { recorded: false };
      const now = clock();
      const recent = await recentSecurityEvents(db, userId, new Date(now.getTime() - UNAUTHORIZED_ACCESS_DEDUPE_MS), ['UNAUTHORIZED_ACCESS']);
      if (recent.length > 0) return { recorded: false };
      await recordSecurityEvent(db, {
        userId,
        event: 'UNAUTHORIZED_ACCESS',
        details: { path: input.path },
        ipAddress: input.ipAddress,
      });
      return { recorded: true };
    },
  };
}
