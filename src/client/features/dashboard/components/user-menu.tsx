import { ChevronDown, CreditCard, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { useAuth } from '@client/lib/auth-state';
import { useIsOperator } from '@client/lib/operator';

export function UserMenu({ email }: { email: string }) {
  const navigate = useNavigate();
  const { signOut, user } = useAuth();
  const operator = useIsOperator(user?.id ?? null);
  const initial = email.charAt(0).toUpperCase();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className="flex items-center gap-3 rounded-xl border border-border bg-card/60 py-1.5 pl-1.5 pr-3 text-left transition-colors hover:bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
      >
        <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-lg bg-gradient-to-br from-primary to-emerald-700 text-sm font-bold text-primary-foreground">
          {initial}
        </span>
        <span className="hidden min-w-0 flex-col lg:flex">
          <span className="max-w-48 truncate text-sm font-medium text-white">{email}</span>
          <span className="text-xs font-semibold text-primary">Premium</span>
        </span>
        <ChevronDown aria-hidden="true" className="h-4 w-4 text-muted" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate text-sm font-medium text-white">{email}</span>
          <span className="text-xs font-semibold text-primary">Premium</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/dashboard/settings?section=account')}>
          <UserRound aria-hidden="true" className="h-4 w-4 text-muted" />
          My Account
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/dashboard/settings?section=subscription')}>
          <CreditCard aria-hidden="true" className="h-4 w-4 text-muted" />
          Subscription
        </DropdownMenuItem>
        {operator ? (
          <DropdownMenuItem onSelect={() => navigate('/admin')}>
            <ShieldCheck aria-hidden="true" className="h-4 w-4 text-muted" />
            Operator console
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut('/')} className="text-red-300 data-[highlighted]:bg-red-500/10">
          <LogOut aria-hidden="true" className="h-4 w-4" />
          Log Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
