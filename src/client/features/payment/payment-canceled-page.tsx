import { ArrowLeft, RotateCcw, XCircle } from 'lucide-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@client/components/ui/button';
import { useSiteSettings } from '@client/lib/site-settings';
import { NoticeCard, PaymentLayout } from './components/payment-layout';

export const PAYMENT_CANCELED_TEXTS = {
  title: 'Payment Canceled',
  body: 'Your payment was canceled and you have not been charged. You can pick a plan again whenever you are ready.',
  back: 'Back',
  tryAgain: 'Try Again',
} as const;

/** Where Try Again leads: the pricing section of the home page the buyer came from. */
export function pricingPathFor(from: string | null): string {
  return from === '/eu' ? '/eu#prices' : '/#prices';
}

/** /payment-canceled?from=… : the provider's cancel page sends the buyer here. */
export function PaymentCanceledPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { supportEmail } = useSiteSettings();
  const home = pricingPathFor(params.get('from'));

  // History back: to a page of ours, or out to the payment provider's page. A fresh tab has
  // nothing to go back to, so it gets the home page the buyer would have come from.
  const canGoBack = location.key !== 'default' || window.history.length > 1;
  const goBack = () => void (canGoBack ? navigate(-1) : navigate(params.get('from') === '/eu' ? '/eu' : '/'));

  return (
    <PaymentLayout>
      <NoticeCard
        icon={<XCircle aria-hidden="true" className="h-7 w-7 text-muted" />}
        title={PAYMENT_CANCELED_TEXTS.title}
        actions={
          <>
            <Button variant="outline" size="lg" onClick={goBack}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              {PAYMENT_CANCELED_TEXTS.back}
            </Button>
            <Button size="lg" onClick={() => void navigate(home)}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              {PAYMENT_CANCELED_TEXTS.tryAgain}
            </Button>
          </>
        }
      >
        <p>{PAYMENT_CANCELED_TEXTS.body}</p>
        <p className="mt-3">
          Questions about a plan? Write to{' '}
          <a href={`mailto:${supportEmail}`} className="text-primary underline-offset-4 hover:underline">
            {supportEmail}
          </a>
          .
        </p>
      </NoticeCard>
    </PaymentLayout>
  );
}
