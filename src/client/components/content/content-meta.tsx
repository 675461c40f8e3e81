import { Clock, Layers, ListOrdered, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { DIFFICULTY_COLOURS, type Difficulty } from '@shared/content';
import { Badge } from '@client/components/ui/badge';
import { cn } from '@client/lib/cn';

/** Difficulty in its colour (easy green, medium yellow, advanced red, product purple, tutorial blue). */
export function DifficultyBadge({ difficulty }: { difficulty: Difficulty }) {
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

function CountLabel({ count, one, many, icon: Icon }: { count: number; one: string; many: string; icon: LucideIcon }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon aria-hidden="true" className="h-4 w-4" />
      {count} {count === 1 ? one : many}
    </span>
  );
}

/** "1 feature", "3 features" */
export function FeatureCount({ count }: { count: number }) {
  return <CountLabel count={count} one="feature" many="features" icon={Layers} />;
}

/** "1 section", "3 sections" */
export function SectionCount({ count }: { count: number }) {
  return <CountLabel count={count} one="section" many="sections" icon={ListOrdered} />;
}

/** The muted line of facts under a title (read time, counts); headers pass a larger size. */
export function MetaRow({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted', className)}>{children}</div>;
}
