// The operator audit log in words: each entry as a sentence ("ops@example.com gave
// alice@example.com 7 free days") rather than an action code and its raw details.
import { formatMoney } from './plans';

export type AuditEntryWords = { operatorEmail: string; action: string; targetEmail: string | null; details: Record<string, unknown> };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** A day or an instant as the day it names (2026-03-01). */
const day = (value: unknown): string | null => {
  const raw = text(value);
  return raw ? raw.slice(0, 10) : null;
};

/** The entry as one sentence, in the operator's words; an action this list does not know is still said plainly. */
export function auditSentence(entry: AuditEntryWords): string {
  const who = entry.operatorEmail;
  const member = entry.targetEmail ?? text(entry.details.target) ?? 'a member';
  const possessive = `${member}’s`;
  const d = entry.details;
  switch (entry.action) {
    case 'add_free_days': {
      const days = count(d.days);
      return `${who} gave ${member} ${days === null ? 'free days' : plural(days, 'free day')}${day(d.until) ? ` (paid until ${day(d.until)})` : ''}`;
    }
    case 'grant_comp':
      return `${who} gave ${member} complimentary access${day(d.until) ? ` until ${day(d.until)}` : ''}`;
    case 'revoke_access':
      return `${who} ended ${possessive} access`;
    case 'ban_member':
      return `${who} banned ${member}${d.refunded ? ' and refunded the last payment' : ''}${text(d.reason) ? `: “${text(d.reason)}”` : ''}`;
    case 'pause_collection':
      return `${who} paused ${possessive} billing`;
    case 'resume_collection':
      return `${who} resumed ${possessive} billing`;
    case 'correct_username':
      return `${who} set ${possessive} TradingView username to ${text(d.username) ?? 'a new one'}${text(d.previous) ? ` (was ${text(d.previous)})` : ''}`;
    case 'retry_grant':
      return `${who} retried ${possessive} TradingView access`;
    case 'resync_member':
      return `${who} read ${possessive} subscriptions from the payment provider again`;
    case 'refund_order': {
      const amount = count(d.amount);
      const currency = text(d.currency);
      return `${who} refunded ${amount !== null && currency ? formatMoney(amount, currency) : 'an order'} to ${member}`;
    }
    case 'add_operator':
      return `${who} made ${text(d.email) ?? 'someone'} an operator`;
    case 'invite_operator':
      return `${who} invited ${text(d.email) ?? 'someone'} to be an operator`;
    case 'remove_operator':
      return `${who} removed ${text(d.email) ?? 'someone'} from the operators`;
    case 'operator_sign_in':
      return `${who} signed in to the console`;
    case 'create_promotion_code':
      return `${who} created the promotion code ${text(d.code) ?? ''}`.trimEnd();
    case 'deactivate_promotion_code':
      return `${who} turned off the promotion code ${text(d.code) ?? ''}`.trimEnd();
    case 'import_member':
      return `${who} imported ${member} from the payment provider`;
    case 'adopt_tradingview_access':
      return `${who} adopted existing TradingView access for ${member}`;
    case 'payments.replay_event':
      return `${who} applied the payment event ${text(d.target) ?? ''} again`.replace(/ {2}/, ' ');
    case 'tradingview.retry_all_failed':
      return `${who} retried every failed TradingView grant${count(d.retried) !== null ? ` (${count(d.retried)})` : ''}`;
    case 'tradingview.revoke_unpaid':
      return `${who} removed the TradingView access of ${text(d.target) ?? 'a username'}, which no paying member holds`;
    case 'tradingview.grant_missing':
      return `${who} granted ${possessive} missing TradingView access`;
    case 'tradingview.set_script_plans':
      return `${who} chose which plans grant the script ${text(d.scriptId) ?? ''}`.trimEnd();
    case 'tradingview.sync_scripts':
      return `${who} read the scripts from TradingView again`;
    case 'discord.retry_now':
      return `${who} retried a Discord account’s roles`;
    case 'discord.run_audit':
      return `${who} ran the Discord audit`;
    case 'catalogue_publish': {
      if (text(d.error)) return `${who} tried to publish the prices to Stripe: ${text(d.error)}`;
      if (d.mode === 'sandbox') return `${who} published the prices in the sandbox (nothing is sent to Stripe)`;
      const prices = count(d.prices);
      const created = count(d.created);
      return `${who} published ${prices === null ? 'the prices' : plural(prices, 'price')} to Stripe${created ? ` (${created} new)` : ''}`;
    }
    case 'export_csv':
      return `${who} downloaded the ${text(d.export)?.replace('-', ' ') ?? 'data'} as CSV`;
    default: {
      const words = entry.action.replace(/^[a-z]+\./, '').replaceAll('_', ' ');
      return `${who}: ${words}${entry.targetEmail ? ` (${entry.targetEmail})` : ''}`;
    }
  }
}
