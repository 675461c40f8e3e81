// The recovery mail's two links, opened from a mail client: /checkout/recover/:token sends the
// buyer on to their checkout, or says plainly why it cannot (already bought, too old, unknown);
// /checkout/recover/:token/unsubscribe asks once and then stops these mails. Small pages of the
// server's own, like the sandbox's receipts: they work without the app's JavaScript.
import { Hono } from 'hono';
import { describeOperation } from '../../http/openapi';
import type { CheckoutRecovery } from './checkout-recovery.service';

type Site = { brandName: string; supportEmail: string };

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A small page of the server's own (the recovery and unsubscribe links), escaped title, body as given. */
export function serverPage(site: Site, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escape(title)} – ${escape(site.brandName)}</title>
<style>body{margin:0;background:#0b0f19;color:#e2e8f0;font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}main{max-width:520px;margin:10vh auto;padding:32px 24px;background:#111827;border:1px solid #1f2937;border-radius:12px}
h1{font-size:22px;margin:0 0 12px;color:#fff}a.button,button{display:inline-block;margin-top:16px;padding:10px 18px;border-radius:8px;border:0;background:#22c55e;color:#04110a;font-weight:600;font-size:15px;text-decoration:none;cursor:pointer}p.muted{color:#94a3b8;font-size:14px}</style></head>
<body><main><p class="muted">${escape(site.brandName)}</p><h1>${escape(title)}</h1>${body}<p class="muted">Questions? Write to ${escape(site.supportEmail)}.</p></main></body></html>`;
}

const NO_STORE = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

export function checkoutRecoveryRoutes(deps: { recovery: Pick<CheckoutRecovery, 'resume' | 'unsubscribe'>; site: Site }) {
  const { recovery, site } = deps;
  const notFound = serverPage(site, 'This link is not valid', '<p>We could not find this checkout link. It may have been copied incompletely.</p><a class="button" href="/#pricing">See the plans</a>');

  return (
    new Hono()
      .get(
        '/:token',
        describeOperation({
          summary: "A recovery mail's link: on to the checkout the buyer left, or a page that says why not",
          auth: 'none',
          ok: '302 to the checkout; 410 once bought or expired; 404 unknown',
        }),
        async (c) => {
          const outcome = await recovery.resume(c.req.param('token'));
          if (outcome.kind === 'resume') return c.redirect(outcome.url, 302);
          if (outcome.kind === 'purchased') {
            return c.html(
              serverPage(
                site,
                'You already completed this purchase',
                '<p>This address has bought since this checkout was started, so there is nothing left to pay. Sign in to see your plan and your access.</p><a class="button" href="/dashboard">Open your dashboard</a>',
              ),
              410,
              NO_STORE,
            );
          }
          if (outcome.kind === 'gone') {
            return c.html(
              serverPage(
                site,
                'This checkout can no longer be resumed',
                '<p>It was left too long ago. You can start a new one from the plans.</p><a class="button" href="/#pricing">See the plans</a>',
              ),
              410,
              NO_STORE,
            );
          }
          return c.html(notFound, 404, NO_STORE);
        },
      )
      // a page with a button, not a GET that unsubscribes: mail scanners open every link they see
      .get(
        '/:token/unsubscribe',
        describeOperation({
          summary: "A recovery mail's unsubscribe page",
          auth: 'none',
          ok: 'text/html',
        }),
        (c) =>
          c.html(
            serverPage(
              site,
              'No more checkout reminders?',
              `<p>We send at most one reminder a week when a checkout is left unfinished. Confirm and we will send none to this address.</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
            ),
            200,
            NO_STORE,
          ),
      )
      // the page's button, and a mail client's one-click button (RFC 8058: the mail's
      // List-Unsubscribe header names this URL); no session needed, and a second POST changes nothing
      .post(
        '/:token/unsubscribe',
        describeOperation({
          summary: 'No more recovery mails to the address of this link',
          auth: 'none',
          ok: 'text/html',
        }),
        async (c) => {
          if (!(await recovery.unsubscribe(c.req.param('token')))) return c.html(notFound, 404, NO_STORE);
          return c.html(serverPage(site, 'You are unsubscribed', '<p>You will get no more checkout reminders from us. Receipts and account mails still reach you.</p>'), 200, NO_STORE);
        },
      )
  );
}
