import { Hono } from 'hono';
import { z } from 'zod';
import {
  adminAnnouncementListSchema,
  adminAnnouncementSchema,
  announcementMailsSchema,
  contentImageListSchema,
  contentImageSchema,
  contentItemSchema,
  contentListSchema,
  contentPreviewSchema,
  IMAGE_NAME,
  memberAnnouncementsSchema,
  postAnnouncementRequestSchema,
  publishContentRequestSchema,
  saveContentRequestSchema,
  type MemberStanding,
} from '@shared/content-studio';
import type { ReadCache } from '@shared/read-cache';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import { requireMember, requireUser, type AuthVariables } from '../../http/session-user';
import type { Announcements } from './announcements.service';
import type { ContentStudio } from './content-studio.service';
import type { ContentStorage } from './content-storage';

// The console's content studio (mounted under /api/admin, behind requireOperator) and the members'
// side of announcements.

const NO_STORE = { 'cache-control': 'private, no-store' };
const itemId = (value: string) => z.string().uuid('must be a piece id').parse(value);
const revisionId = (value: string) => z.coerce.number().int().positive('must be a revision id').parse(value);
const imageName = (value: string | undefined) => z.string().max(120).regex(IMAGE_NAME, 'The file name must end in .svg, .png, .jpg, .webp or .gif and hold only letters, digits, - and _.').parse(value);

export function contentStudioAdminRoutes(deps: { studio: ContentStudio; announcements: Announcements; storage: ContentStorage }) {
  const { studio, announcements } = deps;
  return new Hono<{ Variables: AuthVariables }>()
    .get('/content', describeOperation({ summary: 'Every guide, feature and strategy with its status (draft, scheduled, published)', auth: 'operator', response: contentListSchema }), async (c) => c.json(await studio.list(), 200, NO_STORE))
    .post('/content', describeOperation({ summary: 'A new guide, feature or strategy, saved as a draft', auth: 'operator', body: saveContentRequestSchema, response: contentItemSchema }), async (c) =>
      c.json(await studio.create(await readJson(c, saveContentRequestSchema), requireUser(c).email), 201),
    )
    .post('/content/preview', describeOperation({ summary: 'The member DTO of a draft, built as members would read it (422 with the reason when it would not build)', auth: 'operator', body: saveContentRequestSchema, response: contentPreviewSchema }), async (c) =>
      c.json(await studio.preview(await readJson(c, saveContentRequestSchema)), 200, NO_STORE),
    )
    .get('/content/images', describeOperation({ summary: 'The images of the content library', auth: 'operator', response: contentImageListSchema }), async (c) => c.json({ images: await studio.images() }, 200, NO_STORE))
    .post('/content/images', describeOperation({ summary: 'Upload an image (raw bytes, ?name=chart.png): checked by its content, at most 5 MB, no SVG with script', auth: 'operator', response: contentImageSchema }), async (c) => {
      const name = imageName(c.req.query('name'));
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      return c.json(await studio.upload(name, bytes, requireUser(c).email), 201);
    })
    .get('/content/images/:file', describeOperation({ summary: 'An image of the library for the preview (whether published or not)', auth: 'operator', ok: 'The image, in its own content type' }), async (c) => {
      const name = imageName(c.req.param('file'));
      const image = (await studio.images()).find((candidate) => candidate.name === name);
      const bytes = image ? await deps.storage.get(name) : undefined;
      if (!bytes) throw serverError('contentNotFound', 'The image');
      const type = name.endsWith('.svg') ? 'image/svg+xml' : name.endsWith('.png') ? 'image/png' : name.endsWith('.gif') ? 'image/gif' : name.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'content-type': type, 'cache-control': 'private, no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" });
    })
    .get('/content/:id', describeOperation({ summary: 'One piece: its draft, status and revisions', auth: 'operator', response: contentItemSchema }), async (c) => c.json(await studio.get(itemId(c.req.param('id'))), 200, NO_STORE))
    .put('/content/:id', describeOperation({ summary: "Save a piece's draft (members keep the published version)", auth: 'operator', body: saveContentRequestSchema, response: contentItemSchema }), async (c) =>
      c.json(await studio.save(itemId(c.req.param('id')), await readJson(c, saveContentRequestSchema), requireUser(c).email)),
    )
    .post('/content/:id/publish', describeOperation({ summary: 'Publish the draft now, or Schedule it (publishAt); refused with the reason when it would not build', auth: 'operator', body: publishContentRequestSchema, response: contentItemSchema }), async (c) => {
      const { publishAt } = await readJson(c, publishContentRequestSchema);
      return c.json(await studio.publish(itemId(c.req.param('id')), publishAt ? new Date(publishAt) : null, requireUser(c).email));
    })
    .post('/content/:id/unpublish', describeOperation({ summary: 'Take a piece away from members (the draft stays)', auth: 'operator', response: contentItemSchema }), async (c) =>
      c.json(await studio.unpublish(itemId(c.req.param('id')), requireUser(c).email)),
    )
    .post('/content/:id/revisions/:revision/restore', describeOperation({ summary: "Put a revision's text back into the draft", auth: 'operator', response: contentItemSchema }), async (c) =>
      c.json(await studio.restore(itemId(c.req.param('id')), revisionId(c.req.param('revision')), requireUser(c).email)),
    )
    .get('/announcements', describeOperation({ summary: "What's new: the announcements posted, with their mails and Discord post", auth: 'operator', response: adminAnnouncementListSchema }), async (c) =>
      c.json({ announcements: await announcements.list() }, 200, NO_STORE),
    )
    .post('/announcements', describeOperation({ summary: 'Post an announcement: shown to members with access, mailed to those who did not opt out, posted to Discord', auth: 'operator', body: postAnnouncementRequestSchema, response: adminAnnouncementSchema }), async (c) =>
      c.json(await announcements.post(await readJson(c, postAnnouncementRequestSchema), requireUser(c).email), 201),
    );
}

export function announcementRoutes(deps: { announcements: Announcements; standing: (userId: string) => Promise<MemberStanding>; reads: ReadCache }) {
  const { announcements } = deps;
  const standingOf = (userId: string) => deps.reads.read(`content-standing:${userId}`, () => deps.standing(userId));
  return new Hono<{ Variables: AuthVariables }>()
    .get('/announcements', describeOperation({ summary: "What's new for this member, with the unread count", auth: 'session', description: 'Members with access only: 403 without.', response: memberAnnouncementsSchema }), async (c) => {
      const user = requireMember(c);
      return c.json(await announcements.forMember(user.id, await standingOf(user.id)), 200, NO_STORE);
    })
    .post('/announcements/read', describeOperation({ summary: "Mark What's new as read", auth: 'session', response: memberAnnouncementsSchema }), async (c) => {
      const user = requireMember(c);
      return c.json(await announcements.markAllRead(user.id, await standingOf(user.id)), 200, NO_STORE);
    })
    .get('/preferences/announcement-mails', describeOperation({ summary: 'Whether this member gets announcements by e-mail', auth: 'session', response: announcementMailsSchema }), async (c) =>
      c.json({ announcementMails: await announcements.mailsOn(requireUser(c).id) }, 200, NO_STORE),
    )
    .put('/preferences/announcement-mails', describeOperation({ summary: 'Turn announcement e-mails on or off', auth: 'session', body: announcementMailsSchema, response: announcementMailsSchema }), async (c) => {
      const { announcementMails } = await readJson(c, announcementMailsSchema);
      await announcements.setMails(requireUser(c).id, announcementMails);
      return c.json({ announcementMails }, 200, NO_STORE);
    });
}
