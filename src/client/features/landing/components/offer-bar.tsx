import { countdownTitle } from '@shared/campaign';
import { useSiteSettings } from '@client/lib/site-settings';
import { rollingSaleEnd } from '@shared/catalogue';
import { useOwnListSale, useSale } from '@client/lib/use-sale';
import { OFFER_BAR_CLASS, SaleCountdown } from './sale-countdown';

export const EU_OFFER_TEXT = 'This special offer is only available through the ad you saw.';

/**
 * The thin bar above the navigation: the EU offer note (no countdown), the sale countdown, or nothing once the sale is over.
 * A vendor's own price list (`ownList`, the page at `page`) shows its header, if it has one, and the
 * countdown of its own sale while one runs with the countdown on, never the default page's.
 */
export function OfferBar({ isEu, header = null, ownList = false, page = '/' }: { isEu: boolean; header?: string | null; ownList?: boolean; page?: string }) {
  const settings = useSiteSettings();
  const sale = useSale();
  const own = useOwnListSale(page);
  if (ownList) {
    const countdown = own.sale?.countdown ? <SaleCountdown endsAt={(own.sale.endsAt === null ? rollingSaleEnd(own.now) : new Date(own.sale.endsAt)).toISOString()} title={countdownTitle({ saleLabel: own.sale.label })} /> : null;
    return (
      <>
        {header === null ? null : <HeaderBar testId="list-header" text={header} />}
        {countdown}
      </>
    );
  }
  if (!isEu) return sale.running ? <SaleCountdown endsAt={sale.endsAt.toISOString()} title={countdownTitle(settings)} /> : null;
  return <HeaderBar testId="eu-offer" text={header ?? EU_OFFER_TEXT} />;
}

function HeaderBar({ text, testId }: { text: string; testId: string }) {
  return (
    <div className={`${OFFER_BAR_CLASS} text-center text-xs font-semibold text-white sm:text-sm`} data-testid={testId}>
      {text}
    </div>
  );
}
