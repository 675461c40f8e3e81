import { useMutation } from '@tanstack/react-query';
import { SANDBOX_PATHS, sandboxPayResponseSchema, type SandboxPayRequest } from '@shared/sandbox-contract';
import { api } from '@client/lib/api/api-client';
import { API_TIMEOUT_MS } from '@client/lib/api/timeouts';

/** Sends the card to the sandbox provider; answers where the browser goes next. */
export const paySandboxCheckout = (sessionId: string, body: SandboxPayRequest) =>
  api(SANDBOX_PATHS.pay(sessionId), { body, schema: sandboxPayResponseSchema, timeoutMs: API_TIMEOUT_MS.thirdParty });

export const usePaySandboxCheckout = (sessionId: string) => useMutation({ mutationFn: (body: SandboxPayRequest) => paySandboxCheckout(sessionId, body) });
