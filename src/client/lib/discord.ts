// The member's Discord link, shared by the dashboard's Discord page and Settings → My Account:
// its status (GET /api/discord), connecting (better-auth's link-social, which answers Discord's
// consent page) and disconnecting.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DISCORD_API_PATHS,
  discordLinkRequest,
  discordStatusResponseSchema,
  LINK_SOCIAL_PATH,
  linkSocialResponseSchema,
  type DiscordStatusResponse,
} from '@shared/discord-contract';
import { api } from './api/api-client';
import { authRequest } from './auth-request';

export const DISCORD_STATUS_QUERY_KEY = ['discord', 'status'] as const;

export const getDiscordStatus = () => api(DISCORD_API_PATHS.status, { schema: discordStatusResponseSchema });

/** How often a page watching a fresh link asks again while its roles are pending. */
export const DISCORD_PENDING_POLL_MS = 5_000;

/**
 * The member's linked Discord account and where its roles stand. With `watchPending`, asks again
 * while the roles are pending, so that they appear once the bot has given them.
 */
export function useDiscordStatus({ watchPending = false }: { watchPending?: boolean } = {}) {
  return useQuery({
    queryKey: DISCORD_STATUS_QUERY_KEY,
    queryFn: getDiscordStatus,
    refetchInterval: (query) => (watchPending && query.state.data?.connected === true && query.state.data.status === 'pending' ? DISCORD_PENDING_POLL_MS : false),
  });
}

/**
 * Starts a link: better-auth binds the OAuth state to this session and answers the consent page's
 * address (Discord's, or the sandbox's). Discord sends the browser back to /dashboard/discord, with
 * ?error=… when the link did not happen. Failures are AuthRequestErrors (discordLinkError maps them).
 */
export async function startDiscordLink(): Promise<string> {
  const answer = linkSocialResponseSchema.parse(await authRequest(LINK_SOCIAL_PATH, discordLinkRequest()));
  return answer.url;
}

export function useConnectDiscord() {
  return useMutation({ mutationFn: startDiscordLink });
}

export const disconnectDiscord = () => api(DISCORD_API_PATHS.disconnect, { method: 'POST', body: {}, schema: discordStatusResponseSchema });

/** Unlinks the account; the status shows "not connected" at once. */
export function useDisconnectDiscord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectDiscord,
    onSuccess: (status: DiscordStatusResponse) => {
      queryClient.setQueryData(DISCORD_STATUS_QUERY_KEY, status);
    },
  });
}
