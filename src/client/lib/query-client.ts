import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api/api-client';

/** A failure a second try can mend: network trouble or a 5xx, never a 4xx answer. */
export function isRetriableFailure(error: unknown): boolean {
  return error instanceof ApiRequestError ? error.network || error.status >= 500 : true;
}

/** Retries only what can succeed on a second try, at most `maxRetries` times. */
export function shouldRetry(failureCount: number, error: unknown, maxRetries = 2): boolean {
  return failureCount < maxRetries && isRetriableFailure(error);
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
