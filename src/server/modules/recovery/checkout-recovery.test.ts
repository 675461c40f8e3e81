// Checkout recovery in the sandbox: a checkout with a known e-mail that expires unpaid gets exactly
// one mail whose link reopens it (a copy of the expired session, as Stripe's recovery URL makes);
// at most one per address a week, none after a purchase or an unsubscribe, and a link used after
// buying answers a clear page instead of a second checkout.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { outbox } from '../../db/schema';
import { billingSuite, CARDS, DAY_MS, jobsOf, payBody, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import type { TestApp } from '../../test-support/test-app';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));
const db = () => t.deps.database.db;

async function deliver() {
  for (let pass = 0; pass < 5 && (await undeliveredEvents(t)).length > 0; pass += 1) await jobsOf(t).runOnce();
}

/** A checkout started for `address` and left: the sandbox expires it as Stripe would. */
async function abandon(address: string | null): Promise<string> {
  const { sessionId } = await startCheckout(t, { customerEmail: address });
  const response = await t.request(`/api/sandbox/checkout/${sessionId}/expire`, { body: {} });
  expect(response.status, await response.clone().text()).toBe(200);
  await deliver();
  return sessionId;
}

async function recoveryMails(address: string) {
  return db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.to, address), eq(outbox.template, 'checkout_recovery')));
}

const allRecoveryMails = async () => (await db().select({ id: outbox.id }).from(outbox).where(eq(outbox.template, 'checkout_recovery'))).length;

async function linkOf(address: string): Promise<string> {
  const [mail] = await recoveryMails(address);
  const { token } = mail!.data as { token: string };
  return `/checkout/recover/${token}`;
}

describe('checkout recovery', () => {
  it('an abandoned checkout gets exactly one mail; its link reopens the checkout, which can be paid', async () => {
    const buyer = email('left');
    const sessionId = await abandon(buyer);
    const mails = await recoveryMails(buyer);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data).toMatchObject({ planType: 'monthly' });

    await jobsOf(t).runOnce();
    expect(await recoveryMails(buyer)).toHaveLength(1);

    const opened = await t.request(await linkOf(buyer));
    expect(opened.status).toBe(302);
    const resumed = opened.headers.get('location')!;
    expect(resumed).toMatch(/^\/sandbox\/checkout\/cs_/);
    expect(resumed).not.toBe(`/sandbox/checkout/${sessionId}`);
    const copy = resumed.split('/').at(-1)!;
    const page = await t.request(`/api/sandbox/checkout/${copy}`);
    expect(await page.json()).toMatchObject({
      status: 'open',
      planType: 'monthly',
    });
    const paid = await t.request(`/api/sandbox/checkout/${copy}/pay`, {
      body: payBody(null, CARDS.ok),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    await deliver();

    // the link after the purchase: a clear page, not a second checkout
    const after = await t.request(await linkOf(buyer));
    expect(after.status).toBe(410);
    expect(await after.text()).toContain('You already completed this purchase');
  });

  it('at most one mail per address in 7 days: a second abandoned checkout within the week gets none, one after it does', async () => {
    const buyer = email('twice');
    await abandon(buyer);
    await abandon(buyer);
    expect(await recoveryMails(buyer)).toHaveLength(1);
    time.advance(7 * DAY_MS + 60_000);
    try {
      await abandon(buyer);
      expect(await recoveryMails(buyer)).toHaveLength(2);
    } finally {
      time.advance(-(7 * DAY_MS + 60_000));
    }
  });

  it('no mail to someone who bought since, nor without an e-mail', async () => {
    const buyer = email('bought');
    const { sessionId: left } = await startCheckout(t, {
      customerEmail: buyer,
    });
    const { sessionId: bought } = await startCheckout(t, {
      customerEmail: buyer,
    });
    expect(
      (
        await t.request(`/api/sandbox/checkout/${bought}/pay`, {
          body: payBody(null),
        })
      ).status,
    ).toBe(200);
    await deliver();
    await t.request(`/api/sandbox/checkout/${left}/expire`, { body: {} });
    await deliver();
    expect(await recoveryMails(buyer)).toHaveLength(0);

    const before = await allRecoveryMails();
    await abandon(null);
    expect(await allRecoveryMails()).toBe(before);
  });

  it('the unsubscribe link asks first, then no more mails reach the address', async () => {
    const buyer = email('unsub');
    await abandon(buyer);
    const link = await linkOf(buyer);
    const ask = await t.request(`${link}/unsubscribe`);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('<form method="post">');
    const done = await t.request(`${link}/unsubscribe`, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are unsubscribed');
    time.advance(8 * DAY_MS);
    try {
      await abandon(buyer);
      expect(await recoveryMails(buyer)).toHaveLength(1);
    } finally {
      time.advance(-8 * DAY_MS);
    }
  });

  it("carries the one-click unsubscribe headers (RFC 8058): a mail client's POST, without a session, opts the address out, and once more changes nothing", async () => {
    const buyer = email('oneclick');
    await abandon(buyer);
    const [mail] = await recoveryMails(buyer);
    const { headers } = await t.deps.mailer.render(mail!);
    expect(headers).toEqual({
      'List-Unsubscribe': `<${t.deps.config.publicUrl}${await linkOf(buyer)}/unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const url = new URL(headers!['List-Unsubscribe']!.slice(1, -1));
    // what a mail provider's unsubscribe button sends: no cookie, from its own servers
    const oneClick = () =>
      t.request(url.pathname, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.net' },
      });
    const first = await oneClick();
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('You are unsubscribed');
    expect((await oneClick()).status).toBe(200);
    time.advance(8 * DAY_MS);
    try {
      await abandon(buyer);
      expect(await recoveryMails(buyer)).toHaveLength(1);
    } finally {
      time.advance(-8 * DAY_MS);
    }
  });

  it('the sandbox expires a checkout left open past its 24 hours and mails its buyer, as Stripe does', async () => {
    const buyer = email('timeout');
    await startCheckout(t, { customerEmail: buyer });
    time.advance(DAY_MS + 60_000);
    try {
      await jobsOf(t).runOnce();
      await deliver();
      expect(await recoveryMails(buyer)).toHaveLength(1);
    } finally {
      time.advance(-(DAY_MS + 60_000));
    }
  });

  it.each(['/checkout/recover/short', `/checkout/recover/${'A'.repeat(43)}`, `/checkout/recover/${'%3Cx%3E'.repeat(700)}`])('an unknown or forged link %# is a 404 page', async (path) => {
    const response = await t.request(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('This link is not valid');
    expect((await t.request(`${path}/unsubscribe`, { method: 'POST' })).status).toBe(404);
  });
});
