import { AlertCircle, Clock, ListOrdered, RotateCw } from 'lucide-react';
import { DIFFICULTY_COLOURS, type StrategyDifficulty } from '@shared/content';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { ApiRequestError } from '@client/lib/api-client';

/** Difficulty in the colours of spec §9: easy green, medium yellow, advanced red. */
export function DifficultyBadge({ difficulty }: { difficulty: StrategyDifficulty }) {
  const colour = DIFFICULTY_COLOURS[difficulty];
  return (
    <Badge tone={colour} data-colour={colour}>
      {difficulty.charAt(0).toUpperCase() + difficulty.slice(1)}
    </Badge>
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

export function SectionCount({ count }: { count: number }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <ListOrdered aria-hidden="true" className="h-4 w-4" />
      {count} {count === 1 ? 'section' : 'sections'}
    </span>
  );
}

export function LoadError({ error, onRetry, notFoundTitle }: { error: unknown; onRetry: () => void; notFoundTitle: string }) {
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return (
    <Card className="flex flex-col items-center px-8 py-14 text-center">
      <AlertCircle aria-hidden="true" className="h-10 w-10 text-muted" />
      <h2 className="mt-4 text-xl font-bold text-white">{notFound ? notFoundTitle : 'Something went wrong'}</h2>
      <p className="mt-2 max-w-md text-sm leading-6 text-muted">
        {notFound ? 'It may have been moved or removed.' : error instanceof ApiRequestError ? error.message : 'This content could not be loaded. Please try again.'}
      </p>
      {!notFound && (
        <Button variant="secondary" className="mt-6" onClick={onRetry}>
          <RotateCw aria-hidden="true" className="h-4 w-4" />
          Try again
        </Button>
      )}
    </Card>
  );
}
