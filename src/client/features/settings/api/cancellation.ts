import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cancellationOptionsSchema, cancellationResponseSchema, RETENTION_PATHS, type CancellationRequest } from '@shared/retention-contract';
import { api } from '@client/lib/api/api-client';

const OPTIONS = ['cancellation', 'options'] as const;

/** What the member may do now and the offer of each reason; read when the dialog opens. */
export function useCancellationOptions(enabled: boolean) {
  return useQuery({ queryKey: OPTIONS, queryFn: () => api(RETENTION_PATHS.member, { schema: cancellationOptionsSchema }), enabled, staleTime: 0, retry: false });
}

/** The member's choice; the subscription view and the options are read again after it. */
export function useChooseCancellation(onDone: () => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CancellationRequest) => api(RETENTION_PATHS.member, { body, schema: cancellationResponseSchema }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: OPTIONS });
      await onDone();
    },
  });
}
