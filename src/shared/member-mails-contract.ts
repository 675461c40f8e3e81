// The JSON of the mail switches (console) and of a member's mail preferences (Settings). The
// request schemas check types and sizes only; unknown mail types and ranges are the rules'
// (member-mails.ts), whose messages the 400 carries.
import { z } from 'zod';
import type { MemberMailKind } from './member-mails';
import { safeText } from './validation';

export const MEMBER_MAIL_PATHS = {
  settings: '/api/admin/mail-settings',
  preferences: '/api/mail-preferences',
} as const;

export const mailSettingsRequestSchema = z.object({
  switches: z.record(safeText().max(40), z.boolean({ error: 'A mail switch is true or false.' })).optional(),
  winbackDays: z.number({ error: 'Days after access ends must be a number.' }).optional(),
  winbackCode: safeText().max(200).nullable().optional(),
});
export type MailSettingsRequest = z.infer<typeof mailSettingsRequestSchema>;

export const mailSettingsSchema = z.object({
  /** Each of the shop's switches (the fixed ones, and a reminder per community integration) on or off. */
  switches: z.record(z.string(), z.boolean()),
  winbackDays: z.number().int(),
  winbackCode: z.string().nullable(),
  /** The churned-only codes an operator may choose for the win-back mail (active ones). */
  winbackCodes: z.array(z.string()),
  /** The switches in the console's order, each with its label and whether this shop sends it (a community's reminder only where it runs). */
  mails: z.array(z.object({ name: z.string(), label: z.string(), offered: z.boolean() })),
});
export type MailSettingsView = z.infer<typeof mailSettingsSchema>;

/** `winback` or `setup_<step>`: the kinds follow the shop's integrations. */
const memberMailKindSchema = z.union([z.literal('winback'), z.templateLiteral(['setup_', z.string()])]) satisfies z.ZodType<MemberMailKind>;

export const mailPreferencesSchema = z.object({
  /** The member mails the operator sends here, each with whether this member gets it. */
  mails: z.array(z.object({ kind: memberMailKindSchema, label: z.string(), on: z.boolean() })),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

export const setMailPreferenceSchema = z.object({ kind: safeText().max(40), on: z.boolean({ error: 'Expected true or false.' }) });
