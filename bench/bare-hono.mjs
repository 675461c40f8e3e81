// The yardstick of `npm run bench`: a Hono app with one route and no middleware, on the same
// Node adapter as the shop, so /healthz can be compared with what the framework itself costs.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/healthz', (c) => c.json({ status: 'ok' }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) }, () => console.log('ready'));
