// How long the client waits for an answer before it gives up, by what the server has to do. A
// call that gives up too early can abandon a change that then succeeds on the server.
export const API_TIMEOUT_MS = {
  /** Answered from our own database. */
  default: 15_000,
  /** The server waits on a third party (TradingView, the payment provider) before it answers. */
  thirdParty: 30_000,
  /** The server may charge a card, which can be slow (3-D Secure, a slow bank). */
  charge: 45_000,
  /** The server makes many provider calls one after another (publishing every price at Stripe). */
  manyCalls: 120_000,
} as const;
