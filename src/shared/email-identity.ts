// Which person an e-mail address reaches, as its mail provider delivers it: Gmail ignores dots and
// anything after a "+" in the name and treats googlemail.com as gmail.com, and the providers below
// deliver "name+tag@" to "name@". Rules that allow one of something per person (a free trial, an
// affiliate's own referral) compare these identities, never the raw addresses; mail still goes to
// the address the person typed.

const GMAIL_DOMAINS: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);

/** Providers that deliver plus-addressed mail ("name+tag@") to the plain name. */
export const PLUS_ADDRESSING_DOMAINS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'fastmail.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
];

/**
 * The identity of an e-mail address: trimmed and lowercased; for Gmail (and googlemail.com, which is
 * the same mailbox) the dots and the "+tag" of the name are dropped and the domain is gmail.com; for
 * the other plus-addressing providers the "+tag" is dropped. Anything without one "@" is only
 * trimmed and lowercased.
 */
export function normaliseEmailIdentity(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  let name = address.slice(0, at);
  let domain = address.slice(at + 1);
  if (PLUS_ADDRESSING_DOMAINS.includes(domain)) {
    const plus = name.indexOf('+');
    if (plus > 0) name = name.slice(0, plus);
  }
  if (GMAIL_DOMAINS.has(domain)) {
    name = name.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${name}@${domain}`;
}
