// The operator console's API through the whole app: who may call it (one table over every route
// the admin router declares), and what each member action does and leaves in the audit log.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogSchema, memberDetailSchema, memberListSchema, overviewSchema } from '@shared/admin-contract';
import { tradingviewGrants, userSubscriptions } from '../../db/schema';
import { buy } from '../../test-support/billing-test-kit';
import { createTestApp, operatorSession, signUp, type TestApp } from '../../test-support/test-app';
import { userHasPremiumAccess } from '../access/access.repository';
import { addOperator } from '../auth/operators.repository';
import { OPERATOR_COMP_REFUSED } from '@shared/member-actions';
import { DISCORD_CONSOLE_ROUTES } from '../discord/discord-console.routes';
import { TRADINGVIEW_CONSOLE_ROUTES } from '../tradingview/tradingview-console.routes';
import { ADMIN_OPS_ROUTES } from './admin-ops.routes';

const OPERATOR = 'operator@example.com';
let t: TestApp;
let operator: string;
let member: { cookie: string; id: string };

async function account(email: string): Promise<{ cookie: string; id: string }> {
  const cookie = await signUp(t, email);
  const session = (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string } };
  return { cookie, id: session.user.id };
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: `Someone@example.com,${OPERATOR}` });
  operator = (await operatorSession(t, OPERATOR)).cookie;
  member = await account('member@example.com');
});
afterAll(async () => {
  await t.close();
});

