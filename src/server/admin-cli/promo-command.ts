// `npm run admin -- promo create|list|deactivate|sync`: promotion codes from the command line,
// through the same service as the console (validated, audited as the command line, mirrored at
// the payment provider the configuration names).
import { PLAN_TYPES } from '@shared/plans';
import { discountLabel, durationLabel, type PromotionTermsInput } from '@shared/promotions';
import type { PromotionItem } from '@shared/promotions-contract';
import { formatMoney } from '@shared/plans';
import type { PromotionsService } from '../modules/promotions/promotions.service';
import { ApiError } from '../http/errors';

export const PROMO_USAGE = [
  'usage: npm run admin -- promo create CODE (--percent-off N | --amount-off CENTS --currency usd)',
  '         [--duration once|repeating|forever] [--months N] [--plans monthly,quarterly]',
  '         [--first-time | --churned-only] [--max-redemptions N] [--expires YYYY-MM-DD]',
  '       (--churned-only: win-back, only for members whose access ended)',
  '       npm run admin -- promo list',
  '       npm run admin -- promo deactivate CODE',
  '       npm run admin -- promo sync [CODE]      (mirror at the payment provider again)',
  `plans: ${PLAN_TYPES.join(', ')}`,
].join('\n');

type Result = { output: string; exitCode: number };

const VALUE_FLAGS = ['--percent-off', '--amount-off', '--currency', '--duration', '--months', '--plans', '--max-redemptions', '--expires'] as const;

/** The flags after `promo create CODE`, as the rules' input; a flag it does not know is an error. */
export function parseCreateFlags(code: string, flags: readonly string[]): PromotionTermsInput | string {
  const values = new Map<string, string>();
  let firstTime = false;
  let churnedOnly = false;
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index]!;
    if (flag === '--first-time') {
      firstTime = true;
      continue;
    }
    if (flag === '--churned-only') {
      churnedOnly = true;
      continue;
    }
    if (!(VALUE_FLAGS as readonly string[]).includes(flag)) return `Unknown option ${flag}.`;
    const value = flags[index + 1];
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value.`;
    values.set(flag, value);
    index += 1;
  }
  const number = (flag: string) => (values.has(flag) ? Number(values.get(flag)) : null);
  return {
    code,
    percentOff: number('--percent-off'),
    amountOff: number('--amount-off'),
    currency: values.get('--currency') ?? null,
    duration: values.get('--duration') ?? null,
    durationInMonths: number('--months'),
    plans: values.get('--plans')?.split(',').map((plan) => plan.trim()).filter(Boolean) ?? null,
    firstTimeOnly: firstTime,
    churnedOnly,
    maxRedemptions: number('--max-redemptions'),
    expires: values.get('--expires') ?? null,
  };
}

const money = (lines: PromotionItem['revenue']) => (lines.length === 0 ? '$0.00' : lines.map((line) => formatMoney(line.amount, line.currency)).join(' + '));

function providerText(item: PromotionItem): string {
  if (item.provider.state === 'mirrored') return `at ${item.provider.kind} as ${item.provider.promotionCodeId}`;
  const provider = item.provider.kind ?? 'the payment provider';
  return `NOT YET at ${provider}${item.provider.error ? ` (${item.provider.error})` : ''}: retry with npm run admin -- promo sync ${item.code}`;
}

/** One line per code: what it gives, for which plans, where it stands, what it brought in. */
export function describePromotion(item: PromotionItem): string {
  const limits = [
    item.plans ? `plans ${item.plans.join(',')}` : 'all plans',
    item.firstTimeOnly ? 'first-time buyers' : null,
    item.churnedOnly ? 'returning members only' : null,
    item.maxRedemptions !== null ? `max ${item.maxRedemptions}` : null,
    item.expiresAt ? `expires ${item.expiresAt.slice(0, 10)}` : null,
  ].filter(Boolean);
  return `${item.code}  ${discountLabel(item)} ${durationLabel(item)}  ${limits.join(', ')}  [${item.status}]  ${item.redemptions} redemption${item.redemptions === 1 ? '' : 's'}, revenue ${money(item.revenue)}  ${providerText(item)}`;
}

export async function runPromoCommand(promotions: PromotionsService, operator: string, args: readonly string[]): Promise<Result> {
  const [command, code, ...rest] = args;
  try {
    if (command === 'list' && code === undefined) {
      const items = await promotions.list();
      return { output: items.length ? items.map(describePromotion).join('\n') : 'No promotion codes yet.', exitCode: 0 };
    }
    if (command === 'create' && code !== undefined) {
      const input = parseCreateFlags(code, rest);
      if (typeof input === 'string') return { output: `${input}\n${PROMO_USAGE}`, exitCode: 2 };
      const item = await promotions.create(input, operator);
      return { output: `Created ${describePromotion(item)}`, exitCode: item.provider.state === 'mirrored' ? 0 : 1 };
    }
    if (command === 'deactivate' && code !== undefined && rest.length === 0) {
      return { output: `Deactivated ${describePromotion(await promotions.deactivate(code, operator))}`, exitCode: 0 };
    }
    if (command === 'sync' && rest.length === 0) {
      if (code !== undefined) return { output: describePromotion(await promotions.sync(code)), exitCode: 0 };
      return { output: `${await promotions.syncPending()} promotion code(s) mirrored at the payment provider.`, exitCode: 0 };
    }
  } catch (error) {
    // The service's refusals (bad terms, a taken or unknown code) are the operator's to fix.
    if (error instanceof ApiError && error.status < 500) return { output: error.message, exitCode: 2 };
    throw error;
  }
  return { output: PROMO_USAGE, exitCode: 2 };
}
