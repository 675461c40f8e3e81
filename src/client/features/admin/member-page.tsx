import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { MemberDetail } from '@shared/admin-contract';
import { TableScroll } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardTitle } from '@client/components/ui/card';
import { Input, Label } from '@client/components/ui/input';
import { PageSpinner } from '@client/components/ui/spinner';
import { accessChangeLabel } from '@shared/access-history';
import { formatMoney } from '@shared/plans';
import { memberActionBlocks, memberActionFacts } from '@shared/member-actions';
import { describeUsernameLink } from '@shared/tradingview-usernames';
import { EmailAddress } from '@client/components/email-address';
import { useCorrectUsername, useTransferUsername } from './api/correct-username';
import { useMember } from './api/get-member';
import { useGrantComp } from './api/grant-comp';
import { useResyncMember } from './api/resync-member';
import { useRetryGrant } from './api/retry-grant';
import { useRevokeAccess } from './api/revoke-access';
import { AdminPageHeader, LoadError } from '@client/components/console/admin-page';
import { ConfirmAction } from '@client/components/console/confirm-action';
import { AccountLinkBadge, AccountStatusBadge, GivenNames } from '@client/components/console/linked-account';
import { dateText, dateTimeText, eventLabel, grantDesireLabel, grantStatusLabel, orderStatusLabel, planLabel, providerLabel, revokedReasonLabel, subscriptionStatusLabel } from '@client/lib/console-format';
import { RefundOrderButton } from './payments/refund-order';
import { STATUS_LABELS, STATUS_TONES } from './members-page';
import { TrialsCard } from './components/trials-card';
import { useIntegrationPage, type CommunityNames } from './integration-pages';
import { MemberCancellations } from './retention';
import { SupportActions } from './support-actions';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      <div className="mt-4 text-sm">{children}</div>
    </Card>
  );
}

