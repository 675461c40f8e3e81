import { useSiteSettings } from '@client/lib/site-settings';
import { OFFER_BAR_CLASS, SaleCountdown } from './sale-countdown';

export const EU_OFFER_TEXT = 'This special offer is only available through the ad you saw.';

/** The thin bar above the navigation: the EU offer note (no countdown), or the sale countdown. */
export function OfferBar({ isEu }: { isEu: boolean }) {
  const { saleEndsAt } = useSiteSettings();
  if (!isEu) return <SaleCountdown endsAt={saleEndsAt} />;
  return (
    <div className={`${OFFER_BAR_CLASS} text-center text-xs font-semibold text-white sm:text-sm`} data-testid="eu-offer">
      {EU_OFFER_TEXT}
    </div>
  );
}
