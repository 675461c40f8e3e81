// The promotion code on the sandbox checkout page, as on Stripe's: the applied code's line with
// what it takes off, or (when the shop applied none) an "Add promotion code" field.
import { Tag } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { formatMoney } from '@shared/plans';
import { durationLabel } from '@shared/promotions';
import type { SandboxCheckout } from '@shared/sandbox-contract';
import { Button } from '@client/components/ui/button';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useApplySandboxPromotionCode } from '../api/apply-sandbox-promotion-code';

/** The checkout as the totals see it: its price less the code's discount (tax is computed on that). */
export function afterDiscount<T extends Pick<SandboxCheckout, 'amount' | 'discount'>>(checkout: T): T {
  return { ...checkout, amount: checkout.amount - (checkout.discount?.amount ?? 0) };
}

/** The applied code's line of the order summary. */
export function DiscountRow({ checkout }: { checkout: SandboxCheckout }) {
  const discount = checkout.discount;
  if (!discount) return null;
  return (
    <div className="flex justify-between gap-4 p-4">
      <dt className="flex items-center gap-2">
        <Tag className="h-3.5 w-3.5" aria-hidden="true" />
        <span>
          {discount.code} <span className="text-muted">({durationLabel(discount)})</span>
        </span>
      </dt>
      <dd data-testid="checkout-discount">−{formatMoney(discount.amount, checkout.currency)}</dd>
    </div>
  );
}

/** "Add promotion code", while the checkout takes one and has none. */
export function PromotionCodeField({ checkout }: { checkout: SandboxCheckout }) {
  const id = useId();
  const apply = useApplySandboxPromotionCode(checkout.id);
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!checkout.allowPromotionCodes || checkout.discount || checkout.status !== 'open') return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await apply.mutateAsync(code.trim());
    } catch (failure) {
      setError(failure instanceof ApiRequestError && !failure.network ? failure.message : 'The code could not be checked. Please try again.');
    }
  }

  if (!open) {
    return (
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Add promotion code
      </Button>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-1.5" aria-label="Promotion code">
      <Label htmlFor={`${id}-code`}>Promotion code</Label>
      <div className="flex gap-2">
        <Input id={`${id}-code`} value={code} onChange={(event) => setCode(event.target.value)} maxLength={200} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        <Button type="submit" variant="outline" disabled={apply.isPending || code.trim() === ''}>
          Apply
        </Button>
      </div>
      <FieldError id={`${id}-error`} message={error ?? undefined} />
    </form>
  );
}
