// The member mails' API (decision 056): the console's "Mails" settings (under /api/admin, behind
// the operator check), a member's own preferences (Settings), and the mails' unsubscribe pages,
// server pages opened from a mail client that work without the app's JavaScript.
import { Hono } from 'hono';
import { mailPreferencesSchema, mailSettingsRequestSchema, mailSettingsSchema, setMailPreferenceSchema } from '@shared/member-mails-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import { serverPage } from '../recovery/checkout-recovery.routes';
import type { MemberMails } from './member-mails.service';

const NO_STORE = { 'cache-control': 'private, no-store' };
const PAGE_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** Every console route below (under /api/admin), for the authorisation test. */
export const MEMBER_MAIL_ADMIN_ROUTES = [
  { method: 'GET', path: '/mail-settings' },
  { method: 'PUT', path: '/mail-settings' },
] as const;

export function memberMailAdminRoutes(mails: MemberMails) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/mail-settings', describeOperation({ summary: 'The mail switches and the win-back mail settings', auth: 'operator', response: mailSettingsSchema }), async (c) => c.json(await mails.settings(), 200, NO_STORE))
    .put('/mail-settings', describeOperation({ summary: 'Switch mails on or off, set the win-back days and code (audited)', auth: 'operator', body: mailSettingsRequestSchema, response: mailSettingsSchema }), async (c) =>
      c.json(await mails.setSettings(requireUser(c).email, await readJson(c, mailSettingsRequestSchema))),
    );
}

export function memberMailRoutes(mails: MemberMails) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/mail-preferences', describeOperation({ summary: "The member's reminder and offer mails, each on or off", auth: 'session', response: mailPreferencesSchema }), async (c) => c.json(await mails.preferences(requireUser(c).id), 200, NO_STORE))
    .put('/mail-preferences', describeOperation({ summary: 'Turn one kind of reminder or offer mail on or off', auth: 'session', body: setMailPreferenceSchema, response: mailPreferencesSchema }), async (c) =>
      c.json(await mails.setPreference(requireUser(c).id, await readJson(c, setMailPreferenceSchema))),
    );
}

/** Mounted at /mail/unsubscribe: a page with a button (POST), as mail scanners open every link. */
export function unsubscribePageRoutes(deps: { mails: MemberMails; site: { brandName: string; supportEmail: string } }) {
  const { mails, site } = deps;
  const notFound = serverPage(site, 'This link is not valid', '<p>We could not read this unsubscribe link. It may have been copied incompletely. You can turn these mails off in Settings too.</p>');
  return new Hono()
    .get('/:token', describeOperation({ summary: "A member mail's unsubscribe page", auth: 'none', ok: 'text/html' }), (c) => {
      const label = mails.linkLabel(c.req.param('token'));
      if (!label) return c.html(notFound, 404, PAGE_HEADERS);
      return c.html(serverPage(site, `No more "${label}" mails?`, '<p>Confirm and we will send you no more mails of this kind. Receipts and account mails still reach you.</p><form method="post"><button type="submit">Unsubscribe</button></form>'), 200, PAGE_HEADERS);
    })
    .post('/:token', describeOperation({ summary: "No more mails of the link's kind to its member", auth: 'none', ok: 'text/html' }), async (c) => {
      if (!(await mails.unsubscribe(c.req.param('token')))) return c.html(notFound, 404, PAGE_HEADERS);
      return c.html(serverPage(site, 'You are unsubscribed', '<p>You will get no more mails of this kind. You can turn them back on in Settings.</p>'), 200, PAGE_HEADERS);
    });
}
