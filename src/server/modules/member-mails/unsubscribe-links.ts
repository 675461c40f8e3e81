// The unsubscribe links of the member mails: the member and the kind of mail, signed with the
// server secret (an HMAC, so no table of tokens), opened without signing in from a mail client.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isMemberMailKind, type MemberMailKind } from '@shared/member-mails';

export type UnsubscribeLinks = {
  /** The path part of /mail/unsubscribe/{token} for this member and kind. */
  tokenFor: (userId: string, kind: MemberMailKind) => string;
  /** The member and kind a token names, or null when it is not one we signed. */
  read: (token: string) => { userId: string; kind: MemberMailKind } | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createUnsubscribeLinks(secret: string): UnsubscribeLinks {
  const mac = (userId: string, kind: string) => createHmac('sha256', secret).update(`mail-unsubscribe\n${userId}\n${kind}`).digest('base64url').slice(0, 32);
  return {
    tokenFor: (userId, kind) => `${userId}.${kind}.${mac(userId, kind)}`,
    read(token) {
      const [userId, kind, signature, extra] = token.split('.');
      if (extra !== undefined || !userId || !kind || !signature || !UUID.test(userId) || !isMemberMailKind(kind)) return null;
      const expected = mac(userId, kind);
      return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) ? { userId, kind } : null;
    },
  };
}
