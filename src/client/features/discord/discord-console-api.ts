import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_API,
  actionResultSchema,
  discordAccountsSchema,
  discordAuditSummarySchema,
  discordOverviewSchema,
  discordRepairsSchema,
  discordRolesSchema,
  type ActionResult,
  type DiscordAuditSummary,
} from '@shared/admin-contract';
import { api, ApiRequestError } from '@client/lib/api/api-client';

const ROOT = ['admin', 'discord'] as const;
/** The reconciler works in the background: the counts and the accounts follow it. */
const POLL_MS = 5_000;

export type DiscordAccountsFilter = { failing: boolean; page: number };

export function useDiscordOverview() {
  return useQuery({ queryKey: [...ROOT, 'overview'], queryFn: () => api(`${ADMIN_API}/discord/overview`, { schema: discordOverviewSchema }), refetchInterval: POLL_MS });
}

/** The guild's role names; `enabled` false when there is nothing to name. */
export function useDiscordRoles(enabled = true) {
  return useQuery({ queryKey: [...ROOT, 'roles'], queryFn: () => api(`${ADMIN_API}/discord/roles`, { schema: discordRolesSchema }), enabled, staleTime: 60_000 });
}

export function useDiscordAccounts(filter: DiscordAccountsFilter) {
  const params = new URLSearchParams({ page: String(filter.page), ...(filter.failing ? { failing: 'true' } : {}) });
  return useQuery({
    queryKey: [...ROOT, 'accounts', filter],
    queryFn: () => api(`${ADMIN_API}/discord/accounts?${params.toString()}`, { schema: discordAccountsSchema }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });
}

export function useDiscordRepairs() {
  return useQuery({ queryKey: [...ROOT, 'repairs'], queryFn: () => api(`${ADMIN_API}/discord/repairs`, { schema: discordRepairsSchema }) });
}

/** An operator action on the Discord page; afterwards every console view (this page, the audit log) reloads. */
function useDiscordAction<Input>(call: (input: Input) => Promise<ActionResult>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }) });
}

export function useRetryDiscordAccount() {
  return useDiscordAction((accountId: string) => api(`${ADMIN_API}/discord/accounts/${encodeURIComponent(accountId)}/retry`, { method: 'POST', body: {}, schema: actionResultSchema }));
}

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/** The audit's summary in words. */
export function auditSummaryText(summary: DiscordAuditSummary): string {
  return `Checked ${plural(summary.checked, 'guild member')}: ${plural(summary.added, 'role')} given back, ${plural(summary.removed, 'role')} taken away, ${plural(summary.requeued, 'account')} queued again.`;
}

/** Discord's own cause of a failed audit (the server's `details.reason`), after the message. */
function withReason(error: unknown): unknown {
  if (!(error instanceof ApiRequestError)) return error;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? new ApiRequestError(`${error.message} (${reason})`, error.status, error.code, error.network, error.details) : error;
}

export function useRunDiscordAudit() {
  return useDiscordAction(async (_: void) => {
    try {
      return { message: auditSummaryText(await api(`${ADMIN_API}/discord/audit`, { method: 'POST', body: {}, schema: discordAuditSummarySchema })) };
    } catch (error) {
      throw withReason(error);
    }
  });
}
