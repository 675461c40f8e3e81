import { useQuery } from '@tanstack/react-query';
import { SANDBOX_DISCORD_PATHS, sandboxDiscordAuthorizationSchema } from '@shared/sandbox-discord-contract';
import { api } from '@client/lib/api/api-client';

/** What the authorize page shows for its own query string (client_id, redirect_uri, scope, state). */
export const getSandboxDiscordAuthorization = (search: string) => api(`${SANDBOX_DISCORD_PATHS.authorize}${search}`, { schema: sandboxDiscordAuthorizationSchema });

export const useSandboxDiscordAuthorization = (search: string, enabled = true) =>
  useQuery({ queryKey: ['sandbox-discord-authorization', search], queryFn: () => getSandboxDiscordAuthorization(search), staleTime: Infinity, enabled });
