// The mails that keep members (decision 056): the operator's switches (these mails and the
// checkout recovery mail), the win-back mail N days after a member's access ended with a
// churned-only code, and the set-up reminders (the TradingView username, and a linked account in
// each community integration, whose descriptor writes its reminder) at growing intervals after
// the purchase. A pass only writes outbox intents with dedupe keys, so it is safe on any number of
// instances; members turn each kind off in Settings or by the link.
import { applyMailSettings, LATE_MAIL_WINDOW_MS, mailSwitchesOf, SETUP_REMINDER_AFTER_MS, setupKind, setupReminderStep, winbackWindow, type MailSettings, type MailSettingsInput, type MailSwitch, type MemberMailKind, type SetupReminder } from '@shared/member-mails';
import { mailKeys } from '@shared/mail-intents';
import type { MailPreferences, MailSettingsView } from '@shared/member-mails-contract';
import { discountLabel, durationLabel, normalizePromotionCode, promotionRefusal } from '@shared/promotions';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import type { MemberLinkReads } from '../../linked-accounts';
import { recordOperatorAction } from '../admin/audit.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { churnedOnlyCodes, findPromotion } from '../promotions/promotions.repository';
import { redemptionCounts } from '../provider-records/checkout-session-reads';
import { termsOf } from '../promotions/promotions.service';
import { churnedBetween, membersSettingUp, optedOutKinds, readMailSettings, setOptOut, userExists, writeMailSettings, type SetupState } from './member-mails.repository';
import type { UnsubscribeLinks } from './unsubscribe-links';

const PASS_INTERVAL_MS = 10 * 60_000;
const LAST_REMINDER_MS = SETUP_REMINDER_AFTER_MS[SETUP_REMINDER_AFTER_MS.length - 1] ?? 0;
const TRADINGVIEW_STEP = 'tradingview';

/**
 * A community integration of the registry with a set-up reminder (its step is its name), and its
 * reads of linked accounts where this shop runs it (null: its reminder is not sent here).
 */
export type CommunityReminder = { name: string; reminder: Pick<SetupReminder, 'switchLabel'>; links: MemberLinkReads | null };

export type MemberMailsSummary = { winback: number; reminders: number };

