import type { DiscordAccountStatus, DiscordRoleRef, DiscordRoles } from '@shared/admin-contract';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { discordLinkLabel, discordStatusLabel } from '../format';

const DISCORD_STATUS_TONES: Record<DiscordAccountStatus, BadgeTone> = { pending: 'yellow', processing: 'blue', synced: 'green', failed: 'red' };

/** A linked account's roles in words, on the Discord page and the member page alike. */
export const DiscordStatusBadge = ({ status }: { status: DiscordAccountStatus }) => <Badge tone={DISCORD_STATUS_TONES[status]}>{discordStatusLabel(status)}</Badge>;

/** Whether the link is the member's current one or an old one kept until its roles are off. */
export const DiscordLinkBadge = ({ current }: { current: boolean }) => <Badge tone={current ? 'blue' : 'neutral'}>{discordLinkLabel(current)}</Badge>;

/** Role ids with their names from GET /discord/roles (null: unknown, shown by id). */
export function namedRoles(ids: readonly string[], roles: DiscordRoles | undefined): DiscordRoleRef[] {
  const names = new Map(roles?.roles.map((role) => [role.id, role.name]));
  return ids.map((id) => ({ id, name: names.get(id) ?? null }));
}

/** Roles by name; a role whose name Discord did not give is shown by its id. */
export function RoleNames({ roles }: { roles: readonly DiscordRoleRef[] }) {
  if (roles.length === 0) return <span className="text-muted">none</span>;
  return (
    <span>
      {roles.map((role, index) => (
        <span key={role.id}>
          {index > 0 ? ', ' : ''}
          {role.name ?? <span className="font-mono text-xs">{role.id}</span>}
        </span>
      ))}
    </span>
  );
}

/** Said once above the roles when Discord did not give their names. */
export function RoleNamesUnavailable({ roles }: { roles: DiscordRoles | undefined }) {
  if (!roles?.error) return null;
  return (
    <p role="note" className="text-sm text-yellow-300">
      Role names are unavailable ({roles.error}): roles are shown by id.
    </p>
  );
}
