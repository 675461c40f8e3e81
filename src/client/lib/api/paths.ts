// The API paths of the calls in this folder. They equal API_PATHS of src/shared/api-contract.ts
// (paths.test.ts keeps them in step), which is not imported at run time: it would pull zod into the
// landing bundle, which uses these calls too.
export const PATHS = {
  createCheckout: '/api/create-checkout',
  subscription: '/api/subscription',
  previewUpgradeCost: '/api/preview-upgrade-cost',
  updateSubscription: '/api/update-subscription',
} as const;
