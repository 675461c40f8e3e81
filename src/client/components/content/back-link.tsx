import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@client/lib/cn';

const BACK_CLASS = 'inline-flex items-center gap-2 text-sm font-medium text-muted transition-colors hover:text-white';

/** "← Back to …": a link to `to`, or a button running `onClick` when going back changes no URL. */
export function BackLink({ children, className, ...target }: { children: ReactNode; className?: string } & ({ to: string } | { onClick: () => void })) {
  const content = (
    <>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {children}
    </>
  );
  return 'to' in target ? (
    <Link to={target.to} className={cn(BACK_CLASS, className)}>
      {content}
    </Link>
  ) : (
    <button type="button" onClick={target.onClick} className={cn(BACK_CLASS, className)}>
      {content}
    </button>
  );
}
