import { AlertCircle, RotateCw, Sparkles, type LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import type { ImageSize } from '@shared/content';
import { ContentImage } from '@client/components/content/content-image';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { ApiRequestError } from '@client/lib/api/api-client';
import { cn } from '@client/lib/cn';

/** A small card beside the reading column: a heading (with an optional icon) over a list. */
export function SidebarCard({ title, icon: Icon, children }: { title: string; icon?: LucideIcon; children: ReactNode }) {
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 text-sm font-semibold text-white">
        {Icon && <Icon aria-hidden="true" className="h-4 w-4 text-primary" />}
        {title}
      </h2>
      {children}
    </Card>
  );
}

export function NumberBadge({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <span className={cn('flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-primary/15 text-sm font-bold tabular-nums text-primary', className)}>
      {children}
    </span>
  );
}

type NumberedSectionProps = Omit<ComponentProps<'section'>, 'title'> & {
  number: number;
  title: string;
  /** The heading's id, which names the section. */
  titleId: string;
  image?: string;
  imageAlt?: string;
  /** The figure's intrinsic size, so it keeps its room while loading. */
  imageSize?: ImageSize;
};

/** A numbered section card of a long read: number and title, the section's figure, then `children`. */
export function NumberedSection({ number, title, titleId, image, imageAlt, imageSize, className, children, ...props }: NumberedSectionProps) {
  return (
    <section aria-labelledby={titleId} className={cn('rounded-2xl border border-border bg-card p-8', className)} {...props}>
      <div className="flex items-center gap-4">
        <NumberBadge>{number}</NumberBadge>
        <h2 id={titleId} className="text-xl font-semibold tracking-tight text-white">
          {title}
        </h2>
      </div>
      {image && (
        <figure className="mt-6">
          <ContentImage src={image} alt={imageAlt ?? ''} size={imageSize} className="w-full rounded-xl border border-border bg-black/20" />
          {imageAlt && <figcaption className="mt-2.5 text-center text-sm text-muted">{imageAlt}</figcaption>}
        </figure>
      )}
      {children}
    </section>
  );
}

/** The last tile of a card grid, saying more is on the way. */
export function ComingSoonCard({ title, text }: { title: string; text: string }) {
  return (
    <div className="flex min-h-64 flex-col items-center justify-center rounded-2xl border border-dashed border-border bg-card/30 p-6 text-center">
      <Sparkles aria-hidden="true" className="h-8 w-8 text-primary/70" />
      <h2 className="mt-3 text-base font-semibold text-white">{title}</h2>
      <p className="mt-1 max-w-56 text-sm leading-6 text-muted">{text}</p>
    </div>
  );
}

type LoadErrorCardProps = {
  error: unknown;
  onRetry: () => void;
  /** The caller decides which answers mean "not found"; those get their own words and no retry. */
  notFound: boolean;
  notFoundTitle: string;
  notFoundText: string;
  /** 1 when the error stands in for the whole page. */
  level?: 1 | 2;
};

/** A failed content load: 'not found' gets its own words, anything else the reason and a retry. */
export function LoadErrorCard({ error, onRetry, notFound, notFoundTitle, notFoundText, level = 2 }: LoadErrorCardProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <Card className="flex flex-col items-center px-8 py-14 text-center">
      <AlertCircle aria-hidden="true" className="h-10 w-10 text-muted" />
      <Heading className={cn('mt-4 font-bold text-white', level === 1 ? 'text-2xl' : 'text-xl')}>{notFound ? notFoundTitle : 'Something went wrong'}</Heading>
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
  );
}
