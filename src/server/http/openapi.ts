import type { Env, Hono, Schema } from 'hono';
import { describeRoute, openAPIRouteHandler, resolver, type DescribeRouteOptions } from 'hono-openapi';
import type { z } from 'zod';
import { apiErrorSchema } from '@shared/api-contract';

/** What a route's definition says of itself in the OpenAPI document. */
export type Operation = Omit<DescribeRouteOptions, 'summary' | 'security' | 'requestBody' | 'responses'> & {
  summary: string;
  /** none: anyone; session: a signed-in user (401 without); operator: a signed-in operator (403 for anyone else). */
  auth: 'none' | 'session' | 'operator';
  /** The JSON body, by the schema the route parses it with. */
  body?: z.ZodType;
  /** The JSON of a 200 answer; a route whose answer has no schema says in `ok` what it is. */
  response?: z.ZodType;
  ok?: string;
  /** better-auth's own routes refuse in its shape, not the API's. */
  errors?: 'api' | 'better-auth';
};

const json = (schema: z.ZodType, io: 'input' | 'output') => ({ 'application/json': { schema: resolver(schema, { options: { io } }) } });

function describe({ auth, body, response, ok = 'OK', errors = 'api', ...operation }: Operation): DescribeRouteOptions {
  const operatorsOnly = auth === 'operator' ? 'Operators only: any other member is answered 403.' : undefined;
  const description = [operatorsOnly, operation.description].filter(Boolean).join(' ');
  return {
    ...operation,
    ...(description ? { description } : {}),
    ...(auth === 'none' ? {} : { security: [{ sessionCookie: [] }] }),
    ...(body ? { requestBody: { required: true, content: json(body, 'input') } } : {}),
    responses: {
      200: { description: ok, ...(response ? { content: json(response, 'output') } : {}) },
      '4XX': { $ref: errors === 'api' ? '#/components/responses/Error' : '#/components/responses/BetterAuthError' },
    },
  };
}

/** A route's describeRoute middleware: the document generator finds the operation on it in app.routes. */
export const describeOperation = (operation: Operation) => describeRoute(describe(operation));

// The generator leaves wildcard routes out, so better-auth's catch-all (auth.routes.ts) is entered here.
const betterAuth = {
  summary: "better-auth's endpoints: sign-in, sign-out, password reset, e-mail change, two-factor",
  description: 'Each is documented by better-auth; they take JSON bodies and answer JSON.',
  responses: { 200: { description: "better-auth's answer" }, '4XX': { $ref: '#/components/responses/BetterAuthError' } },
};

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of every route `app` has mounted, from the
 * operations their definitions carry. Built at the first request, when every route is mounted.
 */
export function openApiHandler<E extends Env, S extends Schema, P extends string>(app: Hono<E, S, P>, brandName: string) {
  return openAPIRouteHandler(app, {
    // /api/openapi.json is an operation, not a static file
    excludeStaticFile: false,
    documentation: {
      openapi: '3.1.0',
      info: { title: `${brandName} API`, version: '1.0.0', description: 'JSON API of the shop and member area. Authentication endpoints live under /api/auth (better-auth).' },
      components: {
        securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token' } },
        responses: {
          Error: { description: 'Error', content: json(apiErrorSchema, 'output') },
          BetterAuthError: {
            description: "better-auth's refusal; the checks this shop runs before better-auth (registration closed, weak password, unsafe text) answer as Error does",
            content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } } },
          },
        },
      },
      paths: { '/api/auth/*': { get: betterAuth, post: betterAuth } },
    },
  });
}
