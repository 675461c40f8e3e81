import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { compose } from '../../composition';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { outbox } from '../../db/schema';
import { buildDependencies } from '../../dependencies';
import { reminderTexts } from '../../integration';
import { INTEGRATIONS } from '../../integrations';
import { createLogger } from '../../logger';
import { createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { createTestDatabase } from '../../test-support/test-database';
import { MAIL_TEMPLATES, type MailIntent, type MailIntentData } from '@shared/mail-intents';
import type { Mail, MailPort } from './mail.port';
import { render } from '@react-email/render';
import { buildMail, plainTextElement, renderMail, type MailContext } from './mail-templates';
import { createMailer, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, mailRetryDelayMs } from './mailer';
import { createOutboxMail } from './outbox-mail';
import { claimDueMails, enqueueMail, listOutboxMails } from './outbox.repository';
import { createSmtpMail } from './smtp-mail';

const context: MailContext = {
  brand: 'Acme Charts',
  publicUrl: 'https://shop.example.com',
  supportEmail: 'help@shop.example.com',
  finishSetupUrl: (sessionId, writtenAt) => `https://shop.example.com/payment-success?session_id=${sessionId}&proof=${writtenAt.getTime()}`,
  setupReminders: reminderTexts(INTEGRATIONS),
  // a shop whose members link Discord (Telegram offered or not: the test below)
  offeredSteps: () => ['discord'],
};

describe('mail templates (React Email)', () => {
  const at = new Date('2026-03-01T12:00:00Z');

  const samples: { [T in keyof MailIntentData]: MailIntentData[T] } = {
    finish_setup: { sessionId: 'cs_1', planType: 'monthly' },
    finish_setup_reminder: { sessionId: 'cs_1', planType: 'euMonthly' },
    receipt: { planType: 'yearly', amount: 20400, currency: 'usd', renewsAt: '2027-03-01T12:00:00.000Z' },
    tradingview_active: { username: 'chart_wizard' },
    payment_failed: { planType: 'monthly' },
    access_ending: { planType: 'quarterly', endsAt: '2026-03-04T00:00:00.000Z' },
    access_ended: { planType: 'quarterly' },
    comp_ending: { endsAt: '2026-03-04T00:00:00.000Z' },
    comp_ended: { endedAt: '2026-03-04T00:00:00.000Z' },
    plan_changed: { from: 'monthly', to: 'yearly' },
    trial_ending: { planType: 'monthly', endsAt: '2026-03-08T12:00:00.000Z', amount: 3600, currency: 'usd' },
    trial_refused: { planType: 'monthly', reason: 'tradingview_username', amount: 3600, currency: 'usd' },
    password_reset: { url: 'https://shop.example.com/reset-password?token=abc&x=<1>' },
    verify_email: { url: 'https://shop.example.com/verify?token=a"b' },
    operator_invitation: { url: 'https://shop.example.com/operator-invitation?token=a<b', invitedBy: 'ops@example.com' },
    access_moved: { url: 'https://shop.example.com/reset-password?token=a<b', planType: 'yearly', days: 14 },
    operator_alert: { title: 'Mail is failing', detail: '3 mails <failed>', since: '2026-03-01T11:00:00.000Z' },
    operator_alert_resolved: { title: 'Mail is failing', since: '2026-03-01T11:00:00.000Z', resolvedAt: '2026-03-01T12:00:00.000Z' },
    announcement: { announcementId: 'a1', title: 'Pro V2 2.3', body: 'Remove and re-add the indicator.\n\nThen <check> the settings.', scriptId: 'PUB;pro-v2' },
    affiliate_commission: { count: 2, amounts: [{ amount: 1080, currency: 'usd' }, { amount: 900, currency: 'eur' }], holdDays: 30 },
    affiliate_payout: { amount: 5400, currency: 'usd', payoutEmail: 'me<paypal>@example.com' },
    checkout_recovery: { token: 'tok_<abc>', planType: 'monthly' },
    pause_resuming: { planType: 'monthly', resumesAt: '2026-03-01T00:00:00.000Z' },
    price_moved: { planType: 'monthly', amount: 4000, currency: 'usd', from: '2026-04-01T00:00:00.000Z' },
    winback: { code: 'BACK<20>', offer: '20% off on the first payment', unsubscribe: 'u.winback.sig' },
    setup_reminder: { step: 'tradingview', reminder: 1, unsubscribe: 'u.setup_tradingview.sig' },
  };

  // the markers React's streaming renderer leaves for hydration; a mail is never hydrated
  const STREAM_MARKERS = /<!--(\$|\/\$|html|head|body| )-->/g;

  it.each(MAIL_TEMPLATES)("%s: HTML and text are what React Email's own render() makes, without the stream's markers", async (template) => {
    const mail = renderMail(template, samples[template] as never, context, at);
    const { element } = buildMail(template, samples[template] as never, context, at);
    const streamed = await render(element);
    expect(streamed).toMatch(STREAM_MARKERS);
    expect(mail.html).toBe(streamed.replace(STREAM_MARKERS, ''));
    expect(mail.html).toContain('<!--[if mso]>');
    expect(mail.text).toBe(await render(plainTextElement(element), { plainText: true }));
    expect(mail.text.length).toBeGreaterThan(100);
  });

  it('writes the reset mail with both bodies, the brand, the link and its 10-minute lifetime', async () => {
    const mail = await renderMail('password_reset', { url: 'https://shop.example.com/reset-password?token=abc&x=<1>' }, context, at);
    expect(mail.subject).toBe('Reset your Acme Charts password');
    expect(mail.text).toContain('https://shop.example.com/reset-password?token=abc&x=<1>');
    expect(mail.text).toContain('expires in 10 minutes');
    expect(mail.html).toContain('Acme Charts');
    // escaped in the HTML, readable on a phone
    expect(mail.html).toContain('href="https://shop.example.com/reset-password?token=abc&amp;x=&lt;1&gt;"');
    expect(mail.html).not.toContain('<1>');
    expect(mail.html).toContain('name="viewport"');
    expect(mail.html).toContain('max-width:560px');
    // the HTML offers the link to paste as well; the text writes it once, beside the button's label
    expect(mail.html).toContain('Or paste this link into your browser');
    expect(mail.text.match(/https:\/\/shop\.example\.com\/reset-password/g)).toHaveLength(1);
    expect(mail.text).toContain('Reset password https://shop.example.com/reset-password?token=abc&x=<1>');
  });

  it('escapes the brand', async () => {
    const mail = await renderMail('verify_email', { url: 'https://x.y/v' }, { ...context, brand: '<b>Brand</b>' }, at);
    expect(mail.html).not.toContain('<b>Brand</b>');
    expect(mail.text).toContain('https://x.y/v');
  });

  it.each([
    ['finish_setup', { sessionId: 'cs_1', planType: 'monthly' }, 'Finish setting up your Acme Charts access', `https://shop.example.com/payment-success?session_id=cs_1&proof=${at.getTime()}`],
    ['finish_setup_reminder', { sessionId: 'cs_1', planType: 'monthly' }, 'Reminder: finish setting up your Acme Charts access', 'https://shop.example.com/payment-success?session_id=cs_1'],
    ['receipt', { planType: 'yearly', amount: 20400, currency: 'usd', renewsAt: '2027-03-01T12:00:00.000Z' }, 'Your Acme Charts receipt — Yearly', 'https://shop.example.com/dashboard'],
    ['tradingview_active', { username: 'chart_wizard' }, 'Your TradingView access is active', 'https://shop.example.com/dashboard'],
    ['payment_failed', { planType: 'monthly' }, 'Payment failed — update your card', 'https://shop.example.com/dashboard/settings?section=subscription'],
    ['access_ending', { planType: 'quarterly', endsAt: '2026-03-04T00:00:00.000Z' }, 'Your Acme Charts access ends on March 4, 2026', 'https://shop.example.com/dashboard/settings?section=subscription'],
    ['access_ended', { planType: 'quarterly' }, 'Your Acme Charts access has ended', 'https://shop.example.com/#pricing'],
    ['comp_ending', { endsAt: '2026-03-04T00:00:00.000Z' }, 'Your complimentary Acme Charts access ends on March 3, 2026', 'https://shop.example.com/#pricing'],
    ['comp_ended', { endedAt: '2026-03-04T00:00:00.000Z' }, 'Your complimentary Acme Charts access has ended', 'https://shop.example.com/#pricing'],
    ['plan_changed', { from: 'monthly', to: 'yearly' }, 'Your Acme Charts plan changed to Yearly', 'https://shop.example.com/dashboard/settings?section=subscription'],
    ['trial_ending', { planType: 'monthly', endsAt: '2026-03-08T12:00:00.000Z', amount: 3600, currency: 'usd' }, 'Your Acme Charts free trial ends on March 8, 2026', 'https://shop.example.com/dashboard/settings?section=subscription'],
    ['trial_refused', { planType: 'monthly', reason: 'card', amount: 3600, currency: 'usd' }, 'Your Acme Charts free trial was not available', 'https://shop.example.com/dashboard/settings?section=subscription'],
  ] as const)('%s: subject, link from PUBLIC_URL, text and HTML', async (template, data, subject, link) => {
    const mail = await renderMail(template, data as never, context, at);
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('Acme Charts');
    expect(mail.text).toContain('help@shop.example.com');
  });

  it('writes the receipt facts, and "lifetime" instead of a renewal date', async () => {
    const yearly = await renderMail('receipt', { planType: 'yearly', amount: 20400, currency: 'eur', renewsAt: '2027-03-01T12:00:00.000Z' }, context, at);
    expect(yearly.text).toContain('Amount: €204.00 (EUR)');
    expect(yearly.text).toContain('Renews on: March 1, 2027');
    const lifetime = await renderMail('receipt', { planType: 'lifetime', amount: 54999, currency: 'usd', renewsAt: null }, context, at);
    expect(lifetime.text).toContain('Access: lifetime');
  });

  it('a trial receipt says nothing is paid today and what is charged when; the refusal says why', async () => {
    const receipt = await renderMail('receipt', { planType: 'monthly', amount: 0, currency: 'usd', renewsAt: '2026-03-08T12:00:00.000Z', trial: { endsAt: '2026-03-08T12:00:00.000Z', amount: 3600 } }, context, at);
    expect(receipt.subject).toBe('Your Acme Charts receipt — Monthly free trial');
    expect(receipt.text).toContain('Amount: $0.00 (USD)');
    expect(receipt.text).toContain('Your free trial runs until March 8, 2026. Then $36.00 is charged');
    const refused = await renderMail('trial_refused', { planType: 'monthly', reason: 'tradingview_username', amount: 3600, currency: 'usd' }, context, at);
    expect(refused.text).toContain('This TradingView username already had a free trial.');
    expect(refused.text).toContain('$36.00 was charged');
  });

  it('tells a member whose TradingView access is active where to connect Discord for the VIP roles', async () => {
    const mail = await renderMail('tradingview_active', { username: 'chart_wizard' }, context, at);
    expect(mail.text).toContain('connect your Discord account at https://shop.example.com/dashboard/discord');
  });

  // #44: the template named Discord; each community's step is now its integration's, and only the ones offered here are named
  it('names each community a member can link here, as its integration words its step, and no other', async () => {
    const active = (offeredSteps: () => readonly string[]) => renderMail('tradingview_active', { username: 'chart_wizard' }, { ...context, offeredSteps }, at);
    const discord = 'Your plan includes the VIP Discord: connect your Discord account at https://shop.example.com/dashboard/discord and the member roles are given to you automatically.';
    const telegram = 'Your plan includes the members’ Telegram chats: connect your Telegram account at https://shop.example.com/dashboard/discord and you are invited to the chats automatically.';
    const both = await active(() => ['discord', 'telegram']);
    for (const body of [both.text, both.html]) {
      expect(body).toContain(discord);
      expect(body).toContain(telegram);
    }
    expect(both.text.indexOf(discord)).toBeLessThan(both.text.indexOf(telegram));
    const telegramOnly = await active(() => ['telegram']);
    expect(telegramOnly.text).toContain(telegram);
    expect(telegramOnly.text).not.toContain('Discord');
    const none = await active(() => []);
    expect(none.text).not.toMatch(/Discord|Telegram|connect your/);
    expect(none.text).toContain('Select the indicators.');
  });

  it('says "Reactivate {plan}" when access ended', async () => {
    expect((await renderMail('access_ended', { planType: 'euMonthly' }, context, at)).text).toContain('Reactivate Monthly');
  });

  // Comp access is stored as a canceled monthly row: its mails once told the member their Monthly plan was canceled.
  it.each([
    ['comp_ending', { endsAt: '2026-03-04T00:00:00.000Z' }, 'lasts until the end of March 3, 2026 (UTC)'],
    ['comp_ended', { endedAt: '2026-03-04T00:00:00.000Z' }, 'ended after March 3, 2026'],
  ] as const)('%s speaks of complimentary access, never of a plan that was bought, canceled or renews', async (template, data, phrase) => {
    const mail = await renderMail(template, data as never, context, at);
    expect(mail.text).toContain('complimentary access');
    expect(mail.text).toContain(phrase);
    for (const written of [mail.subject, mail.text, mail.html]) {
      expect(written).not.toMatch(/monthly|cancel|renew|resume|reactivate|manage subscription/i);
    }
  });
});

/** A sender that fails the first `failures` calls, then records what it sends. */
function flakySender(failures: number, error: () => Error = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })) {
  const sent: Mail[] = [];
  let calls = 0;
  const port: MailPort = {
    kind: 'smtp',
    send: async (mail) => {
      calls += 1;
      if (calls <= failures) throw error();
      sent.push(mail);
    },
  };
  return { port, sent, calls: () => calls };
}

