// Loaded only when a member previews a plan change, so the Radix dialog stays out of the landing bundle.
import type { UpgradePreview } from '@shared/api-contract';
import { formatMoney, planDisplayName } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent } from '@client/components/ui/dialog';

export function UpgradeDialog({
  preview,
  updating,
  onConfirm,
  onClose,
}: {
  preview: UpgradePreview;
  updating: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const money = (minor: number) => formatMoney(minor, preview.currency);
  return (
    <Dialog open onOpenChange={(open) => !open && !updating && onClose()}>
      <DialogContent
        title="Confirm Plan Change"
        description={`Switch from ${planDisplayName(preview.currentPlan)} to ${planDisplayName(preview.newPlan)}. Your current subscription stays active until the change succeeds.`}
      >
        <dl className="space-y-3 rounded-xl border border-border bg-black/20 p-4 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted">Credit for unused time</dt>
            <dd className="font-medium text-green-400" data-testid="preview-credit">
              −{money(preview.prorationCredit)}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted">{planDisplayName(preview.newPlan)} plan charge</dt>
            <dd className="font-medium" data-testid="preview-charge">
              {money(preview.newPlanCharge)}
            </dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-border pt-3 text-base">
            <dt className="font-semibold">Total due today</dt>
            <dd className="font-bold text-white" data-testid="preview-total">
              {money(preview.totalDue)}
            </dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-muted">The total is charged to the card on file when you confirm.</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="outline" onClick={onClose} disabled={updating}>
            Cancel
          </Button>
          <Button onClick={onConfirm} disabled={updating}>
            {updating ? 'Updating...' : 'Confirm Change'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
