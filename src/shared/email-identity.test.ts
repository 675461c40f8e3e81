import { describe, expect, it } from 'vitest';
import { normaliseEmailIdentity } from './email-identity';

describe('normaliseEmailIdentity', () => {
  it.each([
    // Gmail ignores dots and +tags, and googlemail.com is the same mailbox
    ['Alice@Gmail.com', 'alice@gmail.com'],
    ['a.l.i.c.e@gmail.com', 'alice@gmail.com'],
    ['alice+trial2@gmail.com', 'alice@gmail.com'],
    ['A.Lice+x+y@GoogleMail.com ', 'alice@gmail.com'],
    // other providers with plus addressing keep their dots
    ['first.last+shop@outlook.com', 'first.last@outlook.com'],
    ['me+1@icloud.com', 'me@icloud.com'],
    // elsewhere an address is only trimmed and lowercased: a +tag may be a real, other mailbox
    ['first.last+shop@example.com', 'first.last+shop@example.com'],
    ['  Bob@Example.COM', 'bob@example.com'],
    // a name that is only a tag, and what is not an address, are left as typed (lowercased)
    ['+tag@gmail.com', '+tag@gmail.com'],
    ['not-an-address', 'not-an-address'],
    ['trailing@', 'trailing@'],
  ])('%s → %s', (email, identity) => {
    expect(normaliseEmailIdentity(email)).toBe(identity);
  });
});
