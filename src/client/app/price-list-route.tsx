import { useLocation } from 'react-router';
import { LandingPage } from '@client/features/landing/landing-page';
import { NotFoundPage } from '@client/features/not-found/not-found-page';
import { useSiteSettings } from '@client/lib/site-settings';
import { isPriceListPage } from '@shared/price-lists';

/**
 * /{slug}: a price list the vendor added (its plans, currency and header: decision record 054);
 * any other address is not found (the server answered it 404 already).
 */
export function PriceListOrNotFound() {
  const { pathname } = useLocation();
  const { catalogue } = useSiteSettings();
  return isPriceListPage(catalogue, pathname) ? <LandingPage /> : <NotFoundPage />;
}
