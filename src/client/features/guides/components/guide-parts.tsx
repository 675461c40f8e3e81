import type { ReactNode } from 'react';
import type { Guide, GuideSummary } from '@shared/content';
import { BackLink } from '@client/components/content/back-link';
import { LoadErrorCard } from '@client/components/content/content-cards';
import { FeatureCount, SectionCount } from '@client/components/content/content-meta';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useGuide } from '../api/get-guide';

export const GUIDES_PATH = '/dashboard/guides';

/** Product cards open their feature list (product=); every other guide opens itself (guide=). */
export function guideHref(guide: Pick<GuideSummary, 'id' | 'type' | 'featureCount'>): string {
  return guide.type === 'product' && guide.featureCount > 0
    ? `${GUIDES_PATH}?product=${encodeURIComponent(guide.id)}`
    : `${GUIDES_PATH}?guide=${encodeURIComponent(guide.id)}`;
}

export const featureHref = (productId: string, featureId: string) =>
  `${GUIDES_PATH}?product=${encodeURIComponent(productId)}&feature=${encodeURIComponent(featureId)}`;

/** A feature's place in its product as two digits: 01, 02, … */
export const featureNumber = (index: number) => String(index + 1).padStart(2, '0');

/** Feature count for products, section count for long reads; single pages show neither. */
export function GuideCount({ guide }: { guide: Pick<GuideSummary, 'featureCount' | 'sectionCount'> }) {
  if (guide.featureCount > 0) return <FeatureCount count={guide.featureCount} />;
  if (guide.sectionCount > 0) return <SectionCount count={guide.sectionCount} />;
  return null;
}

export function LoadingCards({ count = 6 }: { count?: number }) {
  return (
    <div role="status" aria-label="Loading" className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="h-80 animate-pulse rounded-2xl border border-border bg-card/60" />
      ))}
    </div>
  );
}

export function LoadingArticle() {
  return (
    <div role="status" aria-label="Loading" className="space-y-4">
      <div className="h-4 w-32 animate-pulse rounded bg-white/10" />
      <div className="h-10 w-2/3 animate-pulse rounded bg-white/10" />
      <div className="h-64 animate-pulse rounded-2xl border border-border bg-card/60" />
    </div>
  );
}

/** A failed load in place of the page, under the way back; an unknown or malformed id is 'not found'. */
export function LoadError({
  error,
  onRetry,
  notFoundTitle,
  notFoundText,
  back,
}: {
  error: unknown;
  onRetry: () => void;
  notFoundTitle: string;
  notFoundText: string;
  back: ReactNode;
}) {
  const notFound = error instanceof ApiRequestError && (error.status === 404 || error.status === 400);
  return (
    <div className="space-y-6">
      {back}
      <LoadErrorCard error={error} onRetry={onRetry} notFound={notFound} notFoundTitle={notFoundTitle} notFoundText={notFoundText} level={1} />
    </div>
  );
}

/** Loads guide `guideId` and renders it with `children`, given the "Back to Guides" link; until then, loading or the error. */
export function GuideLoader({ guideId, children }: { guideId: string; children: (guide: Guide, back: ReactNode) => ReactNode }) {
  const guide = useGuide(guideId);
  const back = <BackLink to={GUIDES_PATH}>Back to Guides</BackLink>;

  if (guide.isPending) return <LoadingArticle />;
  if (guide.isError) {
    return (
      <LoadError
        error={guide.error}
        onRetry={() => void guide.refetch()}
        notFoundTitle="Guide Not Found"
        notFoundText="The requested guide could not be found."
        back={back}
      />
    );
  }
  return children(guide.data, back);
}
