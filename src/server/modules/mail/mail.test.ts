import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadConfig } from '../../config';
import { buildDependencies } from '../../dependencies';
import { createLogger } from '../../logger';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase } from '../../test/test-database';
import type { Database } from '../../db/client';
import { passwordResetMail, verifyEmailMail } from './mail-templates';
import { createOutboxMail, listOutbox } from './outbox-mail';
import { createSmtpMail, isTransientSmtpError, type SmtpTransport } from './smtp-mail';

describe('mail templates', () => {
  const mail = passwordResetMail('Acme Charts', 'ada@example.com', 'https://shop.example.com/reset-password?token=abc&x=<1>');

  it('writes the reset mail with both bodies, the brand, the link and its 10-minute lifetime', () => {
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Reset your Acme Charts password');
    expect(mail.text).toContain('https://shop.example.com/reset-password?token=abc&x=<1>');
    expect(mail.text).toContain('expires in 10 minutes');
    expect(mail.text).toContain('Acme Charts');
    expect(mail.html).toContain('Acme Charts');
    expect(mail.html).toContain('expires in 10 minutes');
  });

  it('escapes what it puts into the HTML body', () => {
    expect(mail.html).toContain('href="https://shop.example.com/reset-password?token=abc&amp;x=&lt;1&gt;"');
    expect(mail.html).not.toContain('<1>');
    expect(passwordResetMail('<b>Brand</b>', 'a@b.co', 'https://x.y').html).not.toContain('<b>Brand</b>');
  });

  it('writes the confirmation mail', () => {
    const confirm = verifyEmailMail('Acme Charts', 'ada@example.com', 'https://shop.example.com/api/auth/verify-email?token=t');
    expect(confirm.subject).toContain('Acme Charts');
    expect(confirm.text).toContain('https://shop.example.com/api/auth/verify-email?token=t');
    expect(confirm.html).toContain('Confirm e-mail');
  });
});

describe('the outbox (sandbox) mail adapter', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('stores each mail for the mailbox page and logs its links', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const outbox = createOutboxMail(database.db, pino({ level: 'info' }, sink));
    expect(outbox.kind).toBe('outbox');
    await outbox.send(passwordResetMail('Candlewise', 'ada@example.com', 'http://localhost:3000/reset-password?token=tok123'));

    const [stored] = await listOutbox(database.db);
    expect(stored).toMatchObject({ to: 'ada@example.com', subject: 'Reset your Candlewise password' });
    expect(stored?.html).toContain('<html>');
    const logged = lines.map((line) => JSON.parse(line) as { links?: string[]; to?: string });
    expect(logged.some((entry) => entry.to === 'ada@example.com' && entry.links?.includes('http://localhost:3000/reset-password?token=tok123'))).toBe(true);
  });
});

describe('the SMTP mail adapter', () => {
  const message = { to: 'ada@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
  const failure = (fields: { code?: string; responseCode?: number }) => Object.assign(new Error('smtp'), fields);

  it('tells temporary failures from permanent ones', () => {
    expect(isTransientSmtpError(failure({ code: 'ECONNECTION' }))).toBe(true);
    expect(isTransientSmtpError(failure({ code: 'ETIMEDOUT' }))).toBe(true);
    expect(isTransientSmtpError(failure({ code: 'EENVELOPE', responseCode: 451 }))).toBe(true);
    expect(isTransientSmtpError(failure({ code: 'EENVELOPE', responseCode: 550 }))).toBe(false);
    expect(isTransientSmtpError(failure({ code: 'EAUTH', responseCode: 535 }))).toBe(false);
    expect(isTransientSmtpError(new Error('boom'))).toBe(false);
  });

  it('tries a temporary failure again, up to three attempts, waiting longer each time', async () => {
    const waits: number[] = [];
    let calls = 0;
    const transport: SmtpTransport = {
      sendMail: async () => {
        calls += 1;
        if (calls < 3) throw failure({ code: 'ECONNECTION' });
      },
    };
    const smtp = createSmtpMail('smtp://unused', 'Shop <shop@example.com>', { transport, sleep: async (ms) => void waits.push(ms) });
    await smtp.send(message);
    expect(calls).toBe(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after three temporary failures and at once on a permanent one', async () => {
    let calls = 0;
    const flaky: SmtpTransport = {
      sendMail: async () => {
        calls += 1;
        throw failure({ code: 'ETIMEDOUT' });
      },
    };
    await expect(createSmtpMail('smtp://unused', 'x@example.com', { transport: flaky, sleep: async () => undefined }).send(message)).rejects.toThrow();
    expect(calls).toBe(3);

    calls = 0;
    const refusing: SmtpTransport = {
      sendMail: async () => {
        calls += 1;
        throw failure({ code: 'EENVELOPE', responseCode: 550 });
      },
    };
    await expect(createSmtpMail('smtp://unused', 'x@example.com', { transport: refusing, sleep: async () => undefined }).send(message)).rejects.toThrow();
    expect(calls).toBe(1);
  });

  describe('against a real SMTP conversation', () => {
    let server: Server;
    let port = 0;
    const received: string[] = [];

    beforeAll(async () => {
      // The smallest SMTP server that accepts one message: enough to prove the nodemailer wiring.
      server = createServer((socket) => {
        let inData = false;
        let data = '';
        socket.write('220 test ESMTP\r\n');
        socket.on('data', (chunk) => {
          for (const line of String(chunk).split('\r\n')) {
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
            else if (verb === 'DATA') {
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

    it('delivers the mail with both bodies and the configured sender', async () => {
      const smtp = createSmtpMail(`smtp://127.0.0.1:${port}`, 'Candlewise <support@candlewise.app>');
      await smtp.send(passwordResetMail('Candlewise', 'ada@example.com', 'https://shop.example.com/reset-password?token=abc'));
      expect(received).toHaveLength(1);
      const raw = received[0]!;
      expect(raw).toMatch(/^From: Candlewise <support@candlewise\.app>/m);
      expect(raw).toMatch(/^To: ada@example\.com/m);
      expect(raw).toContain('Content-Type: text/plain');
      expect(raw).toContain('Content-Type: text/html');
    });
  });
});

describe('the sandbox mailbox route', () => {
  it('lists the outbox while the outbox is the mail adapter', async () => {
    const t: TestApp = await createTestApp();
    try {
      const outbox = createOutboxMail(t.deps.database.db, createLogger('silent'));
      await outbox.send(passwordResetMail('Candlewise', 'ada@example.com', 'http://localhost:3000/reset-password?token=t1'));
      const response = await t.request('/api/sandbox/mailbox');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { mails: { to: string; subject: string; text: string; html: string; createdAt: string }[] };
      expect(body.mails).toHaveLength(1);
      expect(body.mails[0]).toMatchObject({ to: 'ada@example.com', subject: 'Reset your Candlewise password' });
      expect(Number.isNaN(Date.parse(body.mails[0]!.createdAt))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('does not exist when SMTP is configured', async () => {
    const database = await createTestDatabase();
    try {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SMTP_URL: 'smtp://mail.example.com:587' });
      const deps = buildDependencies(config, database, createLogger('silent'), { secret: 'test-secret-test-secret-test-secret-1234' });
      expect(deps.mail.kind).toBe('smtp');
      const app = await createApp(deps);
      const response = await app.request('/api/sandbox/mailbox');
      expect(response.status).toBe(404);
      const settings = (await (await app.request('/api/site')).json()) as { sandbox: string[] };
      expect(settings.sandbox).not.toContain('mail');
    } finally {
      await database.close();
    }
  });
});
