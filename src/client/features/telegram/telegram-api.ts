// Telegram's calls for the member area, the sandbox page and the console, with one query key each.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  SANDBOX_TELEGRAM_PAGE,
  sandboxTelegramAnswerSchema,
  sandboxTelegramChatsSchema,
  TELEGRAM_API_PATHS,
  telegramConsoleSchema,
  telegramLinkResponseSchema,
  telegramStatusResponseSchema,
  type TelegramManagedChat,
} from '@shared/telegram/contract';
import { api } from '@client/lib/api/api-client';

const STATUS_KEY = ['telegram', 'status'] as const;
const CONSOLE_KEY = ['admin', 'telegram'] as const;
const SANDBOX_CHATS_KEY = ['sandbox', 'telegram', 'chats'] as const;

/** How often the member's page asks again while their invites are being prepared. */
export const TELEGRAM_PENDING_POLL_MS = 3_000;

export function useTelegramStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: () => api(TELEGRAM_API_PATHS.status, { schema: telegramStatusResponseSchema }),
    // pending while the bot prepares invites; refreshed when the member comes back from Telegram
    refetchInterval: (query) => (query.state.data?.connected === true && query.state.data.status !== 'synced' ? TELEGRAM_PENDING_POLL_MS : false),
    refetchOnWindowFocus: 'always',
  });
}

export function useStartTelegramLink() {
  return useMutation({ mutationFn: () => api(TELEGRAM_API_PATHS.link, { method: 'POST', schema: telegramLinkResponseSchema }) });
}

export function useDisconnectTelegram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(TELEGRAM_API_PATHS.disconnect, { method: 'POST', schema: telegramStatusResponseSchema }),
    onSuccess: (data) => client.setQueryData(STATUS_KEY, data),
  });
}

// ---------------------------------------------------------------- the sandbox Telegram

export function useSandboxTelegramChats() {
  return useQuery({ queryKey: SANDBOX_CHATS_KEY, queryFn: () => api('/api/sandbox/telegram/chats', { schema: sandboxTelegramChatsSchema }) });
}

export function useSandboxTelegramAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { path: 'start' | 'join'; body: Record<string, string> }) => api(`/api/sandbox/telegram/${input.path}`, { method: 'POST', body: input.body, schema: sandboxTelegramAnswerSchema }),
    onSettled: () => client.invalidateQueries({ queryKey: SANDBOX_CHATS_KEY }),
  });
}

export const sandboxTelegramPage = SANDBOX_TELEGRAM_PAGE;

// ---------------------------------------------------------------- the console

export function useTelegramConsole() {
  return useQuery({ queryKey: CONSOLE_KEY, queryFn: () => api('/api/admin/telegram', { schema: telegramConsoleSchema }) });
}

export function useSaveTelegramChats() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chats: TelegramManagedChat[]) => api('/api/admin/telegram/chats', { method: 'PUT', body: { chats }, schema: telegramConsoleSchema }),
    onSuccess: (data) => client.setQueryData(CONSOLE_KEY, data),
  });
}

export function useRetryTelegramAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/admin/telegram/accounts/${id}/retry`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: CONSOLE_KEY }),
  });
}

const checksSchema = z.object({ checks: z.array(z.object({ status: z.string(), message: z.string(), fix: z.string().optional() })) });

export function useTelegramChecks() {
  return useMutation({ mutationFn: () => api('/api/admin/telegram/checks', { schema: checksSchema }) });
}
