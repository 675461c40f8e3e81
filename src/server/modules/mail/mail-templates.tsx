// Every mail the shop sends, as React Email components rendered to HTML and plain text. One
// layout (brand, one column up to 560 px wide so it reads on a phone, a button with the link also
// written out); every link is built from PUBLIC_URL by the caller's context.
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { toPlainText } from '@react-email/render';
import { createContext, useContext, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { OPERATOR_INVITATION_HOURS } from '@shared/operator-standing';
import { SETUP_REMINDER_AFTER_MS, type SetupReminder } from '@shared/member-mails';
import { planDisplayName } from '@shared/plans';
import { repeatReasonText } from '@shared/trials';
import type { MailIntentData, MailTemplate } from '@shared/mail-intents';

/** `headers`: extra mail headers (the member mails' one-click unsubscribe, RFC 8058). */
export type RenderedMail = { subject: string; text: string; html: string; headers?: Record<string, string> };

export type MailContext = {
  brand: string;
  publicUrl: string;
  supportEmail: string;
  /** The signed /payment-success link of a finish-setup mail written at `writtenAt`. */
  finishSetupUrl: (sessionId: string, writtenAt: Date) => string;
  /** The community integrations' set-up reminders, by step (their descriptors'); TradingView's is written here. */
  setupReminders: Readonly<Record<string, SetupReminder>>;
  /** The steps of the communities a member can link here now (the registry's order), asked as a mail is rendered. */
  offeredSteps: () => readonly string[];
};

const colors = { page: '#f1f5f9', card: '#ffffff', ink: '#0b0f19', body: '#1e293b', muted: '#64748b', accent: '#22c55e', onAccent: '#04110a' };

// The plain-text body already writes the button's link beside its label: no second copy there.
const PlainText = createContext(false);

type LayoutProps = { ctx: MailContext; preview: string; heading: string; action?: { label: string; url: string }; children: ReactNode };

function Layout({ ctx, preview, heading, action, children }: LayoutProps) {
  const plain = useContext(PlainText);
  return (
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ margin: 0, backgroundColor: colors.page, fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif' }}>
        <Container style={{ width: '100%', maxWidth: '560px', margin: '0 auto', padding: '24px 12px' }}>
          <Section style={{ backgroundColor: colors.card, borderRadius: '12px', padding: '28px 24px' }}>
            <Text style={{ fontSize: '18px', fontWeight: 700, color: colors.ink, margin: '0 0 12px' }}>{ctx.brand}</Text>
            <Heading as="h1" style={{ fontSize: '22px', lineHeight: '1.3', color: colors.ink, margin: '0 0 16px' }}>
              {heading}
            </Heading>
            {children}
            {action ? (
              <>
                <Section style={{ margin: '28px 0 8px' }}>
                  <Button
                    href={action.url}
                    style={{ backgroundColor: colors.accent, color: colors.onAccent, padding: '12px 20px', borderRadius: '8px', fontWeight: 600, fontSize: '15px' }}
                  >
                    {action.label}
                  </Button>
                </Section>
                {plain ? null : (
                  <Text style={{ fontSize: '12px', color: colors.muted, wordBreak: 'break-all' }}>
                    Or paste this link into your browser: <Link href={action.url}>{action.url}</Link>
                  </Text>
                )}
              </>
            ) : null}
            <Hr style={{ borderColor: '#e2e8f0', margin: '24px 0 12px' }} />
            <Text style={{ fontSize: '12px', color: colors.muted, margin: 0 }}>
              Questions? Write to {ctx.supportEmail}. — {ctx.brand}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The reminder of the one step every shop has: the TradingView username the access is granted to. */
const TRADINGVIEW_SETUP = { subject: 'Add your TradingView username to get the indicators', text: 'Your plan is active, but we do not have your TradingView username yet: without it we cannot give you access to the indicators.', label: 'Add your username', path: '/dashboard' };

/** A step's reminder texts; a step no integration of this shop reminds of is refused (the worker retries, then fails the mail). */
function setupTexts(step: string, ctx: MailContext): Pick<SetupReminder, 'subject' | 'text' | 'label' | 'path'> {
  const texts = step === 'tradingview' ? TRADINGVIEW_SETUP : ctx.setupReminders[step];
  if (!texts) throw new Error(`no integration reminds of the set-up step "${step}"`);
  return texts;
}

/** The communities a member with access can join here, each as its integration names its step. */
function CommunitySteps({ ctx }: { ctx: MailContext }) {
  return ctx.offeredSteps().map((step) => {
    const reminder = ctx.setupReminders[step];
    if (!reminder) return null;
    const { includes, account, then } = reminder.offer;
    return (
      <P key={step}>
        Your plan includes {includes}: connect your {account} account at {`${ctx.publicUrl}${reminder.path}`} and {then}.
      </P>
    );
  });
}

const unsubscribeUrl = (ctx: MailContext, token: string) => `${ctx.publicUrl}/mail/unsubscribe/${token}`;
/** The recovery mail's way out (decision 053): its own link, as the address may have no account. */
const recoveryUnsubscribeUrl = (ctx: MailContext, token: string) => `${ctx.publicUrl}/checkout/recover/${token}/unsubscribe`;

/** The member mails' way out (decision 056): a page that asks once, and Settings. */
function UnsubscribeLine({ ctx, token, what }: { ctx: MailContext; token: string; what: string }) {
  return (
    <Text style={{ fontSize: '12px', color: colors.muted }}>
      <Link href={unsubscribeUrl(ctx, token)}>Unsubscribe from {what}</Link> (or choose your mails in Settings).
    </Text>
  );
}

const P = ({ children }: { children: ReactNode }) => <Text style={{ fontSize: '15px', lineHeight: '1.6', color: colors.body }}>{children}</Text>;

export const formatAmount = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

const formatDateTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
/** The last day an end grants: comp access ends at midnight after the day the operator chose, which is the day to name. */
const lastDayOf = (iso: string) => formatDate(new Date(Date.parse(iso) - 1).toISOString());

/** `unsubscribeUrl`: the link a mail client's own unsubscribe button POSTs to (RFC 8058 one-click). */
export type Built = { subject: string; element: ReactNode; unsubscribeUrl?: string };
type Builders = { [T in MailTemplate]: (data: MailIntentData[T], ctx: MailContext, writtenAt: Date) => Built };

const dashboard = (ctx: MailContext) => `${ctx.publicUrl}/dashboard`;
const subscriptionSettings = (ctx: MailContext) => `${ctx.publicUrl}/dashboard/settings?section=subscription`;
const pricing = (ctx: MailContext) => `${ctx.publicUrl}/#pricing`;

function finishSetup(reminder: boolean) {
  return ({ sessionId, planType }: MailIntentData['finish_setup'], ctx: MailContext, writtenAt: Date): Built => {
    const subject = reminder ? `Reminder: finish setting up your ${ctx.brand} access` : `Finish setting up your ${ctx.brand} access`;
    return {
      subject,
      element: (
        <Layout ctx={ctx} preview="Create your password to get your indicators." heading="Finish setting up your access" action={{ label: 'Finish setting up', url: ctx.finishSetupUrl(sessionId, writtenAt) }}>
          <P>
            {reminder ? 'Your payment for the ' : 'Thank you for your payment. Your '}
            {planDisplayName(planType)} plan {reminder ? 'is waiting for you: your account is not set up yet.' : 'is paid.'}
          </P>
          <P>Open the link below to create your password and enter your TradingView username. It works in any browser and is valid for 7 days.</P>
        </Layout>
      ),
    };
  };
}

const BUILDERS: Builders = {
  finish_setup: finishSetup(false),
  finish_setup_reminder: finishSetup(true),
  receipt: ({ planType, amount, currency, renewsAt, trial, amountTax }, ctx) => ({
    subject: `Your ${ctx.brand} receipt — ${planDisplayName(planType)}${trial ? ' free trial' : ''}`,
    element: (
      <Layout ctx={ctx} preview={`${formatAmount(amount, currency)} paid for ${planDisplayName(planType)}.`} heading={`Welcome to ${ctx.brand}`} action={{ label: 'Open your dashboard', url: dashboard(ctx) }}>
        <P>Thank you for your purchase. Here is your receipt.</P>
        <P>Plan: {planDisplayName(planType)}</P>
        <P>
          Amount: {formatAmount(amount, currency)} ({currency.toUpperCase()})
        </P>
        {amountTax ? <P>Tax included: {formatAmount(amountTax, currency)}</P> : null}
        {trial ? (
          <P>
            Your free trial runs until {formatDate(trial.endsAt)}. Then {formatAmount(trial.amount, currency)} is charged for your {planDisplayName(planType)} plan, unless you
            cancel before that day in Manage Subscription.
          </P>
        ) : (
          <P>{renewsAt ? `Renews on: ${formatDate(renewsAt)}` : 'Access: lifetime'}</P>
        )}
      </Layout>
    ),
  }),
  tradingview_active: ({ username, scripts }, ctx) => ({
    subject: `Your TradingView access is active`,
    element: (
      <Layout ctx={ctx} preview={`${username} now has access to the ${ctx.brand} indicators.`} heading="Your TradingView access is active" action={{ label: 'Open your dashboard', url: dashboard(ctx) }}>
        <P>TradingView username: {username}</P>
        <P>{scriptsLine(ctx.brand, scripts)}</P>
        <P>To add them to a chart:</P>
        <P>1. Open a chart on TradingView.</P>
        <P>2. Click Indicators.</P>
        <P>3. Choose Invite-only scripts.</P>
        <P>4. Select the indicators.</P>
        <CommunitySteps ctx={ctx} />
      </Layout>
    ),
  }),
  payment_failed: ({ planType }, ctx) => ({
    subject: `Payment failed — update your card`,
    element: (
      <Layout ctx={ctx} preview="Your renewal payment did not go through." heading="Payment failed — update your card" action={{ label: 'Update your card', url: subscriptionSettings(ctx) }}>
        <P>We could not charge your card for the renewal of your {planDisplayName(planType)} plan.</P>
        <P>Update your card from Manage Subscription to keep your access. We will try the payment again in the meantime.</P>
      </Layout>
    ),
  }),
  access_ending: ({ planType, endsAt }, ctx) => ({
    subject: `Your ${ctx.brand} access ends on ${formatDate(endsAt)}`,
    element: (
      <Layout ctx={ctx} preview={`Your ${planDisplayName(planType)} plan was canceled.`} heading={`Your access ends on ${formatDate(endsAt)}`} action={{ label: 'Manage subscription', url: subscriptionSettings(ctx) }}>
        <P>Your {planDisplayName(planType)} plan was canceled and your access to the indicators ends on {formatDate(endsAt)}.</P>
        <P>Changed your mind? Resume the plan before then and nothing is interrupted.</P>
      </Layout>
    ),
  }),
  pause_resuming: ({ planType, resumesAt }, ctx) => ({
    subject: `Your ${ctx.brand} pause ends on ${formatDate(resumesAt)}`,
    element: (
      <Layout ctx={ctx} preview={`Your ${planDisplayName(planType)} plan resumes on ${formatDate(resumesAt)}.`} heading={`Your pause ends on ${formatDate(resumesAt)}`} action={{ label: 'Manage subscription', url: subscriptionSettings(ctx) }}>
        <P>Your {planDisplayName(planType)} plan resumes on {formatDate(resumesAt)}: your card is charged then and your access to the indicators comes back.</P>
        <P>Not trading yet? Cancel from Settings before then and nothing is charged.</P>
      </Layout>
    ),
  }),
  price_moved: ({ planType, amount, currency, from }, ctx) => ({
    subject: `Your ${planDisplayName(planType)} price from ${formatDate(from)}`,
    element: (
      <Layout ctx={ctx} preview={`From ${formatDate(from)} your plan renews at ${formatAmount(amount, currency)}.`} heading={`Your new price from ${formatDate(from)}`} action={{ label: 'Manage subscription', url: subscriptionSettings(ctx) }}>
        <P>
          The price of the {planDisplayName(planType)} plan changed. Your renewal on {formatDate(from)} and the ones after it are charged {formatAmount(amount, currency)} (
          {currency.toUpperCase()}); any discount you have goes on applying.
        </P>
        <P>Nothing is charged before then. To stop the renewal, cancel before that day in Manage Subscription.</P>
      </Layout>
    ),
  }),
  access_ended: ({ planType }, ctx) => ({
    subject: `Your ${ctx.brand} access has ended`,
    element: (
      <Layout ctx={ctx} preview="Your access to the indicators has ended." heading="Your access has ended" action={{ label: `Reactivate ${planDisplayName(planType)}`, url: pricing(ctx) }}>
        <P>Your {planDisplayName(planType)} plan has ended and the indicators were removed from your TradingView account.</P>
        <P>You can come back at any time.</P>
      </Layout>
    ),
  }),
  // Comp access is stored as a canceled monthly row; these mails must not read as a plan the member bought.
  comp_ending: ({ endsAt }, ctx) => ({
    subject: `Your complimentary ${ctx.brand} access ends on ${lastDayOf(endsAt)}`,
    element: (
      <Layout ctx={ctx} preview={`Your complimentary access ends on ${lastDayOf(endsAt)}.`} heading={`Your complimentary access ends on ${lastDayOf(endsAt)}`} action={{ label: 'See the plans', url: pricing(ctx) }}>
        <P>The complimentary access to the {ctx.brand} indicators you were given lasts until the end of {lastDayOf(endsAt)} (UTC). Nothing is charged for it.</P>
        <P>To keep the indicators after that day, choose a plan before then.</P>
      </Layout>
    ),
  }),
  comp_ended: ({ endedAt }, ctx) => ({
    subject: `Your complimentary ${ctx.brand} access has ended`,
    element: (
      <Layout ctx={ctx} preview="Your complimentary access to the indicators has ended." heading="Your complimentary access has ended" action={{ label: 'See the plans', url: pricing(ctx) }}>
        <P>Your complimentary access to the {ctx.brand} indicators ended after {lastDayOf(endedAt)} and the indicators were removed from your TradingView account.</P>
        <P>To get them back, choose a plan at any time.</P>
      </Layout>
    ),
  }),
  plan_changed: ({ from, to }, ctx) => ({
    subject: `Your ${ctx.brand} plan changed to ${planDisplayName(to)}`,
    element: (
      <Layout ctx={ctx} preview={`From ${planDisplayName(from)} to ${planDisplayName(to)}.`} heading="Your plan changed" action={{ label: 'View your subscription', url: subscriptionSettings(ctx) }}>
        <P>
          Your plan changed from {planDisplayName(from)} to {planDisplayName(to)}. The difference is prorated on your invoice.
        </P>
      </Layout>
    ),
  }),
  trial_ending: ({ planType, endsAt, amount, currency }, ctx) => ({
    subject: `Your ${ctx.brand} free trial ends on ${formatDate(endsAt)}`,
    element: (
      <Layout ctx={ctx} preview={`${formatAmount(amount, currency)} will be charged on ${formatDate(endsAt)}.`} heading="Your free trial ends soon" action={{ label: 'Manage subscription', url: subscriptionSettings(ctx) }}>
        <P>
          Your free trial of the {planDisplayName(planType)} plan ends on {formatDate(endsAt)}. Then {formatAmount(amount, currency)} is charged to your card and your access
          continues without a break.
        </P>
        <P>Not for you? Cancel before then in Manage Subscription: nothing is charged and your access ends with the trial.</P>
      </Layout>
    ),
  }),
  trial_refused: ({ planType, reason, amount, currency }, ctx) => ({
    subject: `Your ${ctx.brand} free trial was not available`,
    element: (
      <Layout ctx={ctx} preview={repeatReasonText(reason)} heading="Your plan started without a free trial" action={{ label: 'View your subscription', url: subscriptionSettings(ctx) }}>
        <P>{repeatReasonText(reason)} Free trials are one per person, so your {planDisplayName(planType)} plan started now and {formatAmount(amount, currency)} was charged to your card.</P>
        <P>Your access continues. If you did not mean to buy the plan, write to us and we will sort it out.</P>
      </Layout>
    ),
  }),
  password_reset: ({ url }, ctx) => ({
    subject: `Reset your ${ctx.brand} password`,
    element: (
      <Layout ctx={ctx} preview="A link to choose a new password." heading="Reset your password" action={{ label: 'Reset password', url }}>
        <P>We received a request to reset the password of your account.</P>
        <P>The link below expires in 10 minutes. If you did not ask for it, you can ignore this e-mail: your password stays the same.</P>
      </Layout>
    ),
  }),
  access_moved: ({ url, planType, days }, ctx) => ({
    subject: `Your ${ctx.brand} access moved — set your password`,
    element: (
      <Layout ctx={ctx} preview="Your plan continues here: set a password to open the member area." heading="Your access moved" action={{ label: 'Set your password', url }}>
        <P>
          Your {planDisplayName(planType)} plan now lives at {ctx.brand}. Nothing changes for you: it keeps its dates and its price, nothing was charged, and your TradingView access stays as it
          is.
        </P>
        <P>Set a password with the link below to open the member area (guides, settings, invoices). It works for {days} days; after that, use "Forgot password" on the sign-in page.</P>
      </Layout>
    ),
  }),
  operator_alert: ({ title, detail, since }, ctx) => ({
    subject: `[${ctx.brand} alert] ${title}`,
    element: (
      <Layout ctx={ctx} preview={detail ?? title} heading={title} action={{ label: 'Open the operator console', url: `${ctx.publicUrl}/admin` }}>
        <P>Since: {formatDateTime(since)}</P>
        {detail ? <P>{detail}</P> : null}
        <P>You get one more mail when this clears.</P>
      </Layout>
    ),
  }),
  operator_alert_resolved: ({ title, since, resolvedAt }, ctx) => ({
    subject: `[${ctx.brand} resolved] ${title}`,
    element: (
      <Layout ctx={ctx} preview="The condition cleared." heading={`Resolved: ${title}`} action={{ label: 'Open the operator console', url: `${ctx.publicUrl}/admin` }}>
        <P>
          From {formatDateTime(since)} to {formatDateTime(resolvedAt)}.
        </P>
      </Layout>
    ),
  }),
  affiliate_commission: ({ count, amounts, holdDays }, ctx) => ({
    subject: `You earned ${count === 1 ? 'a commission' : `${count} commissions`} at ${ctx.brand}`,
    element: (
      <Layout ctx={ctx} preview={amounts.map((line) => formatAmount(line.amount, line.currency)).join(' + ')} heading="You earned a commission" action={{ label: 'Open Refer & earn', url: `${ctx.publicUrl}/refer` }}>
        <P>
          {count === 1 ? 'A buyer you referred paid' : `${count} payments of buyers you referred came in`}: {amounts.map((line) => formatAmount(line.amount, line.currency)).join(' + ')} pending.
        </P>
        <P>A commission is approved {holdDays} days after the payment, unless the payment is refunded or disputed, and then paid with the next payout run.</P>
      </Layout>
    ),
  }),
  affiliate_payout: ({ amount, currency, payoutEmail }, ctx) => ({
    subject: `Your ${ctx.brand} affiliate payout of ${formatAmount(amount, currency)} was sent`,
    element: (
      <Layout ctx={ctx} preview={`${formatAmount(amount, currency)} to ${payoutEmail}.`} heading="Your payout was sent" action={{ label: 'Open Refer & earn', url: `${ctx.publicUrl}/refer` }}>
        <P>
          We sent {formatAmount(amount, currency)} to {payoutEmail}. It can take a few days to show in your PayPal or Wise account.
        </P>
      </Layout>
    ),
  }),
  // A reminder nobody asked for: what it is, one way back, and one way out of such mails.
  checkout_recovery: ({ token, planType }, ctx) => ({
    subject: `Your ${planDisplayName(planType)} checkout is waiting`,
    unsubscribeUrl: recoveryUnsubscribeUrl(ctx, token),
    element: (
      <Layout ctx={ctx} preview={`Pick up your ${ctx.brand} checkout where you left it.`} heading="Finish your purchase" action={{ label: 'Resume your checkout', url: `${ctx.publicUrl}/checkout/recover/${token}` }}>
        <P>
          You started a checkout for the {ctx.brand} {planDisplayName(planType)} plan but did not finish it. The link below opens it again with the same plan and price
          terms; nothing is charged until you pay on the payment page.
        </P>
        <P>If you already bought it, or changed your mind, there is nothing to do: this is the only reminder we send.</P>
        <Text style={{ fontSize: '12px', color: colors.muted }}>
          <Link href={recoveryUnsubscribeUrl(ctx, token)}>Unsubscribe from checkout reminders</Link>
        </Text>
      </Layout>
    ),
  }),
  // Decision 056: the win-back offer and the set-up reminders, each with its own way out.
  winback: ({ code, offer, unsubscribe }, ctx) => ({
    subject: `Come back to ${ctx.brand}: ${offer}`,
    unsubscribeUrl: unsubscribeUrl(ctx, unsubscribe),
    element: (
      <Layout ctx={ctx} preview={`${offer} with the code ${code}.`} heading="We would like you back" action={{ label: `Choose a plan with ${code}`, url: `${ctx.publicUrl}/?code=${encodeURIComponent(code)}` }}>
        <P>
          Your {ctx.brand} access has ended. If you are trading again, the code {code} gives you {offer}: it is for returning members, so sign in first, then choose your plan.
        </P>
        <UnsubscribeLine ctx={ctx} token={unsubscribe} what="offers like this one" />
      </Layout>
    ),
  }),
  setup_reminder: ({ step, reminder, unsubscribe }, ctx) => {
    const { subject, text, label, path } = setupTexts(step, ctx);
    const last = reminder >= SETUP_REMINDER_AFTER_MS.length;
    return {
      subject,
      unsubscribeUrl: unsubscribeUrl(ctx, unsubscribe),
      element: (
        <Layout ctx={ctx} preview={text} heading={subject} action={{ label, url: `${ctx.publicUrl}${path}` }}>
          <P>{text}</P>
          {last ? <P>This is the last reminder we send about it.</P> : null}
          <UnsubscribeLine ctx={ctx} token={unsubscribe} what="this reminder" />
        </Layout>
      ),
    };
  },
  operator_invitation: ({ url, invitedBy }, ctx) => ({
    subject: `You are invited to operate ${ctx.brand}`,
    element: (
      <Layout ctx={ctx} preview="A one-time link to open the operator console." heading="Become an operator" action={{ label: 'Accept the invitation', url }}>
        <P>{invitedBy} invited you to run {ctx.brand} from its operator console.</P>
        <P>The link works once, for {OPERATOR_INVITATION_HOURS} hours: it sets the password of your account with this address. If you did not expect it, ignore this e-mail.</P>
      </Layout>
    ),
  }),
  announcement: ({ title, body, scriptId }, ctx) => ({
    subject: `${ctx.brand}: ${title}`,
    element: (
      <Layout ctx={ctx} preview={body.slice(0, 120)} heading={title} action={{ label: "Open What's new", url: `${ctx.publicUrl}/dashboard/guides` }}>
        {scriptId ? <P>About: {scriptId}</P> : null}
        {body
          .split(/\n[ \t]*\n/)
          .map((paragraph) => paragraph.trim())
          .filter(Boolean)
          .map((paragraph, index) => (
            <P key={index}>{paragraph}</P>
          ))}
        <P>You get these updates as a member. To stop them, turn off update e-mails in Settings.</P>
      </Layout>
    ),
  }),
  verify_email: ({ url }, ctx) => ({
    subject: `Confirm your ${ctx.brand} e-mail address`,
    element: (
      <Layout ctx={ctx} preview="One click to confirm your address." heading="Confirm your e-mail address" action={{ label: 'Confirm e-mail', url }}>
        <P>Please confirm your e-mail address to finish creating your account.</P>
      </Layout>
    ),
  }),
};

/**
 * The scripts a grant gave, by their names; a script the catalog knows only by its id (PUB;…,
 * never named by TradingView yet) is left out rather than shown to a member as an id.
 */
function scriptsLine(brand: string, scripts: readonly string[] | undefined): string {
  const names = (scripts ?? []).filter((name) => !SCRIPT_ID.test(name));
  return names.length
    ? `The ${brand} invite-only scripts are now available to this account: ${names.join(', ')}.`
    : `The ${brand} invite-only scripts are now available to this account.`;
}
const SCRIPT_ID = /^PUB;/;

const XHTML_DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * What React Email's render() makes of a mail, rendered at once instead of streamed: the
 * streaming renderer switches React's AsyncLocalStorage on for the rest of the process, and on
 * Node 20 that taxes every promise of every request after the first mail. The mails have no
 * suspending parts, so nothing needs the stream (mail.test.ts compares both on every template).
 */
function renderHtml(element: ReactNode): string {
  return `${XHTML_DOCTYPE}${renderToStaticMarkup(element).replace(/<!DOCTYPE.*?>/, '')}`;
}

function renderText(element: ReactNode): string {
  return toPlainText(renderToStaticMarkup(plainTextElement(element)));
}

/** A stored intent's subject and React Email element; `writtenAt` (the row's creation) fixes a signed link's expiry across retries. */
export function buildMail<T extends MailTemplate>(template: T, data: MailIntentData[T], ctx: MailContext, writtenAt: Date): Built {
  return (BUILDERS[template] as (d: MailIntentData[T], c: MailContext, w: Date) => Built)(data, ctx, writtenAt);
}

/** A stored intent as the mail sent: subject, HTML and plain text. */
export function renderMail<T extends MailTemplate>(template: T, data: MailIntentData[T], ctx: MailContext, writtenAt: Date): RenderedMail {
  const { subject, element, unsubscribeUrl: oneClick } = buildMail(template, data, ctx, writtenAt);
  // RFC 8058: the mail client's button POSTs "List-Unsubscribe=One-Click" to the link, which the
  // unsubscribe route's POST honours without a page.
  const headers = oneClick ? { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined;
  return { subject, html: renderHtml(element), text: renderText(element), ...(headers ? { headers } : {}) };
}

/** The plain-text body's mode: components render their text form (a button as its label and link). */
export const plainTextElement = (element: ReactNode) => <PlainText.Provider value={true}>{element}</PlainText.Provider>;
