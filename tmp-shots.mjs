import { chromium } from '@playwright/test';
const base = 'http://localhost:3205';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
const page = await context.newPage();
const r = await page.request.post('/api/auth/sign-in/email', { data: { email: 'preview@example.com', password: 'Sup3rSecret!' }, headers: { origin: base } });
console.log('sign-in', r.status());
const shots = (process.argv[2] ?? '').split(',').filter(Boolean);
const all = {
  overview: '/dashboard/guides',
  product: '/dashboard/guides?product=candlewise-pro-v2',
  feature: '/dashboard/guides?product=candlewise-pro-v2&feature=midline',
  setup: '/dashboard/guides?guide=candlewise-setup',
  prov2: '/dashboard/guides?guide=candlewise-pro-v2',
  longform: '/dashboard/guides?guide=getting-started',
  strategies: '/dashboard/strategies',
  discord: '/dashboard/discord',
};
for (const name of shots.length ? shots : Object.keys(all)) {
  await page.goto(all[name] ?? name);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: process.env.FULL === '1' });
}
if (shots.includes('strategy') || !shots.length) {
  await page.goto('/dashboard/strategies'); await page.waitForTimeout(1000);
  await page.getByRole('button', { name: 'Midline Trend-Following', exact: true }).click(); await page.waitForTimeout(1200);
  await page.screenshot({ path: '/tmp/shots/strategy.png', fullPage: process.env.FULL === '1' });
}
const m = await browser.newContext({ viewport: { width: 375, height: 740 }, baseURL: base });
const mp = await m.newPage();
await mp.request.post('/api/auth/sign-in/email', { data: { email: 'preview@example.com', password: 'Sup3rSecret!' }, headers: { origin: base } });
await mp.goto('/dashboard/guides'); await mp.waitForTimeout(1000);
await mp.getByRole('button', { name: 'How to Activate Your Indicators' }).click(); await mp.waitForTimeout(300);
await mp.screenshot({ path: '/tmp/shots/mobile.png', fullPage: true });
await browser.close();
