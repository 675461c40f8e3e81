// The sandbox provider's hosted checkout page (/sandbox/checkout/:sessionId): what Stripe Checkout
// is for a live shop. It takes Stripe's test cards only and says so; no real money moves.
import { AlertCircle, ArrowLeft, CheckCircle2, ChevronDown, CreditCard, FlaskConical, Lock } from 'lucide-react';
import { useId, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { formatCardNumber, formatCvc, formatExpiry, validateCardInput, type CardErrors } from '@shared/card-input';
import { formatMoney, planDisplayName } from '@shared/plans';
import type { SandboxCheckout as Checkout } from '@shared/sandbox-contract';
import { formatDisplayDate } from '@shared/subscription-view';
import { trialEnd } from '@shared/trials';
import { emailSchema } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { PageSpinner, Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { cn } from '@client/lib/cn';
import { useSiteSettings } from '@client/lib/site-settings';
import { useSandboxCheckout } from './api/get-sandbox-checkout';
import { usePaySandboxCheckout } from './api/pay-sandbox-checkout';
import { billingOf } from './billing-period';
import { afterDiscount, DiscountRow, PromotionCodeField } from './components/checkout-promotion';
import { billingErrorsOf, billingRequest, BillingFields, checkoutTax, INITIAL_BILLING, TaxRow, type Billing } from './components/checkout-tax';

type Field = 'email' | 'cardNumber' | 'expiry' | 'cvc' | 'name';
type FieldErrors = Partial<Record<Field, string>>;

const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'Payment succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'Card declined' },
  { number: '4000 0000 0000 9995', outcome: 'Insufficient funds' },
  { number: '4000 0000 0000 0341', outcome: 'Succeeds; renewals fail' },
];

function productName(checkout: Pick<Checkout, 'planType' | 'mode'>, brand: string): string {
  return checkout.mode === 'payment' ? `${brand} ${planDisplayName(checkout.planType)} access` : `${brand} ${planDisplayName(checkout.planType)} plan`;
}

function SandboxNote() {
  return (
    <p className="inline-flex items-center gap-2 rounded-full border border-yellow-500/40 bg-yellow-500/10 px-3 py-1 text-xs font-semibold text-yellow-300">
      <FlaskConical className="h-3.5 w-3.5" aria-hidden="true" />
      Sandbox — no real money
    </p>
  );
}

function TestCards() {
  return (
    <details className="group rounded-xl border border-border bg-black/20 p-4 text-sm">
      <summary className="flex cursor-pointer list-none items-center justify-between font-medium text-foreground">
        Test cards
        <ChevronDown className="h-4 w-4 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <p className="mt-2 text-muted">Any future expiry date, any 3-digit CVC and any name work.</p>
      <ul className="mt-2 space-y-1">
        {TEST_CARDS.map((card) => (
          <li key={card.number} className="flex justify-between gap-4">
            <span className="font-mono text-foreground">{card.number}</span>
            <span className="text-muted">{card.outcome}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Field({
  id,
  label,
  error,
  className,
  ...input
}: { id: string; label: string; error?: string | undefined; className?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${id}-error`;
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

function Summary({ checkout, country }: { checkout: Checkout; country: string }) {
  const { brandName } = useSiteSettings();
  const price = formatMoney(checkout.amount, checkout.currency);
  return (
    <section aria-label="Order summary" className="space-y-6">
      <a href={checkout.cancelUrl} className="inline-flex items-center gap-2 text-sm text-muted hover:text-foreground">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        Cancel and return to {brandName}
      </a>
      <div className="space-y-2">
        <p className="text-sm font-medium text-muted">{checkout.mode === 'subscription' ? `Subscribe to ${productName(checkout, brandName)}` : `Pay ${brandName}`}</p>
        <p className="flex items-baseline gap-2">
          <span className="text-4xl font-bold tracking-tight" data-testid="checkout-price">
            {price}
          </span>
          <span className="text-sm text-muted">{billingOf(checkout)}</span>
        </p>
      </div>
      <dl className="divide-y divide-border rounded-xl border border-border text-sm">
        <div className="flex justify-between gap-4 p-4">
          <dt className="text-foreground">{productName(checkout, brandName)}</dt>
          <dd>{price}</dd>
        </div>
        {checkout.trialDays ? (
          <div className="flex justify-between gap-4 p-4">
            <dt>{checkout.trialDays}-day free trial</dt>
            <dd>−{price}</dd>
          </div>
        ) : null}
        <DiscountRow checkout={checkout} />
        <TaxRow checkout={afterDiscount(checkout)} country={country} />
        <div className="flex justify-between gap-4 p-4 font-semibold">
          <dt>Total due today</dt>
          <dd data-testid="due-today">{checkout.trialDays ? formatMoney(0, checkout.currency) : formatMoney(checkoutTax(afterDiscount(checkout), country)?.total ?? afterDiscount(checkout).amount, checkout.currency)}</dd>
        </div>
      </dl>
      {checkout.trialDays ? <p className="text-sm text-muted">{trialChargeText(checkout, price)}</p> : null}
      <PromotionCodeField checkout={checkout} />
      <div className="space-y-3">
        <SandboxNote />
        <TestCards />
      </div>
    </section>
  );
}

function PaymentForm({ checkout, billing, onBillingChange, onPaid }: { checkout: Checkout; billing: Billing; onBillingChange: (billing: Billing) => void; onPaid: (url: string) => void }) {
  const id = useId();
  const pay = usePaySandboxCheckout(checkout.id);
  const [values, setValues] = useState({ email: checkout.customerEmail ?? '', cardNumber: '', expiry: '', cvc: '', name: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [billingErrors, setBillingErrors] = useState<{ billingCountry?: string; taxId?: string }>({});
  const total = formatMoney(checkoutTax(afterDiscount(checkout), billing.country)?.total ?? afterDiscount(checkout).amount, checkout.currency);
  const processing = pay.isPending;
  const price = formatMoney(checkout.amount, checkout.currency);

  function change(field: Field, value: string) {
    const formatted = field === 'cardNumber' ? formatCardNumber(value) : field === 'expiry' ? formatExpiry(value) : field === 'cvc' ? formatCvc(value) : value;
    setValues((current) => ({ ...current, [field]: formatted }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFailure(null);
  }

  function validate(): FieldErrors {
    const found: FieldErrors & CardErrors = validateCardInput(values, new Date());
    if (!checkout.customerEmail) {
      const email = emailSchema.safeParse(values.email);
      if (!email.success) found.email = email.error.issues[0]?.message ?? 'Please enter a valid email address.';
    }
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (processing) return;
    const found = validate();
    setErrors(found);
    setFailure(null);
    if (Object.values(found).some(Boolean)) return;
    try {
      setBillingErrors({});
      const result = await pay.mutateAsync({ ...values, email: checkout.customerEmail ? null : values.email, ...billingRequest(checkout, billing) });
      onPaid(result.redirectUrl);
    } catch (error) {
      // Declines and server-side checks come back as one message, shown above the button.
      if (error instanceof ApiRequestError) {
        setFailure(error.network ? 'We could not reach the payment service. Check your connection and try again.' : error.message);
        setBillingErrors(billingErrorsOf(error.details));
      } else {
        setFailure('Something went wrong. Please try again.');
      }
    }
  }

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    value: values[name],
    error: errors[name],
    disabled: processing,
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
  });

  return (
    <Card className="space-y-5 p-6 sm:p-8">
      <h1 className="text-xl font-semibold">Pay with card</h1>
      <form noValidate onSubmit={submit} className="space-y-4" aria-busy={processing}>
        {checkout.customerEmail ? (
          <Field {...field('email')} label="Email" type="email" readOnly aria-readonly="true" disabled className="opacity-90" />
        ) : (
          <Field {...field('email')} label="Email" type="email" autoComplete="email" placeholder="you@example.com" maxLength={254} />
        )}
        <Field {...field('cardNumber')} label="Card number" inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" />
        <div className="grid grid-cols-2 gap-4">
          <Field {...field('expiry')} label="Expiry" inputMode="numeric" autoComplete="cc-exp" placeholder="MM / YY" />
          <Field {...field('cvc')} label="CVC" inputMode="numeric" autoComplete="cc-csc" placeholder="123" />
        </div>
        <Field {...field('name')} label="Name on card" autoComplete="cc-name" placeholder="Full name on card" maxLength={200} />
        <BillingFields checkout={checkout} billing={billing} onChange={onBillingChange} disabled={processing} errors={billingErrors} />

        {failure ? (
          <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger/40 bg-danger/10 p-3 text-sm text-red-300">
            <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <span>{failure}</span>
          </div>
        ) : null}

        <Button type="submit" size="lg" className="w-full" disabled={processing}>
          {processing ? (
            <>
              <Spinner className="h-4 w-4 border-primary-foreground/30 border-t-primary-foreground" />
              Processing…
            </>
          ) : (
            <>
              <Lock className="h-4 w-4" aria-hidden="true" />
              {checkout.trialDays ? 'Start free trial' : `Pay ${total}`}
            </>
          )}
        </Button>
      </form>
      <p className="flex items-center justify-center gap-2 text-xs text-muted">
        <CreditCard className="h-3.5 w-3.5" aria-hidden="true" />
        {checkout.trialDays ? trialChargeText(checkout, price) : checkout.mode === 'subscription' ? `You will be charged ${price} ${billingOf(checkout)} until you cancel.` : 'One payment, no renewals.'}
      </p>
    </Card>
  );
}

/** When a trial's first charge comes if the buyer starts it now. */
function trialChargeText(checkout: Checkout, price: string): string {
  const firstCharge = formatDisplayDate(trialEnd(new Date(), checkout.trialDays ?? 0));
  return `Nothing is charged today. ${price} ${billingOf(checkout)} from ${firstCharge} until you cancel; cancel before then and you pay nothing.`;
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="max-w-md space-y-4 text-center">
        <h1 className="text-xl font-semibold">{title}</h1>
        {children}
      </Card>
    </main>
  );
}

/** The hosted checkout for one session; `onPaid` moves the browser on (window.location by default). */
export function SandboxCheckout({ sessionId, onPaid = (url) => window.location.assign(url) }: { sessionId: string; onPaid?: (url: string) => void }) {
  const { brandName, sandbox } = useSiteSettings();
  const [billing, setBilling] = useState(INITIAL_BILLING);
  // A live shop has no sandbox checkout: nothing to load.
  const available = sandbox.includes('payments');
  const checkout = useSandboxCheckout(sessionId, available);
  if (available && checkout.isPending) return <PageSpinner label="Loading checkout…" />;
  if (!available || checkout.isError) {
    const missing = !available || (checkout.error instanceof ApiRequestError && checkout.error.status === 404);
    return (
      <Notice title={missing ? 'Checkout not found' : 'Checkout unavailable'}>
        <p className="text-sm text-muted">{missing ? 'This payment link is not valid. Please start again from the shop.' : 'We could not load this checkout. Please try again.'}</p>
        <Button asChild variant="outline">
          <a href="/">Back to {brandName}</a>
        </Button>
      </Notice>
    );
  }
  const data = checkout.data;
  if (!data) return null;
  if (data.status === 'complete') {
    return (
      <Notice title="This checkout is already paid">
        <CheckCircle2 className="mx-auto h-10 w-10 text-primary" aria-hidden="true" />
        <p className="text-sm text-muted">Your payment went through. Continue to set up your access.</p>
        {data.successUrl ? (
          <Button asChild>
            <a href={data.successUrl}>Continue</a>
          </Button>
        ) : null}
      </Notice>
    );
  }
  if (data.status === 'expired') {
    return (
      <Notice title="This checkout has expired">
        <p className="text-sm text-muted">Checkout links are valid for 24 hours. Please start again from the shop.</p>
        <Button asChild variant="outline">
          <a href={data.cancelUrl}>Return to {brandName}</a>
        </Button>
      </Notice>
    );
  }
  return (
    <main className="min-h-screen bg-background">
      <div className="mx-auto grid max-w-5xl gap-10 px-6 py-10 md:grid-cols-2 md:gap-16 md:py-16">
        <Summary checkout={data} country={billing.country} />
        <PaymentForm checkout={data} billing={billing} onBillingChange={setBilling} onPaid={onPaid} />
      </div>
    </main>
  );
}

export function SandboxCheckoutPage() {
  const { sessionId = '' } = useParams();
  return <SandboxCheckout sessionId={sessionId} />;
}
