// A member's account in a community integration as the console shows it, on the member
// page and an integration's own page alike: its link, its state and what it is given, by name.
import type { LinkedAccountStatus } from '@shared/admin-contract';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { accountLinkLabel, accountStatusLabel } from '@client/lib/console-format';

const STATUS_TONES: Record<LinkedAccountStatus, BadgeTone> = { pending: 'yellow', processing: 'blue', synced: 'green', failed: 'red' };

/** The account's state in words; `gives` is what the community gives it ('Updating roles', 'Updating chats'). */
export const AccountStatusBadge = ({ status, gives }: { status: LinkedAccountStatus; gives: string }) => <Badge tone={STATUS_TONES[status]}>{accountStatusLabel(gives)(status)}</Badge>;

/** Whether the link is the member's current one or an old one kept until what it was given is taken back. */
export const AccountLinkBadge = ({ current }: { current: boolean }) => <Badge tone={current ? 'blue' : 'neutral'}>{accountLinkLabel(current)}</Badge>;

/** What an account is given (roles, chats) by name; one whose name is unknown is shown by its id. */
export function GivenNames({ items }: { items: readonly { id: string; name: string | null }[] }) {
  if (items.length === 0) return <span className="text-muted">none</span>;
  return (
    <span>
      {items.map((item, index) => (
        <span key={item.id}>
          {index > 0 ? ', ' : ''}
          {item.name ?? <span className="font-mono text-xs">{item.id}</span>}
        </span>
      ))}
    </span>
  );
}
