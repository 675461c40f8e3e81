import { useEffect } from 'react';
import { FeatureDocumentation } from './components/feature-documentation';
import { GuideView } from './components/guide-view';
import { GuidesOverview } from './components/guides-overview';
import { ProductFeatures } from './components/product-features';
import { useUrlSearchParams } from './use-url-search';

/**
 * /dashboard/guides, driven by its query parameters: none → overview, product → its
 * features, product + feature → that feature's documentation, guide → the guide itself.
 */
export function GuidesPage() {
  const params = useUrlSearchParams();
  const product = params.get('product');
  const feature = params.get('feature');
  const guide = params.get('guide');
  const view = product && feature ? `feature:${product}:${feature}` : product ? `product:${product}` : guide ? `guide:${guide}` : 'overview';

  // A new view starts at the top, as a new page would.
  useEffect(() => {
    window.scrollTo?.({ top: 0 });
  }, [view]);

  if (product && feature) return <FeatureDocumentation key={view} productId={product} featureId={feature} />;
  if (product) return <ProductFeatures productId={product} />;
  if (guide) return <GuideView guideId={guide} />;
  return <GuidesOverview />;
}
