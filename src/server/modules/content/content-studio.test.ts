import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Guide, GuideSummary, Strategy, StrategySummary } from '@shared/content';
import type { ContentItem, MemberAnnouncements } from '@shared/content-studio';
import type { PlanType } from '@shared/plans';
import { loadConfig } from '../../config';
import { orders, outbox, sandboxDiscordMessages, sandboxTelegramMessages, userSubscriptions } from '../../db/schema';
import { SANDBOX_DEFAULT_CHAT } from '../telegram/sandbox-telegram';
import { createTestApp, operatorSession, signUp, TEST_ORIGIN, type TestApp } from '../../test-support/test-app';
import { importContent } from './content-import';
import { CONTENT_DIR, loadSiteContent } from './content.service';

// The content studio end to end through the HTTP API: the repository's content/ imported reads as
// the files did; an operator writes, uploads, publishes, schedules and restores; members see what
// their plan, their first payment and the clock allow; bad input is refused or neutralised and
// never breaks what is published; announcements reach the right members.

const OPERATOR = 'ops@example.com';
const DAY = 86_400_000;
let t: TestApp;
let operator: string;
let outsider: string; // signed in, never bought
let monthly: string; // monthly, first paid 2 days ago
let yearly: string; // yearly, first paid 30 days ago

async function userIdOf(cookie: string): Promise<string> {
  const session = (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string } };
  return session.user.id;
}

async function member(email: string, planType: PlanType, paidDaysAgo: number): Promise<string> {
  const cookie = await signUp(t, email);
  const userId = await userIdOf(cookie);
  const db = t.deps.database.db;
  const [order] = await db.insert(orders).values({ userId, planType, amount: 3600, currency: 'usd', status: 'paid', createdAt: new Date(Date.now() - paidDaysAgo * DAY) }).returning();
  await db.insert(userSubscriptions).values({ userId, planType, status: 'active', isActive: true, expiresAt: new Date(Date.now() + 300 * DAY), provider: 'sandbox', orderId: order?.id });
  return cookie;
}

/** The smallest real PNG: 2×1 pixels. */
function png(width = 2, height = 1): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

