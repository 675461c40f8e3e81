// The mails that keep members (decision 056): the operator's switches (these mails and the
// checkout recovery mail), the win-back mail N days after a member's access ended with a
// churned-only code, and the set-up reminders (TradingView username, Discord, Telegram) at
// growing intervals after the purchase. A pass only writes outbox intents with dedupe keys, so
// it is safe on any number of instances; members turn each kind off in Settings or by the link.
import { applyMailSettings, LATE_MAIL_WINDOW_MS, MAIL_SWITCH_LABELS, MEMBER_MAIL_KINDS, SETUP_REMINDER_AFTER_MS, isMemberMailKind, setupReminderStep, winbackWindow, type MailSettings, type MailSettingsInput, type MailSwitch, type MemberMailKind } from '@shared/member-mails';
import { mailKeys, type MailIntentData } from '@shared/mail-intents';
import type { MailPreferences, MailSettingsView } from '@shared/member-mails-contract';
import { discountLabel, durationLabel, normalizePromotionCode, promotionRefusal } from '@shared/promotions';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import { recordOperatorAction } from '../admin/audit.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { churnedOnlyCodes, findPromotion, redemptionCounts } from '../promotions/promotions.repository';
import { termsOf } from '../promotions/promotions.service';
import { churnedBetween, membersSettingUp, optedOutKinds, readMailSettings, setOptOut, userExists, writeMailSettings, type SetupState } from './member-mails.repository';
import type { UnsubscribeLinks } from './unsubscribe-links';

const PASS_INTERVAL_MS = 10 * 60_000;
const LAST_REMINDER_MS = SETUP_REMINDER_AFTER_MS[SETUP_REMINDER_AFTER_MS.length - 1] ?? 0;

type SetupStep = MailIntentData['setup_reminder']['step'];
const SETUP_STEPS: { step: SetupStep; kind: MemberMailKind; done: (member: SetupState) => boolean }[] = [
  { step: 'tradingview', kind: 'setup_tradingview', done: (member) => member.hasTradingview },
  { step: 'discord', kind: 'setup_discord', done: (member) => member.hasDiscord },
  { step: 'telegram', kind: 'setup_telegram', done: (member) => member.hasTelegram },
];

export type MemberMailsSummary = { winback: number; reminders: number };

export function createMemberMails(deps: {
  db: Db;
  clock: () => Date;
  logger: Logger;
  links: UnsubscribeLinks;
  /** The community integrations in use here: a reminder to link one that is not is never sent. */
  integrations: { discord: boolean; telegram: boolean };
}) {
  const { db, clock, logger, links } = deps;

  /** The kinds this shop sends at all: Discord's and Telegram's only with their integration. */
  const offered = (kind: MemberMailKind) => (kind === 'setup_discord' ? deps.integrations.discord : kind === 'setup_telegram' ? deps.integrations.telegram : true);

  async function view(settings: MailSettings): Promise<MailSettingsView> {
    return { ...settings, winbackCodes: await churnedOnlyCodes(db), integrations: deps.integrations };
  }

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
    const steps = SETUP_STEPS.filter(({ kind }) => settings.switches[kind] && offered(kind));
    if (steps.length === 0) return 0;
    let written = 0;
    for (const member of await membersSettingUp(db, new Date(now.getTime() - LAST_REMINDER_MS - LATE_MAIL_WINDOW_MS), now)) {
      const index = setupReminderStep(member.startedAt, now);
      if (index === null) continue;
      for (const { step, kind, done } of steps) {
        if (done(member) || member.optedOut.includes(kind)) continue;
        const data = { step, reminder: index + 1, unsubscribe: links.tokenFor(member.userId, kind) };
        if (await enqueueMail(db, { template: 'setup_reminder', to: member.email, data, dedupeKey: mailKeys.setupReminder(step, member.userId, member.startedAt, index + 1) })) written += 1;
      }
    }
    return written;
  }

  async function runOnce(now: Date): Promise<MemberMailsSummary> {
    const settings = await readMailSettings(db);
    return { winback: await winbackPass(settings, now), reminders: await reminderPass(settings, now) };
  }

  /** The member mails this shop sends, each with whether `userId` gets it. */
  async function preferences(userId: string): Promise<MailPreferences> {
    const settings = await readMailSettings(db);
    const out = await optedOutKinds(db, userId);
    return { mails: MEMBER_MAIL_KINDS.filter((kind) => settings.switches[kind] && offered(kind)).map((kind) => ({ kind, label: MAIL_SWITCH_LABELS[kind], on: !out.has(kind) })) };
  }

  return {
    runOnce,
    preferences,

    /** Whether the operator has this mail switched on (the recovery mail asks before writing). */
    async isOn(name: MailSwitch): Promise<boolean> {
      return (await readMailSettings(db)).switches[name];
    },

    async settings(): Promise<MailSettingsView> {
      return view(await readMailSettings(db));
    },

    /** Validates all of it first (nothing is half-saved), then writes and audits it in one transaction. */
    async setSettings(operator: string, input: MailSettingsInput): Promise<MailSettingsView> {
      const code = input.winbackCode ? normalizePromotionCode(input.winbackCode) : input.winbackCode;
      const applied = applyMailSettings(await readMailSettings(db), { ...input, ...(code === undefined ? {} : { winbackCode: code }) });
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
      if (!isMemberMailKind(input.kind)) throw serverError('mailSettingsInvalid', `Unknown mail type: ${input.kind}.`);
      await setOptOut(db, userId, input.kind, !input.on);
      return preferences(userId);
    },

    /** The kind of mail an unsubscribe link stops, or null for a link we did not sign. */
    linkKind(token: string): MemberMailKind | null {
      return links.read(token)?.kind ?? null;
    },

    /** The unsubscribe link's confirmation: no more mails of its kind to its member; false for an unknown link. */
    async unsubscribe(token: string): Promise<boolean> {
      const link = links.read(token);
      if (!link || !(await userExists(db, link.userId))) return false;
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
