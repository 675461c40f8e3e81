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
];