function Table({ head, rows, empty }: { head: string[]; rows: ReactNode[][]; empty: string }) {
  if (rows.length === 0) return <p className="text-muted">{empty}</p>;
  return (
    <TableScroll>
      <table className="w-full text-left">
        <thead className="text-xs uppercase tracking-wider text-muted">
          <tr>
            {head.map((cell) => (
              <th key={cell} className="py-2 pr-3 font-medium">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((cells, index) => (
            <tr key={index}>
              {cells.map((cell, column) => (
                <td key={column} className="py-2 pr-3 align-top">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

const mono = (text: string | null) => (text ? <span className="font-mono text-xs">{text}</span> : '—');

function Actions({ member }: { member: MemberDetail }) {
  const id = member.account.id;
  const resync = useResyncMember();
  const retry = useRetryGrant();
  const correct = useCorrectUsername();
  const transfer = useTransferUsername();
  const comp = useGrantComp();
  const revoke = useRevokeAccess();
  const currentUsername = member.subscriptions.find((row) => row.tradingviewUsername)?.tradingviewUsername ?? '';
  const [username, setUsername] = useState(currentUsername);
  const [until, setUntil] = useState('');
  const [heldName, setHeldName] = useState('');
  const blocks = memberActionBlocks(memberActionFacts(member));

  return (
    <div className="flex flex-wrap items-start gap-2">
      <ConfirmAction label="Re-sync from provider" title="Re-sync from the payment provider" description="Reads this member's subscriptions and recent checkouts from the payment provider and writes what it says." confirmLabel="Re-sync" run={() => resync.mutateAsync(id)} />
      <ConfirmAction label="Retry grant now" title="Retry the TradingView grant now" description="Checks the member's access again and retries failed grants right away." confirmLabel="Retry now" blocked={blocks.retryGrant} run={() => retry.mutateAsync(id)} />
      <ConfirmAction
        label="Transfer TradingView access"
        title="Transfer TradingView access"
        description="TradingView access moves to another username: the current one's is revoked, the new one granted, and the old name stays in the member's history. TradingView must know the new name."
        confirmLabel="Transfer access"
        run={() => correct.mutateAsync({ memberId: id, username })}
      >
        <div className="space-y-1">
          <Label htmlFor="admin-username">New TradingView username</Label>
          <Input id="admin-username" value={username} onChange={(event) => setUsername(event.target.value)} required />
        </div>
      </ConfirmAction>
      <ConfirmAction
        label="Move a username from another member"
        title="Move a TradingView username from another member"
        description="A username belongs to one member. This moves it from the member who holds it to this one: their link ends (kept in their history), TradingView access follows this member's plan, and the audit log names both members."
        confirmLabel="Move username"
        run={() => transfer.mutateAsync({ memberId: id, username: heldName })}
      >
        <div className="space-y-1">
          <Label htmlFor="admin-held-username">TradingView username</Label>
          <Input id="admin-held-username" value={heldName} onChange={(event) => setHeldName(event.target.value)} required />
        </div>
      </ConfirmAction>
      <ConfirmAction
        label="Grant comp access"
        title="Grant complimentary access"
        description="Access without payment until the end of the chosen day (UTC); reports show it as comp."
        confirmLabel="Grant access"
        blocked={blocks.grantComp}
        run={() => comp.mutateAsync({ memberId: id, until })}
      >
        <div className="space-y-1">
          <Label htmlFor="admin-comp-until">Access until</Label>
          <Input id="admin-comp-until" type="date" value={until} onChange={(event) => setUntil(event.target.value)} required />
        </div>
      </ConfirmAction>
      <ConfirmAction
        label="Revoke access"
        variant="danger"
        title="Revoke access"
        description="Every subscription of this member stops giving access now and TradingView access is removed. Renewals at the provider are not cancelled: to end those too, ban the member."
        confirmLabel="Revoke access"
        blocked={blocks.revokeAccess}
        run={() => revoke.mutateAsync(id)}
      />
      <SupportActions member={member} blocks={blocks} />
      {member.customerUrl ? (
        <Button asChild variant="outline" size="sm">
          <a href={member.customerUrl} target="_blank" rel="noreferrer">
            {member.customerUrl.startsWith('/') ? 'Open in sandbox portal' : 'Open in Stripe'}
          </a>
        </Button>
      ) : null}
    </div>
  );
}

/** Every TradingView username the member linked (the current one first): who linked it, when and why it ended. */
function UsernameHistory({ links }: { links: MemberDetail['usernameHistory'] }) {
  return (
    <Section title="TradingView usernames">
      <Table
        head={['Username', 'Linked', 'Ended']}
        empty="No TradingView username yet."
        rows={links.map((link) => {
          const words = describeUsernameLink({ ...link, replacedAt: link.replacedAt ? new Date(link.replacedAt) : null });
          return [
            <span key="name" className="font-mono text-xs text-white">
              {link.username}
              {link.replacedAt ? '' : ' (current)'}
            </span>,
            `${dateTimeText(link.linkedAt)} · ${words.linked}`,
            link.replacedAt ? `${dateTimeText(link.replacedAt)} · ${words.ended}` : '—',
          ];
        })}
      />
    </Section>
  );
}

/** What a community gives, by the names the member's answer carries. */
const namesInAnswer =
  (names: Readonly<Record<string, string>>) =>
  (): CommunityNames => ({ named: (ids) => ids.map((id) => ({ id, name: names[id] ?? null })), notice: null });

/** The member's accounts in one community (the current link first), with what they hold by name. */
function CommunityAccounts({ community }: { community: MemberDetail['communities'][number] }) {
  const { name, title, gives, names, accounts } = community;
  // a community whose names only the console can ask (its own service names them, and may not
  // answer) names them through its integration's console part; the others' come in the answer
  const useGivenNames = useIntegrationPage(name)?.useGivenNames ?? namesInAnswer(names);
  const { named, notice } = useGivenNames(accounts.length > 0);
  const Gives = `${gives.charAt(0).toUpperCase()}${gives.slice(1)}`;
  return (
    <Section title={title}>
      <div className="space-y-3">
        {notice}
        <Table
          head={[`${title} user`, 'Link', `${Gives} held`, `${Gives} wanted`, 'State', 'Last error', 'Next retry']}
          empty={`No ${title} account linked.`}
          rows={accounts.map((row) => [
            <span key="name" className="font-medium text-white">{row.username}</span>,
            <AccountLinkBadge key="link" current={row.current} />,
            <GivenNames key="held" items={named(row.held)} />,
            <GivenNames key="wanted" items={named(row.wanted)} />,
            <span key="state">
              <AccountStatusBadge status={row.status} gives={gives} /> · {row.attempts} attempt{row.attempts === 1 ? '' : 's'}
            </span>,
            row.lastError ?? '—',
            dateTimeText(row.nextAttemptAt),
          ])}
        />
      </div>
    </Section>
  );
}

export function MemberPage() {
  const { memberId = '' } = useParams();
  const member = useMember(memberId);
  if (member.isPending) return <PageSpinner label="Loading the member..." />;
  if (member.isError) return <LoadError what="this member" />;
  const { account, subscriptions, orders, grants, securityEvents, accessHistory, communities } = member.data;

  return (
    <div className="space-y-6">
      <Link to="/admin/members" className="text-sm text-muted hover:text-white">
        ← Members
      </Link>
      <AdminPageHeader title={<EmailAddress email={account.email} />} description={`Joined ${dateText(account.createdAt)} · ${account.emailVerified ? 'e-mail verified' : 'e-mail not verified'}`}>
        <Badge tone={STATUS_TONES[account.status]}>{STATUS_LABELS[account.status]}</Badge>
        {account.isOperator ? <Badge tone="purple">Operator</Badge> : null}
        {member.data.ban ? (
          <Badge tone="red">
            Banned {dateText(member.data.ban.createdAt)} by {member.data.ban.bannedBy}
            {member.data.ban.reason ? ` · ${member.data.ban.reason}` : ''}
          </Badge>
        ) : null}
      </AdminPageHeader>
      <Actions member={member.data} />

      <Section title="Subscriptions">
        <Table
          head={['Plan', 'Status', 'Access until', 'Provider', 'Subscription / session', 'TradingView', 'Started']}
          empty="No subscription."
          rows={subscriptions.map((row) => [
            <span key="plan" className="font-medium text-white">{planLabel(row.plan)}</span>,
            <span key="status">
              {subscriptionStatusLabel(row.status)}
              {row.isActive ? '' : ' · no access'}
              {row.revokedReason ? ` · ${revokedReasonLabel(row.revokedReason)}` : ''}
              {row.cancelAtPeriodEnd && row.plan !== 'comp' ? ' · cancels at period end' : ''}
              {row.collectionPaused ? ' · collection paused' : ''}
            </span>,
            dateTimeText(row.expiresAt),
            providerLabel(row.provider),
            mono(row.providerSubscriptionId ?? row.checkoutSessionId),
            row.tradingviewUsername ?? '—',
            dateText(row.createdAt),
          ])}
        />
      </Section>

      <TrialsCard userId={account.id} />
      <MemberCancellations userId={account.id} />

      <Section title="Access history">
        <Table
          head={['When', 'Change', 'Access after']}
          empty="No change of access recorded yet."
          rows={accessHistory.map((change) => [
            dateTimeText(change.occurredAt),
            <span key="change" className="font-medium text-white">{accessChangeLabel(change)}</span>,
            change.hasAccess ? <Badge key="access" tone="green">Has access</Badge> : <Badge key="access" tone="neutral">No access</Badge>,
          ])}
        />
      </Section>

      <Section title="Orders">
        <Table
          head={['Plan', 'Amount', 'Status', 'Checkout session', 'Date', 'Refund']}
          empty="No order."
          rows={orders.map((order) => [
            planLabel(order.plan),
            formatMoney(order.amount, order.currency),
            `${orderStatusLabel(order.status)}${order.duplicateStatus ? ` · duplicate (${order.duplicateStatus.replaceAll('_', ' ')})` : ''}`,
            mono(order.checkoutSessionId),
            dateTimeText(order.createdAt),
            <RefundOrderButton key="refund" order={{ ...order, email: account.email }} />,
          ])}
        />
      </Section>

      <Section title="TradingView access">
        <Table
          head={['Username', 'State', 'Per script', 'Last error', 'Next retry']}
          empty="No TradingView username yet."
          rows={grants.map((grant) => [
            <span key="name" className="font-medium text-white">{grant.username}</span>,
            `${grantStatusLabel(grant.status)} (${grantDesireLabel(grant.desired)}${grant.expiresAt ? ` until ${dateText(grant.expiresAt)}` : ''}) · ${grant.attempts} attempt${grant.attempts === 1 ? '' : 's'}`,
            <ul key="scripts" className="space-y-0.5">
              {grant.scripts.map((script) => (
                <li key={script.scriptId} title={script.scriptId}>
                  <span className="text-white">{script.name}</span> {script.granted ? `granted until ${script.grantedUntil ? dateText(script.grantedUntil) : 'no expiry'}` : 'not granted'}
                </li>
              ))}
            </ul>,
            grant.lastError ?? '—',
            dateTimeText(grant.nextAttemptAt),
          ])}
        />
      </Section>

      <UsernameHistory links={member.data.usernameHistory} />

      {communities.map((community) => (
        <CommunityAccounts key={community.name} community={community} />
      ))}

      <Section title="Security events">
        <Table
          head={['Event', 'Count', 'Address', 'When']}
          empty="No security event."
          rows={securityEvents.map((event) => [eventLabel(event.event), event.count, event.ipAddress ?? '—', dateTimeText(event.createdAt)])}
        />
      </Section>
    </div>
  );
}
