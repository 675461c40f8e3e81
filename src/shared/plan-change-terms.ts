// What the plan-change dialog says about the money: what the credit is, what happens to any of it
// the new plan does not use, and whether the change is a downgrade (which the dialog does not
// present as its green primary action). Pure, from the provider's preview.
import type { UpgradePreview } from './api-contract';
import { formatMoney, planDisplayName, planPeriodInterval } from './plans';

export type PlanChangeTerms = {
  /** A shorter billing period than the current plan's: confirmed with a plain button, not the green one. */
  isDowngrade: boolean;
  /** What the credit is. */
  credit: string;
  /** What happens to the credit: used up today, or what is left kept for the next invoices. */
  unusedValue: string;
  /** Credit the new plan does not use today (minor units). */
  leftover: number;
};

/** A change to a plan billed over fewer months than the current one (yearly → monthly). */
export function isPlanDowngrade(currentPlan: UpgradePreview['currentPlan'], newPlan: UpgradePreview['newPlan']): boolean {
  const current = planPeriodInterval(currentPlan)?.months;
  const next = planPeriodInterval(newPlan)?.months;
  return current !== undefined && next !== undefined && next < current;
}

export function planChangeTerms(preview: UpgradePreview): PlanChangeTerms {
  const money = (minor: number) => formatMoney(minor, preview.currency);
  const current = planDisplayName(preview.currentPlan);
  const leftover = Math.max(0, preview.prorationCredit - preview.newPlanCharge);
  const credit =
    preview.prorationCredit > 0
      ? `The credit of ${money(preview.prorationCredit)} is what you paid for the rest of your current ${current} period, which you will not use: it is taken off the new plan's charge.`
      : `Your current ${current} period has no unused time left to credit.`;
  let unusedValue: string;
  if (leftover > 0) {
    unusedValue = `The new plan's charge is less than your credit: nothing is charged today, and the ${money(leftover)} left over stays on your account as credit and is taken off your next invoices. It is not paid out.`;
  } else if (preview.totalDue > 0) {
    unusedValue = `${preview.prorationCredit > 0 ? 'The credit is used in full. ' : ''}${money(preview.totalDue)} is charged today to the payment method on your subscription.`;
  } else {
    unusedValue = 'Nothing is charged today.';
  }
  return { isDowngrade: isPlanDowngrade(preview.currentPlan, preview.newPlan), credit, unusedValue, leftover };
}
