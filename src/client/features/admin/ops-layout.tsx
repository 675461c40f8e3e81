import { NavLink, Navigate, Outlet, useLocation } from 'react-router';
import { NotFound } from '@client/components/not-found';
import { PageSpinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api-client';
import { cn } from '@client/lib/cn';
import { useSiteSettings } from '@client/lib/site-settings';
import { AlertsBanner, useOperatorAlerts } from './alerts';

const LINKS = [
  { to: '/admin/tradingview', label: 'TradingView' },
  { to: '/admin/payments', label: 'Payments' },
] as const;

/**
 * A minimal console frame for the TradingView, payments and sandbox pages until the shared
 * console shell (admin-layout) takes them. The server decides who is an operator: visitors are
 * sent to sign in, members see the not-found page, as if there were no console.
 */
export function OpsLayout() {
  const location = useLocation();
  const { sandbox } = useSiteSettings();
  const alerts = useOperatorAlerts();
  if (alerts.isPending) return <PageSpinner label="Loading..." />;
  if (alerts.isError) {
    const status = alerts.error instanceof ApiRequestError ? alerts.error.status : 0;
    if (status === 401) return <Navigate to={`/auth?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
    if (status === 403) return <NotFound />;
    return (
      <p role="alert" className="p-10 text-danger">
        {alerts.error.message}
      </p>
    );
  }
  const links = sandbox.length ? [...LINKS, { to: '/admin/sandbox', label: 'Sandbox' }] : LINKS;
  return (
    <div className="mx-auto flex max-w-7xl gap-8 px-6 py-10">
      <nav aria-label="Operator console" className="w-48 shrink-0 space-y-1">
        <p className="mb-3 text-xs font-semibold uppercase tracking-wider text-muted">Operator console</p>
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className={({ isActive }) => cn('block rounded-lg px-3 py-2 text-sm hover:bg-white/5', isActive && 'bg-white/10 font-semibold')}>
            {link.label}
          </NavLink>
        ))}
      </nav>
      <div className="min-w-0 flex-1 space-y-6">
        <AlertsBanner alerts={alerts.data.alerts} />
        <Outlet />
      </div>
    </div>
  );
}