const reset = (to: string, dedupeKey: string | null = null): MailIntent => ({ template: 'password_reset', to, data: { url: `https://shop.example.com/reset-password?token=${to}` }, dedupeKey });

describe('the outbox and its worker', () => {
  let database: Database;
  let now: Date;
  const clock = () => now;
  const silent = createLogger('silent');
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.db.delete(outbox);
    now = new Date();
  });
  const state = async (to: string) => (await listOutboxMails(database.db, { to }))[0];

  it('writes one mail per dedupe key, however often the event is told', async () => {
    expect(await enqueueMail(database.db, reset('ada@example.com', 'k1'))).toBe(true);
    expect(await enqueueMail(database.db, reset('ada@example.com', 'k1'))).toBe(false);
    await Promise.all([1, 2, 3].map(() => enqueueMail(database.db, reset('ada@example.com', 'k1'))));
    expect(await listOutboxMails(database.db, { to: 'ada@example.com' })).toHaveLength(1);
    // mails without a key (two reset requests) are two mails
    await enqueueMail(database.db, reset('bob@example.com'));
    await enqueueMail(database.db, reset('bob@example.com'));
    expect(await listOutboxMails(database.db, { to: 'bob@example.com' })).toHaveLength(2);
  });

  it('a mail written in a transaction that rolls back is never sent', async () => {
    await database.db
      .transaction(async (tx) => {
        await enqueueMail(tx, reset('ghost@example.com', 'rolled-back'));
        throw new Error('the event failed');
      })
      .catch(() => undefined);
    expect(await listOutboxMails(database.db, { to: 'ghost@example.com' })).toEqual([]);
  });

  it('retries an SMTP failure with exponential back-off, shows it failing with the error, then sends it once', async () => {
    const sender = flakySender(2);
    const mailer = createMailer({ db: database.db, sender: sender.port, context, logger: silent, clock });
    await enqueueMail(database.db, reset('retry@example.com', 'retry'));

    expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(await state('retry@example.com')).toMatchObject({ status: 'failing', attempts: 1, lastError: 'connect ECONNREFUSED', nextAttemptAt: new Date(now.getTime() + mailRetryDelayMs(1)) });
    // not due yet: nothing is tried
    expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 0 });

    now = new Date(now.getTime() + mailRetryDelayMs(1));
    expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(await state('retry@example.com')).toMatchObject({ status: 'failing', attempts: 2, nextAttemptAt: new Date(now.getTime() + mailRetryDelayMs(2)) });
    expect(mailRetryDelayMs(2)).toBe(2 * mailRetryDelayMs(1));

    now = new Date(now.getTime() + mailRetryDelayMs(2));
    expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(await state('retry@example.com')).toMatchObject({ status: 'sent', attempts: 3, lastError: null, subject: 'Reset your Acme Charts password' });
    expect(sender.sent.map((mail) => mail.to)).toEqual(['retry@example.com']);
    expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 0 });
  });

  it('gives up at once on a permanent refusal, and after the last attempt otherwise', async () => {
    const refused = flakySender(1, () => Object.assign(new Error('550 no such user'), { responseCode: 550 }));
    await enqueueMail(database.db, reset('nobody@example.com', 'refused'));
    await createMailer({ db: database.db, sender: refused.port, context, logger: silent, clock }).runOnce();
    expect(await state('nobody@example.com')).toMatchObject({ status: 'failed', attempts: 1, lastError: '550 no such user' });

    const down = flakySender(Number.POSITIVE_INFINITY);
    const mailer = createMailer({ db: database.db, sender: down.port, context, logger: silent, clock });
    await enqueueMail(database.db, reset('down@example.com', 'down'));
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      await mailer.runOnce();
      now = new Date(now.getTime() + mailRetryDelayMs(attempt));
    }
    expect(await state('down@example.com')).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(down.calls()).toBe(MAIL_MAX_ATTEMPTS);
  });

  it('takes back a mail whose sender crashed mid-send within a minute, once its lease lapses', async () => {
    await enqueueMail(database.db, reset('crash@example.com', 'crash'));
    const [claimed] = await claimDueMails(database.db, now, MAIL_LEASE_MS, 10);
    expect(claimed).toMatchObject({ status: 'sending', attempts: 1 });
    const sender = flakySender(0);
    const mailer = createMailer({ db: database.db, sender: sender.port, context, logger: silent, clock });
    expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 0 });
    now = new Date(now.getTime() + 60_000);
    expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(await state('crash@example.com')).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('two workers on one database send each mail once', async () => {
    const count = 30;
    for (let index = 0; index < count; index += 1) await enqueueMail(database.db, reset(`fleet-${index}@example.com`, `fleet-${index}`));
    const first = flakySender(0);
    const second = flakySender(0);
    const slow = (port: MailPort): MailPort => ({ ...port, send: async (mail) => port.send(await new Promise<Mail>((resolve) => setImmediate(() => resolve(mail)))) });
    const workers = [first, second].map((sender) => createMailer({ db: database.db, sender: slow(sender.port), context, logger: silent, clock }));
    await Promise.all([workers[0]!.runOnce(), workers[1]!.runOnce(), workers[0]!.runOnce(), workers[1]!.runOnce()]);
    const sent = [...first.sent, ...second.sent].map((mail) => mail.to).sort();
    expect(sent).toHaveLength(count);
    expect(new Set(sent).size).toBe(count);
    const rows = await database.db.select({ attempts: outbox.attempts, status: outbox.status }).from(outbox);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('an SMTP failure never fails the request that caused the mail', async () => {
    const broken: MailPort = { kind: 'smtp', send: async () => Promise.reject(new Error('smtp down')) };
    const t = await createTestApp({}, { mail: broken });
    try {
      await signUp(t, 'member@example.com');
      const response = await t.request('/api/auth/request-password-reset', { body: { email: 'member@example.com' } });
      expect(response.status).toBe(200);
      await vi.waitFor(async () => expect(await listOutboxMails(t.deps.database.db, { to: 'member@example.com' })).toEqual([expect.objectContaining({ status: 'failing', lastError: 'smtp down', attempts: 1 })]));
    } finally {
      await t.close();
    }
  });
});

