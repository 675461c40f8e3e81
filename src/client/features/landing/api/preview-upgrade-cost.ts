import { api } from '@client/lib/api-client';
import type { PreviewUpgradeCostResponse } from '@shared/api-contract';
import type { PlanType } from '@shared/plans';
import { PATHS } from './paths';

/** What switching to `planType` costs now (credit, charge, total), or `redirectToCheckout`. */
export const previewUpgradeCost = (planType: PlanType) =>
  api<PreviewUpgradeCostResponse>(PATHS.previewUpgradeCost, { body: { planType } });
