import { expect, test } from './test';

test('an unknown page shows the 404 screen with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the sandbox marker is shown while sandbox adapters run', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByTestId('sandbox-marker')).toHaveText('Sandbox');
});

test('hashed assets are cached immutably and index.html is not', async ({ request }) => {
  const html = await request.get('/');
  expect(html.headers()['cache-control']).toBe('no-cache');
  const body = await html.text();
  const asset = body.match(/\/assets\/[^"]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  const response = await request.get(asset!);
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toContain('immutable');
  // compressed at build time (scripts/precompress.mjs), sent as it is
  expect(response.headers()['content-encoding']).toBe('br');
});

test('health, readiness and unknown API routes answer JSON', async ({ request }) => {
  expect(await (await request.get('/healthz')).json()).toEqual({ status: 'ok' });
  expect(await (await request.get('/readyz')).json()).toEqual({ status: 'ready', database: 'pglite' });
  const missing = await request.get('/api/nope');
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe('not_found');
});
