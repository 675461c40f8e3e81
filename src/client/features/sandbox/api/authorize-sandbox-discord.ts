import { useMutation } from '@tanstack/react-query';
import { SANDBOX_DISCORD_PATHS, sandboxDiscordAuthorizeResponseSchema, type SandboxDiscordAuthorizeRequest } from '@shared/sandbox-discord-contract';
import { api } from '@client/lib/api/api-client';

/** The member's consent: answers where the browser goes next (the shop, with a one-time code). */
export const authorizeSandboxDiscord = (body: SandboxDiscordAuthorizeRequest) => api(SANDBOX_DISCORD_PATHS.authorize, { body, schema: sandboxDiscordAuthorizeResponseSchema });

export const useAuthorizeSandboxDiscord = () => useMutation({ mutationFn: authorizeSandboxDiscord });
