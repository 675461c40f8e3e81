import { ChartNoAxesCombined, CreditCard, FileText, Filter, FlaskConical, Handshake, Import, KeyRound, LayoutDashboard, ListOrdered, Percent, Plug, ScrollText, ShoppingBag, Tag, UserMinus, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink, useRoutes } from 'react-router';
import { Brand } from '@client/components/brand';
import { NotFound } from '@client/components/not-found';
import { PageSpinner } from '@client/components/ui/spinner';
import { useAuth } from '@client/lib/auth-state';
import { cn } from '@client/lib/cn';
import { useOperatorStatus } from '@client/lib/operator';
import { useSiteSettings } from '@client/lib/site-settings';
import { adminChildRoutes } from './admin-routes';
import { AlertsBanner, useOperatorAlerts } from './alerts';
import { OperatorGate } from './operator-gate';
import { ContentPreviewProvider, type ContentPreviewRenderer } from './content';
import { IntegrationPagesProvider, type IntegrationPage } from './integration-pages';

// the integrations' pages (the app's registry) come after Members
const NAV_BEFORE_INTEGRATIONS = [
  { to: '/admin', label: 'Overview', icon: LayoutDashboard, end: true },
  { to: '/admin/members', label: 'Members', icon: Users, end: false },
];
const NAV = [
  { to: '/admin/payments', label: 'Payments', icon: CreditCard, end: false },
  { to: '/admin/plans', label: 'Plans', icon: ShoppingBag, end: false },
  { to: '/admin/price-lists', label: 'Price lists', icon: ListOrdered, end: false },
  { to: '/admin/sales', label: 'Sales', icon: Percent, end: false },
  { to: '/admin/promotion-codes', label: 'Promotion codes', icon: Tag, end: false },
  { to: '/admin/affiliates', label: 'Affiliates', icon: Handshake, end: false },
  { to: '/admin/content', label: 'Content', icon: FileText, end: false },
  { to: '/admin/imports', label: 'Import', icon: Import, end: false },
  { to: '/admin/audit-log', label: 'Audit log', icon: ScrollText, end: false },
  { to: '/admin/operators', label: 'Operators', icon: KeyRound, end: false },
  { to: '/admin/funnel', label: 'Funnel', icon: Filter, end: false },
  { to: '/admin/retention', label: 'Cancellations', icon: UserMinus, end: false },
  { to: '/admin/retention-report', label: 'Retention', icon: ChartNoAxesCombined, end: false },
];
const SANDBOX_NAV = { to: '/admin/sandbox', label: 'Sandbox', icon: FlaskConical, end: false };

/** The alerts that are on now, above every console page. */
function OperatorAlerts() {
  const alerts = useOperatorAlerts();
  return alerts.data ? <AlertsBanner alerts={alerts.data.alerts} /> : null;
}

export type { IntegrationPage };

const NO_INTEGRATION_PAGES: readonly IntegrationPage[] = [];

/**
 * The operator console (desktop): the server decides who is an operator; everyone else, signed
 * in or not, sees the ordinary 404 page, so the console does not reveal that it exists. A named
 * operator who has not proven enough yet is told what to do (operator-gate.tsx). The integrations'
 * pages, given by the app shell, follow Members in the nav.
 */
export function AdminLayout({ sandboxPage, integrationPages = NO_INTEGRATION_PAGES, contentPreview }: { sandboxPage?: ReactNode; integrationPages?: readonly IntegrationPage[]; contentPreview?: ContentPreviewRenderer }) {
  const { user, isLoading } = useAuth();
  const status = useOperatorStatus(user?.id ?? null);
  // The sandbox tools (simulated renewals, a TradingView outage, the mailbox) while any service is simulated.
  const withSandbox = useSiteSettings().sandbox.length > 0 && sandboxPage !== undefined;
  const integrationRoutes = integrationPages.map(({ path, element }) => ({ path: `${path}/*`, element }));
  const page = useRoutes([...(withSandbox ? [{ path: 'sandbox', element: sandboxPage }] : []), ...integrationRoutes, ...adminChildRoutes]);
  const integrationNav = integrationPages.map(({ path, label, icon }) => ({ to: `/admin/${path}`, label, icon: icon ?? Plug, end: false }));
  const withIntegrations = [...NAV_BEFORE_INTEGRATIONS, ...integrationNav, ...NAV];
  const nav = withSandbox ? [...withIntegrations, SANDBOX_NAV] : withIntegrations;

  if (isLoading || (user && status === null)) return <PageSpinner label="Loading..." />;
  if (!user || !status || status.standing === 'member') return <NotFound />;
  if (!status.operator) return <OperatorGate standing={status.standing} email={user.email} userId={user.id} />;

  return (
    // below 768 px the nav is a bar above the page that scrolls sideways, so a phone keeps the page's
    // width; on a wider screen the side nav scrolls on its own when it is taller than the window, and
    // the operator's address and the Member area link stay at its foot
    <div className="flex min-h-screen flex-col md:flex-row">
      <aside className="flex min-w-0 max-w-full flex-col border-b border-border bg-[#0a0f1c] md:fixed md:inset-y-0 md:left-0 md:z-30 md:w-60 md:border-b-0 md:border-r">
        <Link to="/admin" className="flex h-16 items-center border-b border-border px-6">
          <Brand />
        </Link>
        <nav aria-label="Operator console" className="overflow-x-auto px-3 py-2 md:min-h-0 md:flex-1 md:overflow-y-auto md:overflow-x-hidden md:py-5">
          <p className="hidden px-3 pb-2 text-[11px] font-semibold uppercase tracking-wider text-muted/70 md:block">Operator console</p>
          <ul className="flex w-max gap-1 md:block md:w-auto md:space-y-1">
            {nav.map(({ to, label, icon: Icon, end }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-3 whitespace-nowrap rounded-xl px-3 py-2.5 text-sm font-medium transition-colors',
                      isActive ? 'bg-primary/15 text-white ring-1 ring-inset ring-primary/30' : 'text-muted hover:bg-white/5 hover:text-white',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="h-4 w-4" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-auto hidden border-t border-border p-4 text-xs text-muted md:block">
          <p className="truncate">{user.email}</p>
          <Link to="/dashboard" className="mt-1 block text-primary hover:underline">
            Member area
          </Link>
        </div>
      </aside>
      <main className="min-w-0 flex-1 md:pl-60">
        <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 md:px-8 md:py-8">
          <OperatorAlerts />
          <IntegrationPagesProvider pages={integrationPages}>
            <ContentPreviewProvider render={contentPreview}>{page}</ContentPreviewProvider>
          </IntegrationPagesProvider>
        </div>
      </main>
    </div>
  );
}
