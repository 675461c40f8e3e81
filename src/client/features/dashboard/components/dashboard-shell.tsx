import { BookOpen, Gift, LifeBuoy, LineChart, MessageCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Brand } from '@client/components/brand';
import { useSiteSettings } from '@client/lib/site-settings';
import { cn } from '@client/lib/cn';
import { UserMenu } from './user-menu';
import { WhatsNew } from './whats-new';

const NAV = [
  { to: '/dashboard/guides', label: 'Guides', icon: BookOpen },
  { to: '/dashboard/strategies', label: 'Strategies', icon: LineChart },
  { to: '/dashboard/discord', label: 'Discord', icon: MessageCircle },
  { to: '/dashboard/affiliate', label: 'Refer & earn', icon: Gift },
] as const;

/**
 * Sidebar, top bar and the page; the guard has already decided the user may be here. `panel` (the
 * Security Score) sits in the sidebar's flow above the help card, so it never covers the page.
 */
export function DashboardShell({ email, panel, children }: { email: string; panel?: ReactNode; children: ReactNode }) {
  const { supportEmail } = useSiteSettings();
  const { pathname } = useLocation();
  // /dashboard itself counts as Guides: it is where the index leads.
  const onIndex = pathname.replace(/\/+$/, '') === '/dashboard';

  return (
    <div className="flex min-h-screen">
      <aside className="fixed inset-y-0 left-0 z-30 flex w-64 flex-col border-r border-border bg-[#0a0f1c]">
        <Link to="/dashboard/guides" className="flex h-16 items-center border-b border-border px-6">
          <Brand />
        </Link>

        <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
          <nav aria-label="Dashboard" className="px-3 py-5">
            <p className="px-3 pb-2 text-[11px] font-semibold uppercase tracking-wider text-muted/70">Member area</p>
            <ul className="space-y-1">
              {NAV.map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    className={({ isActive }) => {
                      const active = isActive || (onIndex && to === '/dashboard/guides');
                      return cn(
                        'group flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium transition-colors',
                        active ? 'bg-primary/15 text-white ring-1 ring-inset ring-primary/30' : 'text-muted hover:bg-white/5 hover:text-white',
                      );
                    }}
                  >
                    {({ isActive }) => (
                      <>
                        <Icon
                          aria-hidden="true"
                          className={cn('h-4.5 w-4.5', isActive || (onIndex && to === '/dashboard/guides') ? 'text-primary' : 'text-muted group-hover:text-white')}
                        />
                        {label}
                      </>
                    )}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>

          <div className="mt-auto space-y-3 p-3">
            {panel}
            <div className="rounded-2xl border border-border bg-card p-4">
              <div className="flex items-center gap-2 text-sm font-semibold text-white">
                <LifeBuoy aria-hidden="true" className="h-4 w-4 text-primary" />
                Need help?
              </div>
              <p className="mt-1 text-xs leading-5 text-muted">Our support team replies within 24 hours on business days.</p>
              <a href={`mailto:${supportEmail}`} className="mt-2 block truncate text-xs font-medium text-primary hover:underline">
                {supportEmail}
              </a>
            </div>
          </div>
        </div>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col pl-64">
        <header className="sticky top-0 z-20 flex h-16 items-center justify-end gap-3 border-b border-border bg-background/80 px-8 backdrop-blur">
          <WhatsNew />
          <UserMenu email={email} />
        </header>
        <main className="flex-1 px-8 py-10">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </div>
  );
}
