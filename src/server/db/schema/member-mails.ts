// The mails that keep members (migration 0048): the operator's switches and win-back settings (one
// row), and the member mails each member turned off. Written only by modules/member-mails.
import { check, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { MailSwitch, MemberMailKind } from '@shared/member-mails';
import { user } from './auth';

/** The one settings row (id 1); a switch missing from `switches` has its default (member-mails.ts). */
export const mailSettings = pgTable(
  'mail_settings',
  {
    id: smallint('id').primaryKey().default(1),
    switches: jsonb('switches').$type<Partial<Record<MailSwitch, boolean>>>().notNull().default(sql`'{}'::jsonb`),
    winbackDays: integer('winback_days').notNull().default(14),
    /** A churned-only promotion code (promotion_codes.code); null: none chosen yet. */
    winbackCode: text('winback_code'),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('mail_settings_one_row', sql`${table.id} = 1`)],
);

export const memberMailOptouts = pgTable(
  'member_mail_optouts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MemberMailKind>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'member_mail_optouts_pk', columns: [table.userId, table.kind] })],
);
