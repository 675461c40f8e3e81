import { useState, type FormEvent } from 'react';
import type { OperatorList } from '@shared/admin-contract';
import { emailSchema } from '@shared/validation';
import { DataTable, type Column } from '@client/components/data-table';
import { EmailAddress } from '@client/components/email-address';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useInviteOperator, useOperators } from './api/operators';
import { AdminPageHeader, LoadError } from '@client/components/console/admin-page';

type Row = OperatorList['operators'][number];

/** How far an operator's account has proven itself, in the words of the gate they see. */
function accountText(row: Row, twoFactorRequired: boolean): string {
  if (!row.account) return 'No account yet';
  if (!row.account.emailVerified) return 'E-mail not confirmed';
  if (row.account.twoFactorEnabled) return 'Two-factor on';
  return twoFactorRequired ? 'Two-factor not set up' : 'Ready (no two-factor)';
}

function InviteForm() {
  const invite = useInviteOperator();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter an e-mail address.');
      return;
    }
    try {
      setSent((await invite.mutateAsync(parsed.data)).message);
      setEmail('');
      setError(null);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : 'The invitation could not be sent. Please try again.');
    }
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-3" aria-label="Invite an operator">
      <div className="space-y-2">
        <Label htmlFor="invite-email">Invite an operator</Label>
        <div className="flex gap-3">
          <Input
            id="invite-email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="colleague@example.com"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'invite-email-error' : 'invite-email-hint'}
          />
          <Button type="submit" disabled={invite.isPending || !email}>
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
        </div>
        <p id="invite-email-hint" className="text-xs text-muted">
          They get a one-time link, valid 24 hours, that sets the password of their account with this address.
        </p>
        <FieldError id="invite-email-error" message={error ?? undefined} />
      </div>
      {sent ? (
        <p role="status" className="text-sm text-white">
          {sent}
        </p>
      ) : null}
    </form>
  );
}

/** /admin/operators: who may run the shop, and an invitation for one more. */
export function OperatorsPage() {
  const operators = useOperators();
  const columns: Column<Row>[] = [
    { header: 'E-mail', className: 'font-medium text-white', cell: (row) => <EmailAddress email={row.email} /> },
    { header: 'Named by', className: 'text-muted', cell: (row) => row.namedBy },
    { header: 'Account', cell: (row) => accountText(row, operators.data?.twoFactorRequired ?? false) },
  ];
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Operators" description="Everyone who may open this console. A name opens nothing until its owner has confirmed the address." />
      <Card className="space-y-4">
        {operators.isPending ? (
          <Spinner label="Loading the operators..." />
        ) : operators.isError ? (
          <LoadError what="the operators" />
        ) : (
          <DataTable columns={columns} rows={operators.data.operators} rowKey={(row) => row.email} />
        )}
      </Card>
      <Card>
        <InviteForm />
      </Card>
    </div>
  );
}
