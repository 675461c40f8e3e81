import { z } from 'zod';
import { OPERATOR_INVITATIONS_PATH, OPERATOR_STATUS_PATH, operatorInvitationAcceptSchema, operatorInvitationAcceptedSchema, operatorInvitationSchema, operatorStatusSchema } from '@shared/admin-contract';
import * as contract from '@shared/api-contract';
import { tradingviewStatusResponseSchema } from '@shared/tradingview-grants';

type Operation = {
  method: 'get' | 'post' | 'put';
  path: string;
  summary: string;
  auth: 'none' | 'session';
  request?: z.ZodType;
  response: z.ZodType;
};

const { API_PATHS: paths } = contract;
// content DTOs are TypeScript types in src/shared/content.ts, documented there
const contentSchema = z.looseObject({});

// The JSON API as the client sees it; generated from the same zod schemas the routes parse with,
// so the document cannot drift from the code.
const operations: Operation[] = [
  { method: 'post', path: paths.createCheckout, summary: 'Start a hosted checkout for a plan', auth: 'none', request: contract.createCheckoutRequestSchema, response: contract.createCheckoutResponseSchema },
  { method: 'post', path: paths.getPaymentDetails, summary: 'Details and buyer status of a paid checkout', auth: 'none', request: contract.getPaymentDetailsRequestSchema, response: contract.getPaymentDetailsResponseSchema },
  { method: 'post', path: paths.verifyPayment, summary: 'Create the account of a paid checkout and sign in', auth: 'none', request: contract.verifyPaymentRequestSchema, response: contract.verifyPaymentResponseSchema },
  { method: 'post', path: paths.activateExistingSubscription, summary: 'Link a paid checkout to the signed-in owner of its e-mail (the checkout cookie or the mailed link proves it)', auth: 'session', request: contract.activateExistingSubscriptionRequestSchema, response: contract.activateExistingSubscriptionResponseSchema },
  { method: 'post', path: paths.postPaymentCleanup, summary: 'Cancel the recurring plan a lifetime purchase replaced', auth: 'session', request: contract.postPaymentCleanupRequestSchema, response: contract.postPaymentCleanupResponseSchema },
  { method: 'post', path: paths.checkSubscription, summary: 'Sync the subscription with the payment provider', auth: 'session', response: contract.checkSubscriptionResponseSchema },
  { method: 'post', path: paths.previewUpgradeCost, summary: 'Preview the proration of a plan change', auth: 'session', request: contract.previewUpgradeCostRequestSchema, response: contract.previewUpgradeCostResponseSchema },
  { method: 'post', path: paths.updateSubscription, summary: 'Change the plan with the previewed proration', auth: 'session', request: contract.updateSubscriptionRequestSchema, response: contract.updateSubscriptionResponseSchema },
  { method: 'post', path: paths.customerPortal, summary: 'Open the billing portal', auth: 'session', response: contract.customerPortalResponseSchema },
  { method: 'post', path: paths.tradingviewActivate, summary: 'Verify and store the TradingView username, schedule the grant', auth: 'session', request: contract.tradingviewActivateRequestSchema, response: contract.tradingviewActivateResponseSchema },
  { method: 'get', path: paths.subscription, summary: 'The derived subscription view', auth: 'session', response: contract.subscriptionViewDtoSchema },
  { method: 'get', path: paths.access, summary: 'Whether the signed-in user has premium access', auth: 'session', response: contract.accessResponseSchema },
  { method: 'get', path: paths.securityAlerts, summary: 'Security score and alerts', auth: 'session', response: contract.securityAlertsResponseSchema },
  { method: 'post', path: '/api/security/events/unauthorized-access', summary: 'Record a dashboard visit refused for lack of access', auth: 'session', request: z.object({ path: z.string().max(200) }), response: contract.successResponseSchema },
  { method: 'get', path: '/api/tradingview/status', summary: "The member's TradingView username and grant status", auth: 'session', response: tradingviewStatusResponseSchema },
  { method: 'put', path: '/api/tradingview/username', summary: 'Correct the TradingView username (revokes the old grant, grants the new)', auth: 'session', request: contract.tradingviewActivateRequestSchema, response: contract.tradingviewActivateResponseSchema },
  { method: 'get', path: '/api/content/guides', summary: 'Guide summaries (members with access only)', auth: 'session', response: contentSchema },
  { method: 'get', path: '/api/content/guides/{id}', summary: 'One guide with its sections or features', auth: 'session', response: contentSchema },
  { method: 'get', path: '/api/content/guides/{productId}/features/{featureId}', summary: "One product feature's documentation", auth: 'session', response: contentSchema },
  { method: 'get', path: '/api/content/strategies', summary: 'Strategy summaries', auth: 'session', response: contentSchema },
  { method: 'get', path: OPERATOR_STATUS_PATH, summary: 'Whether the signed-in user may open the operator console, or what is missing (confirm the e-mail, enrol two-factor, sign in again)', auth: 'session', response: operatorStatusSchema },
  { method: 'get', path: `${OPERATOR_INVITATIONS_PATH}/{token}`, summary: 'Whose one-time operator invitation this is (404 when used, expired or unknown)', auth: 'none', response: operatorInvitationSchema },
  { method: 'post', path: `${OPERATOR_INVITATIONS_PATH}/accept`, summary: "Use an operator invitation once: set the address's password, prove it, sign in", auth: 'none', request: operatorInvitationAcceptSchema, response: operatorInvitationAcceptedSchema },
  { method: 'get', path: '/api/content/strategies/{id}', summary: 'One strategy with sanitised section HTML', auth: 'session', response: contentSchema },
];

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any' });

/** The OpenAPI 3.1 document served at GET /api/openapi.json. */
export function openApiDocument(brandName: string) {
  const errorResponse = { description: 'Error', content: { 'application/json': { schema: jsonSchema(contract.apiErrorSchema, 'output') } } };
  const pathItems: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    pathItems[operation.path] ??= {};
    pathItems[operation.path]![operation.method] = {
      summary: operation.summary,
      ...(operation.auth === 'session' ? { security: [{ sessionCookie: [] }] } : {}),
      ...(operation.request ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(operation.request, 'input') } } } } : {}),
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: jsonSchema(operation.response, 'output') } } },
        '4XX': errorResponse,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `${brandName} API`, version: '1.0.0', description: 'JSON API of the shop and member area. Authentication endpoints live under /api/auth (better-auth).' },
    components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token' } } },
    paths: pathItems,
  };
}
