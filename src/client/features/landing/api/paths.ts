// The API paths this feature calls. They equal API_PATHS of src/shared/api-contract.ts (paths.test.ts
// keeps them in step), which is not imported at run time: it would pull zod into the landing bundle.
export const PATHS = {
  createCheckout: '/api/create-checkout',
  subscription: '/api/subscription',
  previewUpgradeCost: '/api/preview-upgrade-cost',
  updateSubscription: '/api/update-subscription',
} as const;
