// `npm run admin -- plans list | add | set-price | archive | publish | move-members`: the catalogue from the command line,
// through the same service as the console (checked, audited as the command line). Bad input exits
// 2 with the reason and saves nothing. A running server shows the change within MEMBER_CACHE_MS.
import { billingPeriodWords, findPlan, homeEntry, parseEvery, periodText, type BillingPeriod, type Catalogue } from '@shared/catalogue';
import { formatMoney } from '@shared/plans';
import { ApiError } from '../http/errors';
import type { CatalogueService } from '../modules/catalogue/catalogue.service';
import type { PriceMove } from '../modules/catalogue/price-moves';

export const PLANS_USAGE = [
  'usage: npm run admin -- plans list',
  '       npm run admin -- plans add <slug> --name <Name> --price <cents> (--every <N><d|w|m|y> | --once) [--list <slug>]',
  '       npm run admin -- plans set-price <slug> <cents> [--list <slug>]',
  '       npm run admin -- plans archive <slug>',
  '       npm run admin -- plans publish',
  '       npm run admin -- plans move-members <slug> [--list <slug>]',
].join('\n');

type Result = { output: string; exitCode: number };

const bad = (output: string): Result => ({ output, exitCode: 2 });

/** '$15.00 every week on /', one line per plan with every list's price. */
export function describePlans(catalogue: Catalogue): string {
  return [...catalogue.plans]
    .sort((a, b) => a.order - b.order)
    .map((plan) => {
      const every = plan.period === null ? 'one time (never expires)' : `every ${periodText(plan.period)}`;
      const prices = catalogue.priceLists
        .flatMap((list) => list.entries.filter((entry) => entry.plan === plan.slug).map((entry) => `${formatMoney(entry.price, list.currency)} on ${list.slug}`))
        .join(', ');
      const sales = catalogue.sales
        .flatMap((sale) => sale.prices.filter((entry) => entry.plan === plan.slug).map((entry) => `${sale.label} ${formatMoney(entry.price, 'usd')}${sale.endsAt ? ` until ${sale.endsAt}` : ' (rolling)'}`))
        .join(', ');
      return `${plan.slug}  ${plan.name}  ${every}  ${prices || 'on no price list'}${sales ? `  sale: ${sales}` : ''}${plan.archived ? '  [archived]' : ''}`;
    })
    .join('\n');
}

/** One line per member moved, then the count left as they were. */
function describeMove({ price, moved, alreadyMoved }: PriceMove): string {
  const to = `${formatMoney(price.amount, price.currency)} ${billingPeriodWords(price.period)}`;
  const lines = moved.map((member) => `${member.email}: ${formatMoney(member.from, price.currency)} → ${to} from ${member.renewsAt.slice(0, 10)} (mailed)`);
  const already = alreadyMoved ? ` ${alreadyMoved} already moved.` : '';
  return [...lines, `Moved ${moved.length} member${moved.length === 1 ? '' : 's'} of ${price.plan} on ${price.list} to ${to} at their next renewal.${already}`].join('\n');
}

/** `--flag value` pairs and bare flags; an unknown flag or one without its value is the reason. */
function parseFlags(flags: readonly string[], valued: readonly string[], bare: readonly string[]): Map<string, string> | string {
  const values = new Map<string, string>();
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index]!;
    if (bare.includes(flag)) {
      values.set(flag, '');
      continue;
    }
    if (!valued.includes(flag)) return `Unknown option ${flag}.`;
    const value = flags[index + 1];
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value.`;
    values.set(flag, value);
    index += 1;
  }
  return values;
}

/** Cents as written: a whole number (1500), nothing else. */
function parseCents(text: string | undefined): number | string {
  if (text === undefined) return 'A price in cents is required (e.g. 1500 for $15).';
  if (!/^-?\d+$/.test(text.trim())) return `A price is a whole number of cents; got "${text}".`;
  return Number(text);
}

export async function runPlansCommand(catalogue: CatalogueService, operator: string, args: readonly string[]): Promise<Result> {
  const [command, slug, ...rest] = args;
  try {
    if (command === 'list' && slug === undefined) return { output: describePlans(await catalogue.read()), exitCode: 0 };
    if (command === 'add' && slug !== undefined) {
      const flags = parseFlags(rest, ['--name', '--price', '--every', '--list'], ['--once']);
      if (typeof flags === 'string') return bad(flags);
      const name = flags.get('--name');
      if (!name) return bad('--name is required.');
      const price = parseCents(flags.get('--price'));
      if (typeof price === 'string') return bad(price);
      const every = flags.get('--every');
      if ((every === undefined) === !flags.has('--once')) return bad('Give the period with --every <N><d|w|m|y> (e.g. 1w), or --once for a one-time plan.');
      let period: BillingPeriod | null = null;
      if (every !== undefined) {
        const parsed = parseEvery(every);
        if (typeof parsed === 'string') return bad(parsed);
        period = parsed;
      }
      const list = flags.get('--list');
      const saved = await catalogue.addPlan(operator, { slug, name, price, period, ...(list === undefined ? {} : { list }) });
      return { output: `Added ${describePlans({ ...saved, plans: [findPlan(saved, slug)!] })}`, exitCode: 0 };
    }
    if (command === 'set-price' && slug !== undefined) {
      const [cents, ...others] = rest;
      const flags = parseFlags(others, ['--list'], []);
      if (typeof flags === 'string') return bad(flags);
      const price = parseCents(cents);
      if (typeof price === 'string') return bad(price);
      const saved = await catalogue.setPrice(operator, slug, price, flags.get('--list'));
      const home = homeEntry(saved, slug);
      const note = 'New buyers pay it; members keep the price they bought at.';
      return { output: `${slug} now costs ${formatMoney(price, home?.list.currency ?? 'usd')} on ${flags.get('--list') ?? '/'}. ${note}`, exitCode: 0 };
    }
    if (command === 'publish' && slug === undefined) {
      const published = await catalogue.publish(operator);
      if (published.mode === 'sandbox') return { output: 'Payments run in the sandbox: it charges the catalogue\'s prices itself, nothing to publish.', exitCode: 0 };
      const lines = published.prices.map(({ price, id, how }) => `${price.plan} on ${price.list}: ${formatMoney(price.amount, price.currency)} ${billingPeriodWords(price.period)} → ${id} (${how})`);
      return { output: [...lines, 'New buyers pay these Prices; members keep the Price they bought at.'].join('\n'), exitCode: 0 };
    }
    if (command === 'move-members' && slug !== undefined) {
      const flags = parseFlags(rest, ['--list'], []);
      if (typeof flags === 'string') return bad(flags);
      return { output: describeMove(await catalogue.moveMembers(operator, slug, flags.get('--list'))), exitCode: 0 };
    }
    if (command === 'archive' && slug !== undefined && rest.length === 0) {
      await catalogue.archivePlan(operator, slug);
      return { output: `Archived ${slug}: gone from the cards and plan changes; the members who hold it keep it.`, exitCode: 0 };
    }
    return bad(PLANS_USAGE);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return bad(error.message);
    throw error;
  }
}