describe('the sandbox sender', () => {
  it('logs the links of each mail it delivers, in development only', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const sender = createOutboxMail(pino({ level: 'info' }, sink), { logLinks: true });
    expect(sender.kind).toBe('outbox');
    await sender.send({ to: 'ada@example.com', subject: 's', text: 'Open http://localhost:3000/reset-password?token=tok123 now', html: '' });
    const logged = lines.map((line) => JSON.parse(line) as { links?: string[]; to?: string });
    expect(logged.some((entry) => entry.to === 'ada@example.com' && entry.links?.includes('http://localhost:3000/reset-password?token=tok123'))).toBe(true);

    lines.length = 0;
    const quiet = createOutboxMail(pino({ level: 'info' }, sink), { logLinks: false });
    await quiet.send({ to: 'bob@example.com', subject: 's', text: 'Open http://localhost:3000/reset-password?token=tok456 now', html: '' });
    expect(lines.join('')).toContain('bob@example.com');
    expect(lines.join('')).not.toContain('tok456');
  });
});

describe('the SMTP sender against a real SMTP conversation', () => {
  let server: Server;
  let port = 0;
  const received: string[] = [];
  let refuseNext = 0;

  beforeAll(async () => {
    // The smallest SMTP server: accepts messages, or answers 421 (try later) to the next `refuseNext` MAIL FROMs.
    server = createServer((socket) => {
      let inData = false;
      let data = '';
      // a line may arrive split across chunks: only whole lines are read
      let pending = '';
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk) => {
        const lines = (pending + String(chunk)).split('\r\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (inData) {
            if (line === '.') {
              inData = false;
              received.push(data);
              data = '';
              socket.write('250 queued\r\n');
            } else data += `${line}\n`;
            continue;
          }
          if (!line) continue;
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
          else if (verb === 'MAIL' && refuseNext > 0) {
            refuseNext -= 1;
            socket.write('421 try again later\r\n');
          } else if (verb === 'DATA') {
            inData = true;
            socket.write('354 go ahead\r\n');
          } else if (verb === 'QUIT') socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('the worker retries a 421 and then delivers the mail with both bodies and the configured sender', async () => {
    const database = await createTestDatabase();
    try {
      let now = new Date();
      const smtp = createSmtpMail(`smtp://127.0.0.1:${port}`, 'Candlewise <support@candlewise.app>');
      const mailer = createMailer({ db: database.db, sender: smtp, context, logger: createLogger('silent'), clock: () => now });
      refuseNext = 1;
      await enqueueMail(database.db, reset('ada@example.com', 'smtp'));
      expect(await mailer.runOnce()).toEqual({ sent: 0, failed: 1 });
      expect((await listOutboxMails(database.db))[0]).toMatchObject({ status: 'failing', lastError: expect.stringContaining('421') });
      now = new Date(now.getTime() + mailRetryDelayMs(1));
      expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(received).toHaveLength(1);
      const raw = received[0]!;
      expect(raw).toMatch(/^From: Candlewise <support@candlewise\.app>/m);
      expect(raw).toMatch(/^To: ada@example\.com/m);
      expect(raw).toContain('Content-Type: text/plain');
      expect(raw).toContain('Content-Type: text/html');
    } finally {
      await database.close();
    }
  });

  it('sends the member mails with the one-click unsubscribe headers (RFC 8058), and other mails without them', async () => {
    const database = await createTestDatabase();
    try {
      const smtp = createSmtpMail(`smtp://127.0.0.1:${port}`, 'Candlewise <support@candlewise.app>');
      const mailer = createMailer({ db: database.db, sender: smtp, context, logger: createLogger('silent'), clock: () => new Date() });
      received.length = 0;
      await enqueueMail(database.db, { template: 'winback', to: 'gone@example.com', data: { code: 'BACK20', offer: '20% off on the first payment', unsubscribe: 'u1.winback.sig' }, dedupeKey: null });
      expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
      await enqueueMail(database.db, { template: 'setup_reminder', to: 'new@example.com', data: { step: 'discord', reminder: 1, unsubscribe: 'u2.setup_discord.sig' }, dedupeKey: null });
      expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
      await enqueueMail(database.db, reset('ada@example.com'));
      expect(await mailer.runOnce()).toEqual({ sent: 1, failed: 0 });
      const [winback, reminder, resetMail] = received;
      // nodemailer folds the long header onto a second line, as RFC 5322 allows
      expect(winback).toMatch(/^List-Unsubscribe:\s+<https:\/\/shop\.example\.com\/mail\/unsubscribe\/u1\.winback\.sig>\r?$/m);
      expect(winback).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(reminder).toMatch(/^List-Unsubscribe:\s+<https:\/\/shop\.example\.com\/mail\/unsubscribe\/u2\.setup_discord\.sig>\r?$/m);
      expect(reminder).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(resetMail).not.toContain('List-Unsubscribe');
    } finally {
      await database.close();
    }
  });
});

describe('the sandbox mailbox route', () => {
  it('lists the delivered mails of the outbox with their HTML and text', async () => {
    const t: TestApp = await createTestApp();
    try {
      await enqueueMail(t.deps.database.db, reset('ada@example.com'));
      expect((await (await t.request('/api/sandbox/mailbox')).json()).mails).toEqual([]);
      await t.deps.mailer.runOnce();
      const response = await t.request('/api/sandbox/mailbox');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { mails: { to: string; subject: string; text: string; html: string; createdAt: string }[] };
      expect(body.mails).toHaveLength(1);
      expect(body.mails[0]).toMatchObject({ to: 'ada@example.com', subject: 'Reset your Candlewise password' });
      expect(body.mails[0]!.html).toContain('<html');
      expect(body.mails[0]!.text).toContain('https://shop.example.com/reset-password?token=ada@example.com');
      expect(Number.isNaN(Date.parse(body.mails[0]!.createdAt))).toBe(false);
      const [row] = await t.deps.database.db.select().from(outbox).where(eq(outbox.to, 'ada@example.com'));
      expect(row?.status).toBe('sent');
    } finally {
      await t.close();
    }
  });

  it("narrows to one recipient's mails with ?to=, and refuses an over-long recipient", async () => {
    const t: TestApp = await createTestApp();
    try {
      await enqueueMail(t.deps.database.db, reset('ada@example.com'));
      await enqueueMail(t.deps.database.db, reset('bob@example.com'));
      await t.deps.mailer.runOnce();
      const recipients = async (query: string) => ((await (await t.request(`/api/sandbox/mailbox${query}`)).json()) as { mails: { to: string }[] }).mails.map((mail) => mail.to);
      expect((await recipients('')).sort()).toEqual(['ada@example.com', 'bob@example.com']);
      expect(await recipients('?to=%20Bob@Example.com%20')).toEqual(['bob@example.com']);
      expect(await recipients('?to=carol@example.com')).toEqual([]);
      const tooLong = await t.request(`/api/sandbox/mailbox?to=${'a'.repeat(321)}`);
      expect(tooLong.status).toBe(400);
      expect(((await tooLong.json()) as { error: { message: string } }).error.message).toContain('The recipient is at most 320 characters.');
    } finally {
      await t.close();
    }
  });

  it('does not exist when SMTP is configured', async () => {
    const database = await createTestDatabase();
    try {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SMTP_URL: 'smtp://mail.example.com:587' });
      const deps = await buildDependencies(config, database, createLogger('silent'), { secret: 'test-secret-test-secret-test-secret-1234' });
      expect(deps.mail.kind).toBe('smtp');
      const app = await createApp(compose(deps));
      const response = await app.request('/api/sandbox/mailbox');
      expect(response.status).toBe(404);
      const settings = (await (await app.request('/api/site')).json()) as { sandbox: string[] };
      expect(settings.sandbox).not.toContain('mail');
    } finally {
      await database.close();
    }
  });
});
