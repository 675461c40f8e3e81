import type { UpgradePreview } from '@shared/api-contract';
import { planChangeTerms } from '@shared/plan-change-terms';
import { formatMoney, planDisplayName } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent } from '@client/components/ui/dialog';

export const UPGRADE_DIALOG_TEXTS = {
  title: 'Confirm Plan Change',
  credit: 'Credit for unused time',
  charge: 'New plan charge',
  total: 'Total due today',
  confirm: 'Confirm Change',
  confirming: 'Updating Plan...',
} as const;

/** Shows what a plan change costs now (proration) and asks the member to confirm it. */
export function UpgradeConfirmDialog({
  preview,
  pending,
  onConfirm,
  onCancel,
}: {
  preview: UpgradePreview | null;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const terms = preview ? planChangeTerms(preview) : null;
  return (
    <Dialog open={preview !== null} onOpenChange={(open) => !open && !pending && onCancel()}>
      {preview && terms ? (
        <DialogContent
          title={UPGRADE_DIALOG_TEXTS.title}
          description={
            <>
              Change from <strong className="text-foreground">{planDisplayName(preview.currentPlan)}</strong> to{' '}
              <strong className="text-foreground">{planDisplayName(preview.newPlan)}</strong>. The new plan starts right away.
            </>
          }
        >
          <dl className="space-y-3 rounded-xl border border-border bg-black/20 p-4 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-muted">{UPGRADE_DIALOG_TEXTS.credit}</dt>
              <dd className="font-medium text-primary" data-testid="preview-credit">
                −{formatMoney(preview.prorationCredit, preview.currency)}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-muted">{UPGRADE_DIALOG_TEXTS.charge}</dt>
              <dd className="font-medium" data-testid="preview-charge">
                {formatMoney(preview.newPlanCharge, preview.currency)}
              </dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-border pt-3 text-base">
              <dt className="font-semibold">{UPGRADE_DIALOG_TEXTS.total}</dt>
              <dd className="font-bold" data-testid="preview-total">
                {formatMoney(preview.totalDue, preview.currency)}
              </dd>
            </div>
          </dl>
          <div className="mt-3 space-y-2 text-xs text-muted" data-testid="preview-terms">
            <p>{terms.credit}</p>
            <p>{terms.unusedValue}</p>
          </div>
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="ghost" disabled={pending} onClick={onCancel}>
              Cancel
            </Button>
            {/* a downgrade is offered, not promoted: the green primary button is for moving up */}
            <Button variant={terms.isDowngrade ? 'outline' : 'primary'} disabled={pending} onClick={onConfirm}>
              {pending ? UPGRADE_DIALOG_TEXTS.confirming : UPGRADE_DIALOG_TEXTS.confirm}
            </Button>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
