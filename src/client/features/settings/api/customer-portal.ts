import { useMutation } from '@tanstack/react-query';
import { API_PATHS, customerPortalResponseSchema } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

export const openCustomerPortal = () =>
  api(API_PATHS.customerPortal, { method: 'POST', body: {}, schema: customerPortalResponseSchema });

/** A billing-portal session url, or `{configurationRequired, setupUrl}` when the vendor has none. */
export function useCustomerPortal() {
  return useMutation({ mutationFn: openCustomerPortal });
}