describe('authorisation of every operator route', () => {
  // A body for each route that takes one; a new route without an entry here fails the table.
  const bodies: Record<string, unknown> = {
    'POST /api/admin/members/:id/tradingview-username': { username: 'target_trader' },
    // no other member holds it: the transfer moves nothing and says so
    'POST /api/admin/members/:id/tradingview-username/transfer': { username: 'target_trader_two' },
    'POST /api/admin/members/:id/comp': { until: future(30) },
    'POST /api/admin/members/:id/free-days': { days: 7 },
    'POST /api/admin/members/:id/pause-collection': { access: 'keep' },
    'POST /api/admin/operators/invite': { email: 'invited-by-table@example.com' },
    // created before the routes that name it (:code), which follow it in the router
    'POST /api/admin/promotion-codes': { code: 'TABLE10', percentOff: 10 },
    // the sandbox's first script (TRADINGVIEW_SCRIPT_IDS' default)
    // the catalogue's routes act on a plan the table adds first (:slug), and a sale on the EU list (:id)
    'POST /api/admin/catalogue/plans': { slug: 'table-plan', name: 'Table', price: 1000, period: { unit: 'week', count: 1 } },
    'PUT /api/admin/catalogue/plans/:slug': { name: 'Table plan' },
    'PUT /api/admin/catalogue/plans/:slug/price': { price: 1200 },
    // a price list named as the table's plan: the table gives every :slug one value
    'POST /api/admin/catalogue/price-lists': { slug: 'table-plan', currency: 'EUR', header: 'Table prices', entries: [{ plan: 'monthly', price: 2900 }] },
    'PUT /api/admin/catalogue/price-lists/:slug': { currency: 'EUR', header: null, entries: [{ plan: 'monthly', price: 3100 }] },
    'PUT /api/admin/retention/offers': { too_expensive: { kind: 'discount', percentOff: 30, periods: 1 }, not_trading: { kind: 'pause', months: 2 }, missing_features: null, technical_problems: null, switching: null, other: null },
    'PUT /api/admin/catalogue/sales/:id': { label: 'Table sale', startsAt: null, endsAt: null, countdown: false, list: 'eu', prices: [{ plan: 'euMonthly', price: 1999 }] },
    'PUT /api/admin/telegram/chats': { chats: [{ chatId: '-1001000000001', title: 'VIP Signals', everyPlan: true, planSlugs: [] }] },
    'POST /api/admin/tradingview/scripts/plans': { scriptId: 'PUB;candlewise-pro-v2', plans: ['monthly', 'quarterly', 'yearly', 'lifetime', 'euMonthly', 'euQuarterly'] },
  };
  // Every route mounted under /api/admin, read from the app itself: a route added to the admin
  // router (or mounted into it) is in this table without anyone listing it.
  // The TradingView, Discord, payments, alerts and sandbox routes need fixtures of their own: their table is
  // admin-ops.routes.test.ts, over ADMIN_OPS_ROUTES, DISCORD_CONSOLE_ROUTES and TRADINGVIEW_CONSOLE_ROUTES; every other route is in this one.
  const opsRoutes = new Set<string>([...ADMIN_OPS_ROUTES, ...DISCORD_CONSOLE_ROUTES, ...TRADINGVIEW_CONSOLE_ROUTES].map((route) => `${route.method} /api/admin${route.path}`));
  // once each: a route with its OpenAPI description is listed once per handler
  const routes = () =>
    [...new Set(t.app.routes.map(({ method, path }) => `${method} ${path}`))]
      .map((key) => ({ method: key.slice(0, key.indexOf(' ')), path: key.slice(key.indexOf(' ') + 1) }))
      .filter((route) => route.path.startsWith('/api/admin/') && route.method !== 'ALL' && !opsRoutes.has(`${route.method} ${route.path}`));
  let target: string;
  // The support actions need a renewing paid plan (the comp target has none); they run in the
  // router's order on this member: free days, pause, resume, then the ban.
  const supportRoutes = ['free-days', 'pause-collection', 'resume-collection', 'ban'].map((action) => `POST /api/admin/members/:id/${action}`);
  let supportTarget: string;
  let telegramAccount: string;
  // Routes whose pieces (content, affiliates, payouts, price moves) are made by their own suites
  // (content-studio.test.ts, affiliates.sandbox.test.ts, price-moves.test.ts: a move needs members who
  // pay an older price of a plan still sold, and the table archives its plan before it reaches the
  // move): here only their authorisation is asserted.
  const FIXTURES_ELSEWHERE = ['/api/admin/content', '/api/admin/announcements', '/api/admin/affiliates', '/api/admin/catalogue/plans/:slug/move-members'];
  const TELEGRAM_RETRY = 'POST /api/admin/telegram/accounts/:id/retry';

  beforeAll(async () => {
    const payer = await account('support-target@example.com');
    await buy(t, 'support-target@example.com', { planType: 'monthly' }, payer.cookie);
    supportTarget = payer.id;
    // the Telegram retry acts on a linked account: the paying member links one in the sandbox
    const { url } = (await (await t.request('/api/telegram/link', { method: 'POST', cookie: payer.cookie })).json()) as { url: string };
    const token = new URL(url, 'http://shop.test').searchParams.get('start')!;
    await t.request('/api/sandbox/telegram/start', { body: { username: 'table_telegram', token } });
    const telegram = (await (await t.request('/api/admin/telegram', { cookie: operator })).json()) as { accounts: { id: string }[] };
    telegramAccount = telegram.accounts[0]!.id;
    target = (await account('target@example.com')).id;
    // the username correction needs a member with access
    await t.services.entitlements.write((writer) => writer.giveComp(target, new Date(Date.now() + 86_400_000)));
  });

  // One loop of three requests over every console route (15 s quiet): past the project's 60 s
  // bound only on an overloaded machine (93 s at load 28), where it is still one slow test, not a hang.
  it('answers anonymous 401, member 403 and operator 200 (or 201) on every route', { timeout: 180_000 }, async () => {
    const answered: string[] = [];
    for (const { method, path } of routes()) {
      const key = `${method} ${path}`;
      const body = method === 'GET' ? undefined : (bodies[key] ?? {});
      const url = path.replace(':id', key === TELEGRAM_RETRY ? telegramAccount : supportRoutes.includes(key) ? supportTarget : target).replace(':code', 'TABLE10').replace(':slug', 'table-plan');
      expect((await t.request(url, { method, body })).status, key).toBe(401);
      expect((await t.request(url, { method, body, cookie: member.cookie })).status, key).toBe(403);
      const response = await t.request(url, { method, body, cookie: operator });
      if (FIXTURES_ELSEWHERE.some((prefix) => path.startsWith(prefix)) && !(key in bodies)) {
        // past the operator check; what the route does with real pieces is its own suite's
        expect(response.status, `${key}: ${await response.clone().text()}`).not.toBeOneOf([401, 403]);
        expect(response.status, key).toBeLessThan(500);
      } else {
        // 201 where the route creates something (a promotion code)
        expect([200, 201], `${key}: ${await response.clone().text()}`).toContain(response.status);
      }
      answered.push(key);
    }
    expect(answered).toEqual(
      expect.arrayContaining([
        'GET /api/admin/overview',
        'GET /api/admin/members/:id',
        'POST /api/admin/members/:id/comp',
        'GET /api/admin/audit-log',
        // the retention numbers and the CSV downloads (#47)
        'GET /api/admin/retention/report',
        ...['members', 'orders', 'churn-reasons', 'audit-log'].map((file) => `GET /api/admin/exports/${file}.csv`),
      ]),
    );
  });
});

