import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api/api-client';

/** Retries only what can succeed on a second try: network trouble and 5xx, never a 4xx answer. */
export function shouldRetry(failureCount: number, error: unknown, maxRetries = 2): boolean {
  if (failureCount >= maxRetries) return false;
  if (error instanceof ApiRequestError) return error.network || error.status >= 500;
  return true;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => shouldRetry(failureCount, error),
      },
      mutations: { retry: false },
    },
  });
}
