import { AlertCircle, ArrowLeft, Clock, Layers, ListOrdered, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DIFFICULTY_COLOURS, type Difficulty, type GuideSummary } from '@shared/content';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { ApiRequestError } from '@client/lib/api-client';

export const GUIDES_PATH = '/dashboard/guides';

/** Product cards open their feature list (product=); every other guide opens itself (guide=). */
export function guideHref(guide: Pick<GuideSummary, 'id' | 'type' | 'featureCount'>): string {
  return guide.type === 'product' && guide.featureCount > 0
    ? `${GUIDES_PATH}?product=${encodeURIComponent(guide.id)}`
    : `${GUIDES_PATH}?guide=${encodeURIComponent(guide.id)}`;
}

export const featureHref = (productId: string, featureId: string) =>
  `${GUIDES_PATH}?product=${encodeURIComponent(productId)}&feature=${encodeURIComponent(featureId)}`;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Difficulty in the colours of spec §9 (easy green, medium yellow, advanced red, product purple, tutorial blue). */
export function DifficultyBadge({ difficulty }: { difficulty: Difficulty }) {
  const colour = DIFFICULTY_COLOURS[difficulty];
  return (
    <Badge tone={colour} data-colour={colour}>
      {capitalise(difficulty)}
    </Badge>
  );
}

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-2 text-sm font-medium text-muted transition-colors hover:text-white">
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {children}
    </Link>
  );
}

export function ReadTime({ minutes }: { minutes: number }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <Clock aria-hidden="true" className="h-4 w-4" />
      {minutes} min read
    </span>
  );
}

export function CountLabel({ count, one, many, icon = 'layers' }: { count: number; one: string; many: string; icon?: 'layers' | 'list' }) {
  const Icon = icon === 'layers' ? Layers : ListOrdered;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon aria-hidden="true" className="h-4 w-4" />
      {count} {count === 1 ? one : many}
    </span>
  );
}

/** Feature count for products, section count for long reads; single pages show neither. */
export function GuideCount({ guide }: { guide: Pick<GuideSummary, 'featureCount' | 'sectionCount'> }) {
  if (guide.featureCount > 0) return <CountLabel count={guide.featureCount} one="feature" many="features" />;
  if (guide.sectionCount > 0) return <CountLabel count={guide.sectionCount} one="section" many="sections" icon="list" />;
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

/** A failed load: 'not found' gets its own words, anything else a retry. */
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
      <Card className="flex flex-col items-center px-8 py-14 text-center">
        <AlertCircle aria-hidden="true" className="h-10 w-10 text-muted" />
        <h1 className="mt-4 text-2xl font-bold text-white">{notFound ? notFoundTitle : 'Something went wrong'}</h1>
        <p className="mt-2 max-w-md text-sm leading-6 text-muted">
          {notFound ? notFoundText : error instanceof ApiRequestError ? error.message : 'This content could not be loaded. Please try again.'}
        </p>
        {!notFound && (
          <Button variant="secondary" className="mt-6" onClick={onRetry}>
            <RotateCw aria-hidden="true" className="h-4 w-4" />
            Try again
          </Button>
        )}
      </Card>
    </div>
  );
}
