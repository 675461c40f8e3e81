// `npm run admin -- affiliates add <email> | list [search]`: the affiliate program from the command
// line, through the same service as the console (audited as the command line).
import { formatMoney } from '@shared/plans';
import type { AffiliateAdminItem } from '@shared/affiliates-contract';
import { affiliateLink } from '@shared/affiliates';
import { ApiError } from '../http/errors';
import type { AffiliatesService } from '../modules/affiliates/affiliates.service';

export const AFFILIATES_USAGE = ['usage: npm run admin -- affiliates add <email>', '       npm run admin -- affiliates list [search]'].join('\n');

type Result = { output: string; exitCode: number };

export function describeAffiliate(item: AffiliateAdminItem, publicUrl: string): string {
  const money = (amount: number) => formatMoney(amount, item.currency);
  return [
    `${item.code}  ${item.email}  [${item.status}${item.flagged ? ', flagged' : ''}]  ${affiliateLink(publicUrl, item.code)}`,
    `  ${item.clicks} clicks, ${item.sales} sales; pending ${money(item.commissions.pending)}, approved ${money(item.commissions.approved)}, paid ${money(item.commissions.paid)}, reversed ${money(item.commissions.reversed)}`,
  ].join('\n');
}

export async function runAffiliatesCommand(affiliates: AffiliatesService, operator: string, args: readonly string[], publicUrl = ''): Promise<Result> {
  const [command, value, ...rest] = args;
  try {
    if (command === 'add' && value !== undefined && rest.length === 0) {
      const item = await affiliates.add(value, operator);
      return { output: `${item.email} is an affiliate.\n${describeAffiliate(item, publicUrl)}`, exitCode: 0 };
    }
    if (command === 'list' && rest.length === 0) {
      // every page: the console shows one at a time, the command prints them all
      const items: AffiliateAdminItem[] = [];
      for (let page = 1; ; page += 1) {
        const list = await affiliates.list(value ?? null, page);
        items.push(...list.affiliates);
        if (page * list.pageSize >= list.totals.affiliates) break;
      }
      return { output: items.length ? items.map((item) => describeAffiliate(item, publicUrl)).join('\n') : 'No affiliates yet.', exitCode: 0 };
    }
    return { output: AFFILIATES_USAGE, exitCode: 2 };
  } catch (error) {
    if (error instanceof ApiError) return { output: error.message, exitCode: 1 };
    throw error;
  }
}
