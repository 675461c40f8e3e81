import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { session, user } from '../../db/schema';
import type { SessionUser } from '../../http/session-user';

export type SessionWithAccess = {
  expiresAt: Date;
  updatedAt: Date;
  user: SessionUser;
  /** user_has_premium_access, read in the same statement: true only while access lasts. */
  hasAccess: boolean;
};

/**
 * The session behind a cookie's token, its user and their access, in one prepared statement: a
 * member request costs one round trip to the database instead of four (better-auth reads the
 * session, then the user twice; the access rule was a fourth query).
 */
export function createSessionRepository(db: Db) {
  const byToken = db
    .select({
      expiresAt: session.expiresAt,
      updatedAt: session.updatedAt,
      createdAt: session.createdAt,
      twoFactorVerified: session.twoFactorVerified,
      user: { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt, emailVerified: user.emailVerified, twoFactorEnabled: user.twoFactorEnabled },
      hasAccess: sql<boolean>`user_has_premium_access(${user.id})`,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sql.placeholder('token')))
    .prepare('session_with_access');

  return {
    async findWithAccess(token: string): Promise<SessionWithAccess | null> {
      const [row] = await byToken.execute({ token });
      if (!row) return null;
      const { createdAt, twoFactorVerified, ...found } = row;
      return { ...found, user: { ...row.user, signIn: { at: createdAt, passedTwoFactor: twoFactorVerified } }, hasAccess: row.hasAccess === true };
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
