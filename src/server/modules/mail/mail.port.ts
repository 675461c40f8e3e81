/** A mail with both bodies; every adapter sends or stores the same thing. */
export type Mail = { to: string; subject: string; text: string; html: string };

export type MailPort = {
  kind: 'smtp' | 'outbox';
  send: (mail: Mail) => Promise<void>;
};
