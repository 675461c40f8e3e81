import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@client/components/ui/spinner';
import { useAuth } from '@client/lib/auth-state';
import { reportUnauthorizedAccess } from './api/report-unauthorized-access';
import { DashboardShell } from './components/dashboard-shell';
import { DesktopRequired } from './components/desktop-required';
import { SecurityPanel } from './components/security-panel';
import { useDashboardAccess } from './use-dashboard-access';
import { MOBILE_QUERY, useMediaQuery } from '@client/lib/use-media-query';
import { TrialNotice } from '@client/components/trial-notice';
import { DashboardDeliveryNotice } from '@client/components/tradingview-delivery';

/**
 * The protected, desktop-only member area: a loader until access is known, then
 * /auth for visitors, /premium-access-required for users without access, or the dashboard.
 */
export function DashboardLayout() {
  const { user, isLoading, refreshSession } = useAuth();
  const location = useLocation();
  const decision = useDashboardAccess(user?.id ?? null);
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const here = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (decision === 'denied') reportUnauthorizedAccess(here);
    // Reported once per decision, not again for every page the user had in the address bar.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [decision]);

  // The server no longer knows the session: refresh ours first, or /auth would send us straight back.
  const [sessionRefreshed, setSessionRefreshed] = useState(false);
  useEffect(() => {
    if (decision === 'signed-out') void refreshSession().finally(() => setSessionRefreshed(true));
  }, [decision, refreshSession]);

  if (isLoading || (decision === 'signed-out' && !sessionRefreshed)) return <PageSpinner label="Loading..." />;
  if (!user || decision === 'signed-out') return <Navigate to={`/auth?redirect=${encodeURIComponent(here)}`} replace />;
  if (decision === 'checking') return <PageSpinner label="Loading..." />;
  if (decision === 'denied') return <Navigate to="/premium-access-required" replace />;

  if (isMobile) return <DesktopRequired />;
  return (
    <DashboardShell email={user.email} panel={<SecurityPanel userId={user.id} />}>
      <TrialNotice recentRefusalOnly />
      {/* Settings tells the same in its account card */}
      {location.pathname.startsWith('/dashboard/settings') ? null : <DashboardDeliveryNotice className="mb-6" />}
      <Outlet />
    </DashboardShell>
  );
}