const upload = (name: string, bytes: Uint8Array, cookie = operator) =>
  t.app.request(`/api/admin/content/images?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: { origin: 'http://localhost:3000', 'x-forwarded-for': '203.0.113.7', 'content-type': 'application/octet-stream', cookie },
  }, { incoming: { socket: { remoteAddress: '127.0.0.1', remoteFamily: 'IPv4' } } });

const guideFields = (title: string, previewImage: string) => ({
  title,
  description: `${title}, in short.`,
  difficulty: 'beginner',
  type: 'guide',
  estimatedReadTime: 4,
  previewImage,
});

async function createGuide(slug: string, body: string, extra: { plans?: string[]; dripDays?: number; previewImage?: string; title?: string } = {}): Promise<ContentItem> {
  const response = await t.request('/api/admin/content', {
    cookie: operator,
    body: { kind: 'guide', slug, frontMatter: guideFields(extra.title ?? `Guide ${slug}`, extra.previewImage ?? 'studio-chart.png'), body, plans: extra.plans ?? [], dripDays: extra.dripDays ?? 0 },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ContentItem;
}

const publish = (id: string, publishAt: string | null = null) => t.request(`/api/admin/content/${id}/publish`, { cookie: operator, body: { publishAt } });
const guideIds = async (cookie: string) => ((await (await t.request('/api/content/guides', { cookie })).json()) as { guides: GuideSummary[] }).guides.map((guide) => guide.id);

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: OPERATOR, MEMBER_CACHE_MS: '0' });
  await importContent({ db: t.deps.database.db, storage: t.deps.contentStorage, dir: CONTENT_DIR, productSlug: 'candlewise', by: 'test', at: new Date() });
  await t.deps.content.reload();
  operator = (await operatorSession(t, OPERATOR)).cookie;
  outsider = await signUp(t, 'outsider@example.com');
  monthly = await member('monthly@example.com', 'monthly', 2);
  yearly = await member('yearly@example.com', 'yearly', 30);
  expect((await upload('studio-chart.png', png(40, 20))).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('the repository content, imported', () => {
  it('reads exactly as the files: lists, a guide of each layout, a feature, a strategy, an image', async () => {
    const files = await loadSiteContent(loadConfig({ NODE_ENV: 'test' }));
    const read = async <T>(path: string) => (await (await t.request(path, { cookie: yearly })).json()) as T;
    expect((await read<{ guides: GuideSummary[] }>('/api/content/guides')).guides).toEqual(files.guides);
    expect((await read<{ strategies: StrategySummary[] }>('/api/content/strategies')).strategies).toEqual(files.strategies);
    for (const id of ['getting-started', 'candlewise-setup', 'candlewise-pro-v2', 'smart-money-concepts']) {
      expect(await read<Guide>(`/api/content/guides/${id}`)).toEqual(files.guide(id));
    }
    expect(await read(`/api/content/guides/candlewise-pro-v2/features/midline`)).toEqual(files.feature('candlewise-pro-v2', 'midline'));
    expect(await read<Strategy>('/api/content/strategies/midline-trend-following')).toEqual(files.strategy('midline-trend-following'));
    const image = await t.request('/api/content/images/pro-v2-preview.svg', { cookie: yearly });
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(await files.image('pro-v2-preview.svg')?.read());
  });

  it('a second import changes nothing and keeps what the console wrote', async () => {
    const report = await importContent({ db: t.deps.database.db, storage: t.deps.contentStorage, dir: CONTENT_DIR, productSlug: 'candlewise', by: 'test', at: new Date() });
    expect(report.created).toBe(0);
    expect(report.updated).toBe(0);
    expect(report.unchanged).toBeGreaterThan(20);
  });
});

describe('an operator writes a guide', () => {
  it('New guide with an image, Publish: members see it under Guides, a visitor and a member without access do not', async () => {
    const item = await createGuide('studio-first-guide', 'Why this matters.\n\n## Reading the chart\n\n![The chart](studio-chart.png)\n\nLook at the **midline**.');
    expect(item.status).toBe('draft');
    expect(await guideIds(monthly)).not.toContain('studio-first-guide');

    const published = await publish(item.id);
    expect(published.status).toBe(200);
    expect(((await published.json()) as ContentItem).status).toBe('published');

    expect(await guideIds(monthly)).toContain('studio-first-guide');
    const guide = (await (await t.request('/api/content/guides/studio-first-guide', { cookie: monthly })).json()) as Guide;
    expect(guide.sections[0]).toMatchObject({ title: 'Reading the chart', image: '/api/content/images/studio-chart.png', imageAlt: 'The chart' });
    expect(guide.images['/api/content/images/studio-chart.png']).toEqual({ width: 40, height: 20 });
    const image = await t.request('/api/content/images/studio-chart.png', { cookie: monthly });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    expect((await t.request('/api/content/guides')).status).toBe(401);
    expect((await t.request('/api/content/guides', { cookie: outsider })).status).toBe(403);
    expect((await t.request('/api/content/guides/studio-first-guide', { cookie: outsider })).status).toBe(403);
    // members cannot write
    expect((await t.request('/api/admin/content', { cookie: monthly })).status).toBe(403);
  });

  it('a guide gated to Yearly is hidden from a Monthly member, list and page alike', async () => {
    const item = await createGuide('studio-yearly-only', 'For yearly members.', { plans: ['yearly'] });
    expect((await publish(item.id)).status).toBe(200);
    expect(await guideIds(yearly)).toContain('studio-yearly-only');
    expect(await guideIds(monthly)).not.toContain('studio-yearly-only');
    expect((await t.request('/api/content/guides/studio-yearly-only', { cookie: monthly })).status).toBe(404);
    expect((await t.request('/api/content/guides/studio-yearly-only', { cookie: yearly })).status).toBe(200);
  });

  it("an image only a gated guide shows is not served to a member who may not read the guide; one an open piece shows too still is", async () => {
    expect((await upload('studio-yearly-chart.png', png(30, 10))).status).toBe(201);
    const item = await createGuide('studio-yearly-pictures', 'For yearly members.\n\n## The secret setup\n\n![Setup](studio-yearly-chart.png)', { plans: ['yearly'] });
    expect((await publish(item.id)).status).toBe(200);
    const image = (cookie: string, file: string) => t.request(`/api/content/images/${file}`, { cookie });
    expect((await image(yearly, 'studio-yearly-chart.png')).status).toBe(200);
    const refused = await image(monthly, 'studio-yearly-chart.png');
    expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([404, 'The image could not be found.']);
    // the gated guide's preview image is also in open guides: members keep it
    expect((await image(monthly, 'studio-chart.png')).status).toBe(200);
    // an image of the repository's open content, while something is gated
    expect((await image(monthly, 'pro-v2-preview.svg')).status).toBe(200);
  });

  it('drip: visible 7 days after the first payment', async () => {
    const item = await createGuide('studio-drip', 'After a week.', { dripDays: 7 });
    expect((await publish(item.id)).status).toBe(200);
    expect(await guideIds(yearly)).toContain('studio-drip');
    expect(await guideIds(monthly)).not.toContain('studio-drip');
  });

  it('Schedule: scheduled for later is seen by no one until then', async () => {
    const item = await createGuide('studio-later', 'Tomorrow.');
    const response = await publish(item.id, new Date(Date.now() + DAY).toISOString());
    expect(((await response.json()) as ContentItem).status).toBe('scheduled');
    expect(await guideIds(yearly)).not.toContain('studio-later');
  });

  it('Revisions: a saved draft is not what members read until Publish; a revision restores', async () => {
    const item = await createGuide('studio-revised', 'First text.');
    expect((await publish(item.id)).status).toBe(200);
    const save = (body: string) => t.request(`/api/admin/content/${item.id}`, { method: 'PUT', cookie: operator, body: { kind: 'guide', slug: 'studio-revised', frontMatter: item.frontMatter, body } });
    expect((await save('Second text.')).status).toBe(200);
    const read = async () => ((await (await t.request('/api/content/guides/studio-revised', { cookie: yearly })).json()) as Guide).introduction;
    expect(await read()).toBe('First text.');
    const saved = (await (await t.request(`/api/admin/content/${item.id}`, { cookie: operator })).json()) as ContentItem;
    expect(saved.unpublishedChanges).toBe(true);
    const first = saved.revisions.find((revision) => revision.action === 'publish');
    const restored = await t.request(`/api/admin/content/${item.id}/revisions/${first?.id}/restore`, { cookie: operator, body: {} });
    expect(((await restored.json()) as ContentItem).body).toBe('First text.');
    expect((await save('Third text.')).status).toBe(200);
    expect((await publish(item.id)).status).toBe(200);
    expect(await read()).toBe('Third text.');
  });

  it('the preview is the member DTO of the draft, with the images the console can read', async () => {
    const response = await t.request('/api/admin/content/preview', {
      cookie: operator,
      body: { kind: 'guide', slug: 'studio-preview', frontMatter: guideFields('Preview', 'studio-chart.png'), body: 'Intro.\n\n## Part\n\nText ![x](studio-chart.png)' },
    });
    expect(response.status).toBe(200);
    const preview = (await response.json()) as { kind: string; guide: Guide };
    expect(preview.guide.previewImage).toBe('/api/admin/content/images/studio-chart.png');
    expect(preview.guide.sections[0]?.content).toContain('/api/admin/content/images/studio-chart.png');
    expect((await t.request('/api/admin/content/images/studio-chart.png', { cookie: operator })).status).toBe(200);
  });
});

describe('bad input is refused or neutralised, and never breaks what is published', () => {
  it('an image of 20 MB is refused with the limit', async () => {
    const response = await upload('huge.png', new Uint8Array(20 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/at most 5 MB/);
  });

  it('an SVG with a script is refused', async () => {
    const response = await upload('evil.svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('This SVG is refused: it holds a script.');
  });

  it('a text file renamed .png is refused by its content', async () => {
    const response = await upload('notes.png', new TextEncoder().encode('just some text, not a picture'));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/notes\.png is not an image/);
  });

  it('a JPEG named .png is refused', async () => {
    const response = await upload('photo.png', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/named as PNG but its content is JPEG/);
  });

  it('an image name or slug that is taken is refused', async () => {
    expect((await upload('studio-chart.png', png())).status).toBe(409);
    const response = await t.request('/api/admin/content', { cookie: operator, body: { kind: 'guide', slug: 'getting-started', frontMatter: guideFields('Clash', 'studio-chart.png'), body: 'x' } });
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toBe('A guide with the slug getting-started exists already: choose another slug.');
  });

  it('a body of 2 MB is refused with the limit', async () => {
    const response = await t.request('/api/admin/content', { cookie: operator, body: { kind: 'guide', slug: 'studio-huge', frontMatter: guideFields('Huge', 'studio-chart.png'), body: 'x'.repeat(2 * 1024 * 1024) } });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/at most 256 KB/);
  });

  it('publishing with a missing image is refused with the reason; members keep the published version', async () => {
    const item = await createGuide('studio-missing-image', 'Good text.');
    expect((await publish(item.id)).status).toBe(200);
    await t.request(`/api/admin/content/${item.id}`, { method: 'PUT', cookie: operator, body: { kind: 'guide', slug: 'studio-missing-image', frontMatter: item.frontMatter, body: 'Broken ![gone](never-uploaded.png)' } });
    const refused = await publish(item.id);
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.message).toBe("Not published: guides/studio-missing-image.md: image 'never-uploaded.png' is not in content/images (upload it first)");
    const guide = (await (await t.request('/api/content/guides/studio-missing-image', { cookie: yearly })).json()) as Guide;
    expect(guide.introduction).toBe('Good text.');
  });

  it('script tags and javascript: links are removed from what members get, and the operator is told', async () => {
    const body = ['Intro.', '', '## Setup', '', 'Hello <script>alert(1)</script> [click](javascript:alert(1)) and [ok](https://example.com).'].join('\n');
    const created = await t.request('/api/admin/content', {
      cookie: operator,
      body: {
        kind: 'strategy',
        slug: 'studio-hostile',
        frontMatter: { title: 'Hostile', description: 'd', difficulty: 'easy', strategyType: 'Test', timeframes: ['1H'], indicatorsRequired: ['Midline'], estimatedReadTime: 3, previewImage: 'studio-chart.png', heroImage: 'studio-chart.png' },
        body,
      },
    });
    const item = (await created.json()) as ContentItem;
    expect(item.warnings).toEqual(['Script tags are removed: members never get them.', 'javascript: and data: links are removed: only http(s), mailto and this site’s links are kept.']);
    expect((await publish(item.id)).status).toBe(200);
    const strategy = (await (await t.request('/api/content/strategies/studio-hostile', { cookie: yearly })).json()) as Strategy;
    const html = strategy.sections[0]?.html ?? '';
    expect(html).not.toMatch(/<script|javascript:|alert/);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
  });
});

describe('several instances', () => {
  it('a publish on one instance shows on another within MEMBER_CACHE_MS', async () => {
    const other = await createTestApp({ MEMBER_CACHE_MS: '200' }, { database: { ...t.deps.database, close: async () => undefined } });
    const otherIds = async () => ((await (await other.request('/api/content/guides', { cookie: yearly })).json()) as { guides: GuideSummary[] }).guides.map((guide) => guide.id);
    expect(await otherIds()).not.toContain('studio-elsewhere');
    const item = await createGuide('studio-elsewhere', 'Published on the first instance.');
    expect((await publish(item.id)).status).toBe(200);
    await expect.poll(otherIds, { timeout: 20_000 }).toContain('studio-elsewhere');
  });
});

describe("announcements (What's new)", () => {
  it('members with access see it unread, opted-in members get a mail, the bot posts it', async () => {
    const optedOut = await member('quiet@example.com', 'monthly', 5);
    expect((await t.request('/api/preferences/announcement-mails', { method: 'PUT', cookie: optedOut, body: { announcementMails: false } })).status).toBe(200);

    const posted = await t.request('/api/admin/announcements', { cookie: operator, body: { title: 'Pro V2 2.3', body: 'Remove and re-add the indicator.', scriptId: 'Pro V2' } });
    expect(posted.status).toBe(201);
    const announcement = (await posted.json()) as { id: string; mailsQueued: number; discord: string; posts: Record<string, string> };
    expect(announcement.discord).toBe('posted');
    // and to the Telegram chat every member is in (the sandbox's VIP chat), through the same port a real bot uses
    expect(announcement.posts).toEqual({ telegram: 'posted' });
    const telegram = await t.deps.database.db.select().from(sandboxTelegramMessages);
    expect(telegram.map((row) => [row.chatId, row.text])).toEqual([[SANDBOX_DEFAULT_CHAT.chatId, `Pro V2 2.3 (Pro V2)\n\nRemove and re-add the indicator.\n\n${TEST_ORIGIN}/dashboard`]]);

    const news = (await (await t.request('/api/announcements', { cookie: monthly })).json()) as MemberAnnouncements;
    expect(news.unread).toBe(1);
    expect(news.announcements[0]).toMatchObject({ title: 'Pro V2 2.3', read: false });
    expect((await t.request('/api/announcements', { cookie: outsider })).status).toBe(403);

    const mails = await t.deps.database.db.select({ to: outbox.to }).from(outbox).where(eq(outbox.template, 'announcement'));
    const recipients = mails.map((mail) => mail.to).sort();
    expect(recipients).toEqual(['monthly@example.com', 'yearly@example.com']);
    expect(announcement.mailsQueued).toBe(2);

    const [message] = await t.deps.database.db.select().from(sandboxDiscordMessages);
    expect(message?.content).toContain('**Pro V2 2.3** (Pro V2)');

    const read = (await (await t.request('/api/announcements/read', { cookie: monthly, body: {} })).json()) as MemberAnnouncements;
    expect(read.unread).toBe(0);
    expect(((await (await t.request('/api/announcements', { cookie: monthly })).json()) as MemberAnnouncements).unread).toBe(0);
  });

  it('an announcement to Yearly is not shown to Monthly members', async () => {
    await t.request('/api/admin/announcements', { cookie: operator, body: { title: 'Yearly webinar', body: 'Join us.', plans: ['yearly'], notify: false } });
    const titles = async (cookie: string) => ((await (await t.request('/api/announcements', { cookie })).json()) as MemberAnnouncements).announcements.map((a) => a.title);
    expect(await titles(yearly)).toContain('Yearly webinar');
    expect(await titles(monthly)).not.toContain('Yearly webinar');
  });

  it('an announcement to some plans is not posted to a Telegram chat that members of other plans are in', async () => {
    const before = (await t.deps.database.db.select().from(sandboxTelegramMessages)).length;
    const posted = await t.request('/api/admin/announcements', { cookie: operator, body: { title: 'Yearly only', body: 'For yearly members.', plans: ['yearly'] } });
    expect(((await posted.json()) as { posts: Record<string, string> }).posts).toEqual({ telegram: 'off' });
    expect(await t.deps.database.db.select().from(sandboxTelegramMessages)).toHaveLength(before);
  });
});
