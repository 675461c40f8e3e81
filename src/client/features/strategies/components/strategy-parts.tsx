import { LoadErrorCard } from '@client/components/content/content-cards';
import { ApiRequestError } from '@client/lib/api/api-client';

/** A failed load of the strategies or of one strategy: 'not found' has nothing to retry. */
export function LoadError({ error, onRetry, notFoundTitle }: { error: unknown; onRetry: () => void; notFoundTitle: string }) {
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return <LoadErrorCard error={error} onRetry={onRetry} notFound={notFound} notFoundTitle={notFoundTitle} notFoundText="It may have been moved or removed." />;
}