describe('the console', () => {
  it('answers any path under /api/admin alike, so a member cannot map the console', async () => {
    expect((await t.request('/api/admin/no-such-page', { cookie: member.cookie })).status).toBe(403);
    expect((await t.request('/api/admin/no-such-page')).status).toBe(401);
  });

  it('tells the signed-in user whether they are an operator, and visitors nothing', async () => {
    expect((await t.request('/api/operator')).status).toBe(401);
    expect(await (await t.request('/api/operator', { cookie: member.cookie })).json()).toEqual({ operator: false, standing: 'member' });
    expect(await (await t.request('/api/operator', { cookie: operator })).json()).toEqual({ operator: true, standing: 'operator' });
  });

  it('lets in an operator stored in the database once their account has proven its e-mail', async () => {
    const stored = await account('stored-operator@example.com');
    expect((await t.request('/api/admin/overview', { cookie: stored.cookie })).status).toBe(403);
    expect(await (await t.request('/api/operator', { cookie: stored.cookie })).json()).toEqual({ operator: false, standing: 'member' });
    await addOperator(t.deps.database.db, 'Stored-Operator@example.com', 'test');
    // named, but anyone could have signed up with that address
    expect((await t.request('/api/admin/overview', { cookie: stored.cookie })).status).toBe(403);
    expect(await (await t.request('/api/operator', { cookie: stored.cookie })).json()).toEqual({ operator: false, standing: 'confirm_email' });
    const proven = await operatorSession(t, 'stored-operator@example.com', { password: 'N3w-password!' });
    expect((await t.request('/api/admin/overview', { cookie: proven.cookie })).status).toBe(200);
    expect(await (await t.request('/api/operator', { cookie: proven.cookie })).json()).toEqual({ operator: true, standing: 'operator' });
  });

  it('invites an operator by mail: the link sets the password, names them, and works once', async () => {
    const response = await t.request('/api/admin/operators/invite', { cookie: operator, body: { email: 'New-Colleague@example.com' } });
    expect(await response.json()).toEqual({ message: 'Invitation sent to new-colleague@example.com.' });
    // the send the invitation started may still be under way: pass over the outbox until it is out
    const invitation = () => t.mails.findLast((sent) => sent.to === 'new-colleague@example.com');
    await expect.poll(async () => (await t.deps.mailer.runOnce(), invitation()), { timeout: 45_000 }).toBeDefined();
    const mail = invitation();
    expect(mail?.subject).toMatch(/invited to operate/);
    const link = /https?:\/\/\S+\/operator-invitation\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
    const token = new URL(link!).searchParams.get('token');

    const view = await t.request(`/api/operator-invitations/${token}`);
    expect(await view.json()).toMatchObject({ email: 'new-colleague@example.com', accountExists: false });
    // (#46) a weak password is refused naming only the rules it does not meet, and the link stays usable
    const weak = await t.request('/api/operator-invitations/accept', { body: { token, password: 'colleague' } });
    expect(weak.status).toBe(400);
    expect(JSON.stringify(await weak.json())).toContain('Password needs an uppercase letter and a number.');
    const accepted = await t.request('/api/operator-invitations/accept', { body: { token, password: 'Colleague-1' } });
    expect(await accepted.clone().json()).toEqual({ email: 'new-colleague@example.com', signedIn: true });
    const cookie = accepted.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
    expect((await t.request('/api/admin/overview', { cookie })).status).toBe(200);

    expect((await t.request('/api/operator-invitations/accept', { body: { token, password: 'Another-1' } })).status).toBe(404);
    expect((await t.request(`/api/operator-invitations/${token}`)).status).toBe(404);
    const list = (await (await t.request('/api/admin/operators', { cookie: operator })).json()) as { operators: { email: string; namedBy: string; account: unknown }[] };
    expect(list.operators).toContainEqual({ email: 'new-colleague@example.com', namedBy: OPERATOR, account: { emailVerified: true, twoFactorEnabled: false } });
  });

  it('answers a malformed member id or an unknown member with 404, a bad date with 400', async () => {
    expect((await t.request('/api/admin/members/not-a-uuid', { cookie: operator })).status).toBe(404);
    expect((await t.request('/api/admin/members/00000000-0000-4000-8000-000000000000', { cookie: operator })).status).toBe(404);
    expect((await t.request(`/api/admin/members/${member.id}/comp`, { cookie: operator, body: { until: 'soon' } })).status).toBe(400);
    expect((await t.request(`/api/admin/members/${member.id}/comp`, { cookie: operator, body: { until: '2001-01-01' } })).status).toBe(400);
    expect((await t.request('/api/admin/members?page=0', { cookie: operator })).status).toBe(400);
  });

  it('refuses comp access to an operator, and marks an operator on the member page (#46)', async () => {
    const list = memberListSchema.parse(await (await t.request(`/api/admin/members?q=${encodeURIComponent(OPERATOR)}`, { cookie: operator })).json());
    const self = list.members.find((row) => row.email === OPERATOR)!;
    expect(self.isOperator).toBe(true);
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${self.id}`, { cookie: operator })).json());
    expect(detail.account.isOperator).toBe(true);
    const refused = await t.request(`/api/admin/members/${self.id}/comp`, { cookie: operator, body: { until: future(30) } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(OPERATOR_COMP_REFUSED);
    expect(memberDetailSchema.parse(await (await t.request(`/api/admin/members/${member.id}`, { cookie: operator })).json()).account.isOperator).toBe(false);
  });

  it('grants comp access: the member gets access and a TradingView grant, reports show comp, the audit log says who', async () => {
    const comped = await account('comped@example.com');
    const db = t.deps.database.db;
    expect(await userHasPremiumAccess(db, comped.id)).toBe(false);
    const until = future(14);

    const response = await t.request(`/api/admin/members/${comped.id}/comp`, { cookie: operator, body: { until } });
    expect(response.status).toBe(200);
    expect((await response.json()).message).toContain(until);
    expect(await userHasPremiumAccess(db, comped.id)).toBe(true);

    // the member can now set a username and the reconciler grants it until the comp's end
    expect((await t.request('/api/tradingview/activate', { cookie: comped.cookie, body: { tv_username: 'comp_trader' } })).status).toBe(200);
    const [grant] = await db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, comped.id));
    expect(grant).toMatchObject({ username: 'comp_trader', desired: 'grant' });
    expect(grant?.desiredExpiresAt?.toISOString().slice(0, 10)).toBe(future(15));

    const found = memberListSchema.parse(await (await t.request('/api/admin/members?q=COMP_TRADER', { cookie: operator })).json());
    expect(found.members).toEqual([expect.objectContaining({ id: comped.id, status: 'comp', plan: 'comp', tradingviewUsername: 'comp_trader', isOperator: false })]);
    // (#46) operators are marked in the member list
    const operators = memberListSchema.parse(await (await t.request(`/api/admin/members?q=${OPERATOR}`, { cookie: operator })).json());
    expect(operators.members.find((row) => row.email === OPERATOR)).toMatchObject({ isOperator: true });
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${comped.id}`, { cookie: operator })).json());
    expect(detail.subscriptions).toEqual([expect.objectContaining({ plan: 'comp', provider: 'comp', isActive: true })]);
    expect(detail.grants[0]).toMatchObject({ username: 'comp_trader', desired: 'grant' });
    const overview = overviewSchema.parse(await (await t.request('/api/admin/overview', { cookie: operator })).json());
    expect(overview.activeMembers).toContainEqual({ plan: 'comp', members: expect.any(Number) });
    expect(overview.mrr).toEqual([]);

    // comp access does not count as a plan already held: the member may still pay for monthly
    const checkout = await t.request('/api/create-checkout', {
      cookie: comped.cookie,
      body: { planType: 'monthly', customerEmail: 'comped@example.com', fbc: null, fbp: null, userAgent: null, originPage: '/' },
    });
    expect(checkout.status, await checkout.clone().text()).toBe(200);

    const log = auditLogSchema.parse(await (await t.request('/api/admin/audit-log', { cookie: operator })).json());
    expect(log.entries[0]).toMatchObject({ operatorEmail: OPERATOR, action: 'grant_comp', targetUserId: comped.id, targetEmail: 'comped@example.com', details: { until } });
  });

  it('revokes access: no row gives access any more, the grant is set to revoke, the audit log records it', async () => {
    const revoked = await account('revoked@example.com');
    const db = t.deps.database.db;
    await t.request(`/api/admin/members/${revoked.id}/comp`, { cookie: operator, body: { until: future(30) } });
    await t.request('/api/tradingview/activate', { cookie: revoked.cookie, body: { tv_username: 'revoked_trader' } });

    const response = await t.request(`/api/admin/members/${revoked.id}/revoke`, { cookie: operator, body: {} });
    expect(response.status).toBe(200);
    expect(await userHasPremiumAccess(db, revoked.id)).toBe(false);
    const rows = await db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, revoked.id));
    expect(rows.map((row) => [row.isActive, row.revokedReason])).toEqual([[false, 'operator']]);
    const [grant] = await db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, revoked.id));
    expect(grant?.desired).toBe('revoke');
    const log = auditLogSchema.parse(await (await t.request('/api/admin/audit-log', { cookie: operator })).json());
    expect(log.entries[0]).toMatchObject({ action: 'revoke_access', targetUserId: revoked.id, details: { rows: 1 } });
  });

  it('corrects the TradingView username: the new name is granted, the old one revoked', async () => {
    const renamed = await account('renamed@example.com');
    const db = t.deps.database.db;
    await t.request(`/api/admin/members/${renamed.id}/comp`, { cookie: operator, body: { until: future(30) } });
    await t.request('/api/tradingview/activate', { cookie: renamed.cookie, body: { tv_username: 'typo_trader' } });

    const response = await t.request(`/api/admin/members/${renamed.id}/tradingview-username`, { cookie: operator, body: { username: 'right_trader' } });
    expect(response.status).toBe(200);
    const grants = await db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, renamed.id));
    expect(Object.fromEntries(grants.map((grant) => [grant.username, grant.desired]))).toEqual({ typo_trader: 'revoke', right_trader: 'grant' });

    // the console shows the current name; the old one still finds the member
    const list = async (q: string) => memberListSchema.parse(await (await t.request(`/api/admin/members?q=${q}`, { cookie: operator })).json()).members;
    expect(await list('right_trader')).toEqual([expect.objectContaining({ id: renamed.id, tradingviewUsername: 'right_trader' })]);
    expect(await list('typo_trader')).toEqual([expect.objectContaining({ id: renamed.id, tradingviewUsername: 'right_trader' })]);
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${renamed.id}`, { cookie: operator })).json());
    expect(detail.subscriptions).toEqual([expect.objectContaining({ plan: 'comp', tradingviewUsername: 'right_trader' })]);
  });

  it('pages the member list on the server', async () => {
    const first = memberListSchema.parse(await (await t.request('/api/admin/members', { cookie: operator })).json());
    expect(first.pageSize).toBe(25);
    expect(first.total).toBe(first.members.length);
    expect(first.members.map((row) => row.email)).toContain('member@example.com');
    const none = memberListSchema.parse(await (await t.request('/api/admin/members?page=2', { cookie: operator })).json());
    expect(none.members).toEqual([]);
    expect(none.total).toBe(0);
    const churned = memberListSchema.parse(await (await t.request('/api/admin/members?status=churned', { cookie: operator })).json());
    expect(churned.members.map((row) => row.email)).toContain('revoked@example.com');
  });
});
