// Mail's configuration keys, read by the server's config.ts (the only reader of the environment)
// and parsed here, beside the rest of the integration (decision 065): without SMTP_URL the shop's
// mails land in the sandbox outbox.
import { z } from 'zod';

const optionalUrl = z.preprocess((value) => (value === '' ? undefined : value), z.url().optional());
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

/** The environment keys of the mail integration (merged into the server's env schema). */
export const mailEnvShape = {
  SMTP_URL: optionalUrl,
  MAIL_FROM: optionalText,
};

export const mailEnvSchema = z.object(mailEnvShape);
export type MailEnv = z.infer<typeof mailEnvSchema>;

/** SMTP with SMTP_URL, else the outbox; the sender is MAIL_FROM, else the brand's support address. */
export type MailSettings = { kind: 'smtp'; url: string; from: string } | { kind: 'outbox'; from: string };

export function mailSettings(env: MailEnv, brand: { name: string; supportEmail: string }): MailSettings {
  const from = env.MAIL_FROM ?? `${brand.name} <${brand.supportEmail}>`;
  return env.SMTP_URL ? { kind: 'smtp', url: env.SMTP_URL, from } : { kind: 'outbox', from };
}
