import { countdownTitle } from '@shared/campaign';
import { useSiteSettings } from '@client/lib/site-settings';
import { useSale } from '@client/lib/use-sale';
import { OFFER_BAR_CLASS, SaleCountdown } from './sale-countdown';

export const EU_OFFER_TEXT = 'This special offer is only available through the ad you saw.';

/** The thin bar above the navigation: the EU offer note (no countdown), the sale countdown, or nothing once the sale is over. */
export function OfferBar({ isEu }: { isEu: boolean }) {
  const settings = useSiteSettings();
  const sale = useSale();
  if (!isEu) return sale.running ? <SaleCountdown endsAt={sale.endsAt.toISOString()} title={countdownTitle(settings)} /> : null;
  return (
    <div className={`${OFFER_BAR_CLASS} text-center text-xs font-semibold text-white sm:text-sm`} data-testid="eu-offer">
      {EU_OFFER_TEXT}
    </div>
  );
}
