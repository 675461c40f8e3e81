import { Suspense, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Spinner } from '@client/components/ui/spinner';
import { lazyPart } from '@client/lib/lazy-part';
import { AffiliatesPage } from './affiliates';
import { AuditLogPage } from './audit-log-page';
import { CataloguePage } from './catalogue';
import { AdminNotFound } from './components/admin-not-found';
import { ContentEditorPage, ContentPage } from './content';
import { ImportsPage } from './imports';
import { MemberPage } from './member-page';
import { MembersPage } from './members-page';
import { OperatorsPage } from './operators-page';
import { OverviewPage } from './overview-page';
import { PaymentsPage } from './payments';
import { PromotionsPage } from './promotions';
import { RetentionPage } from './retention';

/**
 * A page in a chunk of its own, loaded when it opens: the pages that draw charts, whose library
 * (recharts, ~400 kB of the console's 580 before) loads with them, as the overview's chart does.
 */
function ownChunk(load: () => Promise<ComponentType>, loading: string) {
  const Page = lazyPart(load);
  return (
    <Suspense fallback={<Spinner label={loading} />}>
      <Page />
    </Suspense>
  );
}

/**
 * The console's pages under /admin, rendered inside the console's layout (the console is a chunk
 * that buyers never download; the chart pages have their own). Another operator page is one line here, e.g.
 * `{ path: 'payments', element: <PaymentsPage /> }`; its nav link is in admin-layout.tsx. An
 * integration's page is its own (the app registers it: src/client/app/admin-console.tsx).
 */
export const adminChildRoutes: RouteObject[] = [
  { index: true, element: <OverviewPage /> },
  { path: 'members', element: <MembersPage /> },
  { path: 'members/:memberId', element: <MemberPage /> },
  { path: 'payments', element: <PaymentsPage /> },
  // the catalogue's three pages (decision record 058); the old address opens Plans
  { path: 'catalogue', element: <Navigate to="/admin/plans" replace /> },
  { path: 'plans', element: <CataloguePage section="plans" /> },
  { path: 'price-lists', element: <CataloguePage section="price-lists" /> },
  { path: 'sales', element: <CataloguePage section="sales" /> },
  { path: 'promotion-codes', element: <PromotionsPage /> },
  { path: 'affiliates', element: <AffiliatesPage /> },
  { path: 'imports', element: <ImportsPage /> },
  { path: 'content', element: <ContentPage /> },
  { path: 'content/new', element: <ContentEditorPage /> },
  { path: 'content/:itemId', element: <ContentEditorPage /> },
  { path: 'audit-log', element: <AuditLogPage /> },
  { path: 'operators', element: <OperatorsPage /> },
  { path: 'funnel', element: ownChunk(() => import('./funnel').then((m) => m.FunnelPage), 'Loading the funnel...') },
  { path: 'retention', element: <RetentionPage /> },
  { path: 'retention-report', element: ownChunk(() => import('./retention-report').then((m) => m.RetentionReportPage), 'Loading the retention numbers...') },
  { path: '*', element: <AdminNotFound /> },
];
