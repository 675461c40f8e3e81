import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { sandboxToolsSchema } from '@shared/admin-ops-contract';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { api } from '@client/lib/api/api-client';

const KEY = ['admin', 'sandbox'] as const;

/**
 * /admin/sandbox: the sandbox tools for operators (TradingView outage on and off, the portals
 * that simulate a renewal) and, below them, the sandbox mailbox the app shell passes in.
 */
export function SandboxToolsPage({ mailbox }: { mailbox?: ReactNode }) {
  const client = useQueryClient();
  const tools = useQuery({ queryKey: KEY, queryFn: () => api('/api/admin/sandbox', { schema: sandboxToolsSchema }), retry: false });
  const outage = useMutation({
    mutationFn: (down: boolean) => api('/api/admin/sandbox/tradingview-outage', { body: { down }, schema: sandboxToolsSchema }),
    onSuccess: (state) => client.setQueryData(KEY, state),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Sandbox tools</h1>
      {tools.isPending ? (
        <Spinner label="Loading..." />
      ) : tools.isError ? (
        <p role="alert" className="text-sm text-danger">
          {tools.error.message}
        </p>
      ) : (
        <>
          <Card aria-labelledby="sandbox-outage" className="space-y-3">
            <CardTitle id="sandbox-outage">TradingView outage</CardTitle>
            {tools.data.tradingViewOutage === null ? (
              <CardDescription>TradingView is the real service here: there is nothing to simulate.</CardDescription>
            ) : (
              <>
                <CardDescription>While the outage lasts, every call to the sandbox TradingView fails as an unreachable TradingView would.</CardDescription>
                <p className="text-sm">
                  Status: {tools.data.tradingViewOutage ? <Badge tone="red">Outage in progress</Badge> : <Badge tone="green">Up</Badge>}
                </p>
                {outage.isError ? (
                  <p role="alert" className="text-sm text-danger">
                    {outage.error.message}
                  </p>
                ) : null}
                <Button variant={tools.data.tradingViewOutage ? 'primary' : 'danger'} disabled={outage.isPending} onClick={() => outage.mutate(!tools.data.tradingViewOutage)}>
                  {tools.data.tradingViewOutage ? 'End outage' : 'Simulate TradingView outage'}
                </Button>
              </>
            )}
          </Card>
          <Card aria-labelledby="sandbox-renewals" className="space-y-3">
            <CardTitle id="sandbox-renewals">Simulate a renewal</CardTitle>
            <CardDescription>Open a customer's sandbox portal and use "Simulate period end" to renew now.</CardDescription>
            {tools.data.subscriptions.length === 0 ? <p className="text-sm text-muted">No sandbox subscriptions yet.</p> : null}
            <ul className="space-y-1 text-sm">
              {tools.data.subscriptions.map((subscription) => (
                <li key={`${subscription.customerId}-${subscription.planType}`} className="flex justify-between gap-3">
                  <span>
                    {subscription.email ?? 'unclaimed'} · {subscription.planType} · {subscription.status}
                  </span>
                  <Link className="text-primary underline-offset-4 hover:underline" to={`/sandbox/portal/${subscription.customerId}`}>
                    Open portal
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </>
      )}
      {mailbox}
    </div>
  );
}
