import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Operators kept in the database (`npm run admin -- add`), beside those named by ADMIN_EMAILS. */
export const operators = pgTable('operators', {
  // stored in lowercase, as ADMIN_EMAILS is read
  email: text('email').primaryKey(),
  addedBy: text('added_by').notNull(),
  createdAt,
});

/** Every operator action: who did what, to which member, when. Never updated or deleted. */
export const operatorAuditLog = pgTable(
  'operator_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    // the member stays named in details when the account is deleted
    targetUserId: uuid('target_user_id').references(() => user.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt,
  },
  (table) => [index('operator_audit_log_created_idx').on(table.createdAt), index('operator_audit_log_target_idx').on(table.targetUserId, table.createdAt)],
);

/**
 * One-time invitations to become an operator (`npm run admin -- add`, or an operator in the
 * console): only the link's holder proves control, so the token is stored hashed.
 */
export const operatorInvitations = pgTable(
  'operator_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt,
  },
  (table) => [index('operator_invitations_email_idx').on(table.email)],
);

/**
 * Members banned by an operator: their access ended and their provider subscriptions canceled,
 * and checkout refuses the account and its e-mail (lowercased) from then on.
 */
export const memberBans = pgTable(
  'member_bans',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    reason: text('reason'),
    bannedBy: text('banned_by').notNull(),
    /** The payment refunded with the ban, if the operator asked for it. */
    refundedPaymentId: text('refunded_payment_id'),
    createdAt,
  },
  (table) => [index('member_bans_email_idx').on(table.email)],
);
