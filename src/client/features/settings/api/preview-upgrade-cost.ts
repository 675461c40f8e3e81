import { useMutation } from '@tanstack/react-query';
import { API_PATHS, previewUpgradeCostResponseSchema } from '@shared/api-contract';
import type { PreviewUpgradeCostRequest } from '@shared/api-contract';
import { api } from '@client/lib/api-client';

export const previewUpgradeCost = (body: PreviewUpgradeCostRequest) =>
  api(API_PATHS.previewUpgradeCost, { body, schema: previewUpgradeCostResponseSchema });

/** What changing to another plan would cost now, or `{redirectToCheckout: true}`. */
export function usePreviewUpgradeCost() {
  return useMutation({ mutationFn: previewUpgradeCost });
}
