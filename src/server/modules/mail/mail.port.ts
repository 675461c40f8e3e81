/** A mail with both bodies and any extra headers; every adapter sends or stores the same thing. */
export type Mail = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };

export type MailPort = {
  kind: 'smtp' | 'outbox';
  send: (mail: Mail) => Promise<void>;
};
