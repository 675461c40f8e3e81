import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { memberMailsAheadSchema, sandboxToolsSchema } from '@shared/admin-ops-contract';
import { WINBACK_DAYS_MAX } from '@shared/member-mails';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { api, ApiRequestError } from '@client/lib/api/api-client';
import { FormFooter, type FormResult } from '../components/form-footer';
import { dateTimeText } from '@client/lib/console-format';
import { CONSOLE_FIELD } from '@client/components/console/admin-page';

const KEY = ['admin', 'sandbox'] as const;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The member mails a pass `days` from now would write, written now: a demo's win-back mail
 * without waiting out its days. Each member still gets each mail once; the mailbox below shows them.
 */
function MemberMailsAheadCard() {
  const [days, setDays] = useState('7');
  const [result, setResult] = useState<FormResult>(null);
  const run = useMutation({ mutationFn: (ahead: number) => api('/api/admin/sandbox/member-mails', { body: { days: ahead }, schema: memberMailsAheadSchema }) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    try {
      const written = await run.mutateAsync(Number(days));
      setResult({ ok: true, message: `${plural(written.winback, 'win-back mail')} and ${plural(written.reminders, 'set-up reminder')} written, as of ${dateTimeText(written.asOf)}.` });
    } catch (error) {
      setResult({ ok: false, message: error instanceof ApiRequestError ? error.message : 'The member mails could not be run.' });
    }
  }

  return (
    <Card aria-labelledby="sandbox-member-mails" className="space-y-3">
      <CardTitle id="sandbox-member-mails">Member mails, days ahead</CardTitle>
      <CardDescription>Writes the win-back mails and set-up reminders that would go out this many days from now (the Cancellations page sets them). A member never gets the same mail twice.</CardDescription>
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        <label className="grid w-40 gap-1 text-sm">
          Days ahead
          <input className={CONSOLE_FIELD} type="number" min={1} max={WINBACK_DAYS_MAX} value={days} onChange={(event) => setDays(event.target.value)} />
        </label>
        <FormFooter label="Run member mails" busy={run.isPending} result={result} />
      </form>
    </Card>
  );
}

/**
 * /admin/sandbox: the sandbox tools for operators (TradingView outage on and off, the portals
 * that simulate a renewal, the member mails run ahead) and, below them, the sandbox mailbox the
 * app shell passes in.
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
          {tools.data.memberMailsAhead ? <MemberMailsAheadCard /> : null}
        </>
      )}
      {mailbox}
    </div>
  );
}
