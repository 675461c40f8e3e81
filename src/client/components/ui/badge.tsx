import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

const badgeVariants = cva('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', {
  variants: {
    tone: {
      neutral: 'bg-white/10 text-foreground',
      green: 'bg-green-500/15 text-green-400',
      yellow: 'bg-yellow-500/15 text-yellow-300',
      red: 'bg-red-500/15 text-red-400',
      purple: 'bg-purple-500/15 text-purple-300',
      blue: 'bg-blue-500/15 text-blue-300',
      primary: 'bg-primary text-primary-foreground',
    },
  },
  defaultVariants: { tone: 'neutral' },
});

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export function Badge({ className, tone, ...props }: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
