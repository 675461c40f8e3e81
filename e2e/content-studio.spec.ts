import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test';
import { DEFAULT_BILLING_COUNTRY } from '../src/shared/vat';
import { actAsNewVisitor, mailboxPathFor, readLatestMail, uniqueEmail } from './fixtures';
import { SUCCEEDING_CARD, signUp } from './member';
import { becomeOperator } from './operator';

// The content studio, as the vendor and members live it: an operator writes a guide with an image
// in the console and publishes it; members see it under Guides while a visitor and a member
// without access do not; a guide gated to Yearly stays hidden from a Monthly member; an
// announcement shows with an unread badge and is mailed to the members who did not opt out.

/** CRC-32 as PNG chunks carry it (browsers refuse a chunk whose CRC is wrong). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real PNG of `width`×`height` (black). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc((width * 3 + 1) * height))), chunk('IEND', Buffer.alloc(0))]);
}

/** A member on `planType`, bought as createMember does (a signed-in sandbox checkout paid with the test card), in a browser of its own. */
async function memberOn(browser: Browser, planType: 'monthly' | 'yearly'): Promise<{ page: Page; email: string; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await actAsNewVisitor(page);
  const email = uniqueEmail(planType);
  await signUp(page, email);
  const checkout = await page.request.post('/api/create-checkout', { data: { planType, customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: '/' } });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await page.request.post(`/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`, {
    data: { email: null, cardNumber: SUCCEEDING_CARD, expiry: '12 / 34', cvc: '123', name: 'Test Member', billingCountry: DEFAULT_BILLING_COUNTRY },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await expect.poll(async () => ((await (await page.request.get('/api/access')).json()) as { hasAccess?: boolean }).hasAccess, { message: 'access after paying' }).toBe(true);
  return { page, email, close: () => context.close() };
}

/** New guide in the console: title, description, body, optionally an uploaded image and plans; then Publish. */
async function writeGuide(page: Page, input: { title: string; body: string; image?: { name: string; buffer: Buffer }; plans?: string[] }) {
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Content' }).click();
  await expect(page.getByRole('heading', { name: 'Content', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New guide' }).click();
  await expect(page.getByRole('heading', { name: 'New guide', level: 1 })).toBeVisible();
  await page.getByLabel('Title').fill(input.title);
  await page.getByLabel('Description').fill(`${input.title}, step by step.`);
  await page.getByLabel('Text (Markdown)').fill(input.body);
  if (input.image) {
    await page.getByLabel('Upload image').setInputFiles({ name: input.image.name, mimeType: 'image/png', buffer: input.image.buffer });
    await expect(page.getByRole('status').filter({ hasText: `${input.image.name} uploaded and placed in the text.` })).toBeVisible();
  } else {
    await page.getByLabel('Card image').selectOption({ index: 1 });
  }
  for (const plan of input.plans ?? []) await page.getByRole('checkbox', { name: plan, exact: true }).check();
  // the member area's own rendering of the draft
  await expect(page.getByTestId('content-preview').getByRole('heading', { name: input.title })).toBeVisible();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Published: members see it now.' })).toBeVisible();
}

test('New guide with an image, Publish: a member sees it under Guides; a visitor and a member without access do not; Yearly-only stays hidden from Monthly', async ({ page, browser }) => {
  test.slow();
  const id = randomUUID().slice(0, 8);
  const title = `Reading the midline ${id}`;
  const yearlyTitle = `Yearly desk notes ${id}`;
  const imageName = `midline-${id}.png`;

  await becomeOperator(page, 'ops-content@example.com');
  await writeGuide(page, { title, body: 'Why the midline matters.\n\n## On the chart\n\nPrice above it: look for longs.', image: { name: imageName, buffer: png(64, 32) } });
  await writeGuide(page, { title: yearlyTitle, body: 'For yearly members.\n\n## Notes\n\nText.', plans: ['yearly'] });

  const monthly = await memberOn(browser, 'monthly');
  await monthly.page.goto('/dashboard/guides');
  await expect(monthly.page.getByRole('heading', { name: 'Trading Guides' })).toBeVisible();
  await expect(monthly.page.getByText(title, { exact: true })).toBeVisible();
  await expect(monthly.page.getByText(yearlyTitle, { exact: true })).toHaveCount(0);
  await monthly.page.getByText(title, { exact: true }).click();
  await expect(monthly.page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const chart = monthly.page.getByRole('main').locator(`img[src="/api/content/images/${imageName}"]`).first();
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
  await monthly.close();

  const yearly = await memberOn(browser, 'yearly');
  await yearly.page.goto('/dashboard/guides');
  await expect(yearly.page.getByText(yearlyTitle, { exact: true })).toBeVisible();
  await yearly.close();

  // a member without access: the premium-required page, and the API refuses the guides
  const outsiderContext = await browser.newContext();
  const outsider = await outsiderContext.newPage();
  await actAsNewVisitor(outsider);
  await signUp(outsider);
  await outsider.goto('/dashboard/guides');
  await expect(outsider.getByText(title)).toHaveCount(0);
  expect((await outsider.request.get('/api/content/guides')).status()).toBe(403);
  await outsiderContext.close();

  // a visitor is sent to sign in
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/dashboard/guides');
  await expect(visitor).toHaveURL(/\/auth\?redirect=/);
  expect((await visitor.request.get('/api/content/guides')).status()).toBe(401);
  await visitorContext.close();
});

test("an announcement shows with an unread badge and is mailed only to members who did not opt out", async ({ page, browser }) => {
  test.slow();
  const title = `Pro V2 2.3 ${randomUUID().slice(0, 8)}`;
  const reader = await memberOn(browser, 'monthly');
  const quiet = await memberOn(browser, 'monthly');

  // the quiet member turns update e-mails off in Settings
  await quiet.page.goto('/dashboard/settings');
  const choice = quiet.page.getByRole('checkbox', { name: 'E-mail me product updates' });
  await expect(choice).toBeChecked();
  await choice.uncheck();
  await expect(choice).not.toBeChecked();
  await expect.poll(async () => ((await (await quiet.page.request.get('/api/preferences/announcement-mails')).json()) as { announcementMails: boolean }).announcementMails).toBe(false);

  await becomeOperator(page, 'ops-news@example.com');
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Content' }).click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Script or product (optional)').fill('Pro V2');
  await page.getByLabel('Update').fill('Remove and re-add the indicator on your charts.');
  await page.getByRole('button', { name: 'Post announcement' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Posted.' })).toBeVisible();

  await reader.page.goto('/dashboard/guides');
  const bell = reader.page.getByRole('button', { name: /^What's new, \d+ unread$/ });
  await expect(bell).toBeVisible();
  await expect(reader.page.getByTestId('unread-badge')).toBeVisible();
  await bell.click();
  await expect(reader.page.getByRole('region', { name: "What's new" }).getByText(title)).toBeVisible();
  await expect(reader.page.getByTestId('unread-badge')).toHaveCount(0);

  const mail = await readLatestMail(reader.page.request, reader.email, { subject: title });
  expect(mail.text).toContain('Remove and re-add the indicator on your charts.');
  // both mails were written in one statement: the reader's being there, the quiet member's would be too
  const { mails } = (await (await reader.page.request.get(mailboxPathFor(quiet.email))).json()) as { mails: { to: string; subject: string }[] };
  expect(mails.filter((candidate) => candidate.subject.includes(title)).map((candidate) => candidate.to)).not.toContain(quiet.email);
  await reader.close();
  await quiet.close();
});
