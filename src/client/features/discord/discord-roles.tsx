// The Discord roles as the console names them: Discord's own names, asked of Discord (GET
// /api/admin/discord/roles), which may not answer; then the roles are shown by id, with the reason.
import type { ReactNode } from 'react';
import type { DiscordRoleRef, DiscordRoles } from '@shared/admin-contract';
import { useDiscordRoles } from './discord-console-api';

/** Role ids with their names from GET /discord/roles (null: unknown, shown by id). */
export function namedRoles(ids: readonly string[], roles: DiscordRoles | undefined): DiscordRoleRef[] {
  const names = new Map(roles?.roles.map((role) => [role.id, role.name]));
  return ids.map((id) => ({ id, name: names.get(id) ?? null }));
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

/** The member page's Discord roles by name (the console's registry hands it to the member page); asked only when `enabled`. */
export function useDiscordRoleNames(enabled: boolean): { named: (ids: readonly string[]) => DiscordRoleRef[]; notice: ReactNode } {
  const roles = useDiscordRoles(enabled);
  return { named: (ids) => namedRoles(ids, roles.data), notice: <RoleNamesUnavailable roles={roles.data} /> };
}
