import { lazy, Suspense } from 'react';
import { Spinner } from '@client/components/ui/spinner';
import { SandboxToolsPage } from '@client/features/admin/sandbox-tools';

export { OpsLayout } from '@client/features/admin/ops-layout';
export { PaymentsPage } from '@client/features/admin/payments';
export { TradingViewPage } from '@client/features/admin/tradingview';

// The mailbox keeps its own chunk (it is also /sandbox/mailbox): loaded when /admin/sandbox opens.
const SandboxMailbox = lazy(() => import('@client/features/sandbox/sandbox-mailbox-page').then((m) => ({ default: m.SandboxMailboxPage })));

/** /admin/sandbox: the sandbox tools with the sandbox mailbox below them (two features meet here, in app/). */
export function AdminSandboxPage() {
  return (
    <SandboxToolsPage
      mailbox={
        <Suspense fallback={<Spinner label="Loading mails..." />}>
          <SandboxMailbox />
        </Suspense>
      }
    />
  );
}
