import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { checkoutBody } from '../test-support/billing-test-kit';
import { startCuttableProxy, type CuttableProxy } from '../test-support/cuttable-tcp-proxy';
import { adminQuery, runDatabaseName, withDatabase } from '../test-support/global-setup';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { enqueueMail } from '../modules/mail/outbox.repository';
import { openDatabase } from './client';

// The shop on a Postgres server that restarts under it (a proxy cuts every connection and refuses
// new ones, as a fast shutdown does): no crash, a clear 503 meanwhile, and everything going on once
// the server is back. Only on the Postgres pass: the embedded engine cannot go away by itself.
const target = inject('testDatabase');
let proxy: CuttableProxy;
let t: TestApp;

beforeAll(async () => {
  if (target.kind !== 'postgres') throw new Error('this suite needs the Postgres server pass (TEST_DATABASE_URL)');
  const name = runDatabaseName(target.template, 'outage');
  await adminQuery(target.url, `CREATE DATABASE ${name} TEMPLATE ${target.template}`);
  const server = new URL(target.url);
  proxy = await startCuttableProxy({ host: server.hostname, port: Number(server.port || 5432) });
  const proxied = new URL(withDatabase(target.url, name));
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  t = await createTestApp({}, { database: await openDatabase({ kind: 'postgres', url: proxied.toString() }) });
});
afterAll(async () => {
  await t?.deps.mailer.stop();
  // a connection a request left checked out would hold this for ever
  await t?.close();
  await proxy?.close();
});

const checkout = () => t.request('/api/create-checkout', { body: checkoutBody() });

describe('a database server that restarts under the shop', () => {
  it('fails a transaction whose connection is cut between its statements, and the process goes on', async () => {
    const transaction = t.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      // the connection is checked out of the pool here: its loss once ended the process
      proxy.cut();
      await tx.execute(sql`SELECT 1`);
    });
    await expect(transaction).rejects.toThrow();
    await proxy.restore();
    await expect.poll(async () => (await checkout()).status).toBe(200);
  });

  it('answers 503 with Retry-After while the server is away, and serves again once it is back', async () => {
    expect((await checkout()).status).toBe(200);
    proxy.cut();
    const refused = await checkout();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error.code).toBe('database_unavailable');
    expect((await t.request('/readyz')).status).toBe(503);
    await proxy.restore();
    await expect.poll(async () => (await checkout()).status).toBe(200);
    expect((await t.request('/readyz')).status).toBe(200);
  });

  it('sends the mail queued before the outage once the server is back', async () => {
    const to = 'outage@example.com';
    await enqueueMail(t.deps.database.db, { template: 'password_reset', to, data: { url: 'http://localhost:3000/reset-password/token' }, dedupeKey: null });
    proxy.cut();
    await expect(t.deps.mailer.runOnce()).rejects.toThrow();
    await proxy.restore();
    t.deps.mailer.start();
    await expect.poll(() => t.mails.filter((mail) => mail.to === to).length).toBe(1);
  });
});
