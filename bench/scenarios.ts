import type { createApp } from '../src/server/app';

type App = Awaited<ReturnType<typeof createApp>>;
export type Scenario = { name: string; prepare: (app: App) => Promise<(i: number) => Promise<unknown>> };

const ORIGIN = 'http://localhost:3000';
const json = (body: unknown, cookie?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': '198.51.100.1', ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

async function signedInCookie(app: App, email: string): Promise<string> {
  const response = await app.request('/api/auth/sign-up/email', json({ email, password: 'Bench-Passw0rd', name: 'bench' }));
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** A member who bought monthly on the sandbox, as a buyer does: checkout, then pay with 4242…. */
async function memberCookie(app: App, email: string): Promise<string> {
  const cookie = await signedInCookie(app, email);
  await buy(app, 'monthly', email, cookie);
  return cookie;
}

async function buy(app: App, planType: string, email: string | null, cookie?: string): Promise<string> {
  const checkout = await app.request(
    '/api/create-checkout',
    json({ planType, customerEmail: email, fbc: null, fbp: null, userAgent: 'bench', originPage: '/' }, cookie),
  );
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await app.request(
    `/api/sandbox/checkout/${sessionId}/pay`,
    json({ email: email ?? 'buyer@example.com', cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Bench Buyer' }),
  );
  // a benchmark of failing requests would measure nothing
  if (!checkout.ok || !paid.ok) throw new Error(`purchase failed: ${checkout.status} / ${paid.status} ${await paid.text()}`);
  return sessionId;
}

export const scenarios: Scenario[] = [
  { name: 'GET /healthz', prepare: async (app) => async () => app.request('/healthz') },
  { name: 'GET /api/site', prepare: async (app) => async () => app.request('/api/site') },
  {
    name: 'GET /api/access (signed in)',
    prepare: async (app) => {
      const cookie = await signedInCookie(app, 'access-bench@example.com');
      return async () => app.request('/api/access', { headers: { cookie } });
    },
  },
  {
    name: 'GET /api/subscription (member)',
    prepare: async (app) => {
      const cookie = await memberCookie(app, 'subscription-bench@example.com');
      return async () => app.request('/api/subscription', { headers: { cookie } });
    },
  },
  {
    name: 'POST /api/create-checkout (anonymous)',
    prepare: async (app) => async () =>
      app.request('/api/create-checkout', json({ planType: 'quarterly', customerEmail: null, fbc: null, fbp: null, userAgent: 'bench', originPage: '/' })),
  },
  {
    name: 'purchase: checkout + sandbox payment + fulfilment',
    prepare: async (app) => async (i) => buy(app, 'monthly', `buyer-${i}-${Date.now()}@example.com`),
  },
  {
    name: 'POST /api/get-payment-details (paid)',
    prepare: async (app) => {
      const sessionId = await buy(app, 'yearly', 'details-bench@example.com');
      return async () => app.request('/api/get-payment-details', json({ sessionId }));
    },
  },
];