export function createMemberMails(deps: {
  db: Db;
  clock: () => Date;
  logger: Logger;
  links: UnsubscribeLinks;
  /** The community integrations with a reminder, in the registry's order. */
  communities: readonly CommunityReminder[];
}) {
  const { db, clock, logger, links, communities } = deps;
  const inUse = communities.flatMap(({ name, links: reads }) => (reads ? [{ name, reads }] : []));
  // every switch with its label: `setup_<name>` for each registered community, running here or not,
  // so a stored switch keeps its value while its integration is off
  const switchList = mailSwitchesOf(communities);
  const names = switchList.map(({ name }) => name);
  const labelOf = new Map(switchList.map(({ name, label }) => [name, label]));
  const kinds = names.filter((name): name is MemberMailKind => name !== 'checkout_recovery');
  const isKind = (kind: string): kind is MemberMailKind => (kinds as readonly string[]).includes(kind);
  const notSentHere = new Set<string>(communities.filter((community) => community.links === null).map(({ name }) => setupKind(name)));

  /** The kinds this shop sends at all: a community's reminder only where its integration runs. */
  const offered = (kind: MailSwitch) => !notSentHere.has(kind);
  const setupSteps = [TRADINGVIEW_STEP, ...inUse.map(({ name }) => name)].map((step) => ({ step, kind: setupKind(step) }));
  const read = () => readMailSettings(db, names);

  async function view(settings: MailSettings): Promise<MailSettingsView> {
    return { ...settings, winbackCodes: await churnedOnlyCodes(db), mails: switchList.map(({ name, label }) => ({ name, label, offered: offered(name) })) };
  }

  /** Which of these members have a current account in each community in use, by its name. */
  async function linkedIn(userIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const linked = await Promise.all(
      inUse.map(async ({ name, reads }) => {
        const { accounts } = await reads.accountsOf(userIds);
        return [name, new Set(accounts.filter((account) => account.current).map((account) => account.userId))] as const;
      }),
    );
    return new Map(linked);
  }

  /** Whether the member has done the step: a TradingView username, or a linked community account. */
  const doneBy = (member: SetupState, linked: Map<string, Set<string>>) => (step: string) =>
    step === TRADINGVIEW_STEP ? member.hasTradingview : (linked.get(step)?.has(member.userId) ?? false);

  /** What the win-back code gives, or null when it can no longer be used (switched off, expired, used up). */
  async function winbackOffer(code: string, now: Date): Promise<string | null> {
    const row = await findPromotion(db, code);
    if (!row?.churnedOnly) return null;
    const redemptions = (await redemptionCounts(db, [row.code])).get(row.code) ?? 0;
    const terms = termsOf(row);
    if (promotionRefusal({ ...terms, active: row.active, redemptions }, { now })) return null;
    return `${discountLabel(terms)} ${durationLabel(terms)}`;
  }

  async function winbackPass(settings: MailSettings, now: Date): Promise<number> {
    if (!settings.switches.winback || !settings.winbackCode) return 0;
    const offer = await winbackOffer(settings.winbackCode, now);
    if (!offer) {
      logger.warn({ code: settings.winbackCode }, 'win-back mails held: their promotion code cannot be used now');
      return 0;
    }
    const { endedAfter, endedBy } = winbackWindow(now, settings.winbackDays);
    let written = 0;
    for (const member of await churnedBetween(db, endedAfter, endedBy, now)) {
      const data = { code: settings.winbackCode, offer, unsubscribe: links.tokenFor(member.userId, 'winback') };
      if (await enqueueMail(db, { template: 'winback', to: member.email, data, dedupeKey: mailKeys.winback(member.userId, member.endedAt) })) written += 1;
    }
    return written;
  }

  async function reminderPass(settings: MailSettings, now: Date): Promise<number> {
    const steps = setupSteps.filter(({ kind }) => settings.switches[kind] === true);
    if (steps.length === 0) return 0;
    let written = 0;
    const members = await membersSettingUp(db, new Date(now.getTime() - LAST_REMINDER_MS - LATE_MAIL_WINDOW_MS), now);
    const linked = await linkedIn(members.map((member) => member.userId));
    for (const member of members) {
      const index = setupReminderStep(member.startedAt, now);
      if (index === null) continue;
      const done = doneBy(member, linked);
      for (const { step, kind } of steps) {
        if (done(step) || member.optedOut.includes(kind)) continue;
        const data = { step, reminder: index + 1, unsubscribe: links.tokenFor(member.userId, kind) };
        if (await enqueueMail(db, { template: 'setup_reminder', to: member.email, data, dedupeKey: mailKeys.setupReminder(step, member.userId, member.startedAt, index + 1) })) written += 1;
      }
    }
    return written;
  }

  async function runOnce(now: Date): Promise<MemberMailsSummary> {
    const settings = await read();
    return { winback: await winbackPass(settings, now), reminders: await reminderPass(settings, now) };
  }

  /** The member mails this shop sends, each with whether `userId` gets it. */
  async function preferences(userId: string): Promise<MailPreferences> {
    const settings = await read();
    const out = await optedOutKinds(db, userId);
    return { mails: kinds.filter((kind) => settings.switches[kind] === true && offered(kind)).map((kind) => ({ kind, label: labelOf.get(kind) ?? kind, on: !out.has(kind) })) };
  }

  return {
    runOnce,
    preferences,

    /** Whether the operator has this mail switched on (the recovery mail asks before writing). */
    async isOn(name: MailSwitch): Promise<boolean> {
      return (await read()).switches[name] === true;
    },

    async settings(): Promise<MailSettingsView> {
      return view(await read());
    },

    /** Validates all of it first (nothing is half-saved), then writes and audits it in one transaction. */
    async setSettings(operator: string, input: MailSettingsInput): Promise<MailSettingsView> {
      const code = input.winbackCode ? normalizePromotionCode(input.winbackCode) : input.winbackCode;
      const applied = applyMailSettings(await read(), { ...input, ...(code === undefined ? {} : { winbackCode: code }) });
      if (!applied.ok) throw serverError('mailSettingsInvalid', applied.problems.join(' '));
      const { settings } = applied;
      if (settings.winbackCode && !(await churnedOnlyCodes(db)).includes(settings.winbackCode)) {
        throw serverError('mailSettingsInvalid', `The code ${settings.winbackCode} is not an active code for returning members only: create one with "Returning members only" first.`);
      }
      await db.transaction(async (tx) => {
        await writeMailSettings(tx, settings, operator, clock());
        await recordOperatorAction(tx, { operator, action: 'set_mail_settings', details: { ...settings } });
      });
      return view(settings);
    },

    async setPreference(userId: string, input: { kind: string; on: boolean }): Promise<MailPreferences> {
      if (!isKind(input.kind)) throw serverError('mailSettingsInvalid', `Unknown mail type: ${input.kind}.`);
      await setOptOut(db, userId, input.kind, !input.on);
      return preferences(userId);
    },

    /** The label of the kind of mail an unsubscribe link stops, or null for a link we did not sign or of a kind this shop no longer has. */
    linkLabel(token: string): string | null {
      const kind = links.read(token)?.kind;
      return kind === undefined ? null : (labelOf.get(kind) ?? null);
    },

    /** The unsubscribe link's confirmation: no more mails of its kind to its member; false for an unknown link. */
    async unsubscribe(token: string): Promise<boolean> {
      const link = links.read(token);
      if (!link || !isKind(link.kind) || !(await userExists(db, link.userId))) return false;
      await setOptOut(db, link.userId, link.kind, true);
      return true;
    },

    /** The loop for main.ts; wakes the mail worker when a pass wrote mails. */
    job(mailer: { kick: () => void }) {
      return createBackgroundLoop({
        async pass() {
          const summary = await runOnce(clock());
          if (summary.winback + summary.reminders > 0) {
            logger.info(summary, 'member mails written');
            mailer.kick();
          }
        },
        intervalMs: PASS_INTERVAL_MS,
        logger,
        label: 'member mails',
      });
    },
  };
}

export type MemberMails = ReturnType<typeof createMemberMails>;
