import { z } from 'zod';
import type { Guide, GuideFeature, Strategy } from './content';

// The content studio's contract (guides, product features, strategies and announcements written in
// the console) and its pure rules: who sees a published piece, what an upload really is, what an
// operator's text would lose when shown. No I/O here.

export const CONTENT_KINDS = ['guide', 'feature', 'strategy'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A piece's Markdown (front matter apart) may be this long; the 2 MB a paste can bring is refused. */
export const CONTENT_BODY_MAX_CHARS = 256 * 1024;
/** An uploaded image may be this large. */
export const CONTENT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** An announcement's text. */
export const ANNOUNCEMENT_BODY_MAX_CHARS = 8 * 1024;

export const CONTENT_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const IMAGE_NAME = /^[A-Za-z0-9][\w-]*\.(?:svg|png|jpe?g|webp|gif)$/;

const slug = z.string().max(80).regex(CONTENT_SLUG, 'The slug may hold lower-case letters, digits and single dashes (e.g. my-first-guide).');
/** Plan slugs as strings (plans become records of their own; a slug names one). */
const planSlug = z.string().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/, 'must be a plan slug');

// ------------------------------------------------------------------------------------ visibility

/** Who may see a published piece, beside having access at all. */
export type ContentGate = {
  /** Plan slugs that see it; empty: every member with access. */
  plans: string[];
  /** Seen this many whole days after the member's first payment (0: at once). */
  dripDays: number;
  /** Seen from this instant (a scheduled publication); null: since it was published. */
  visibleFrom: Date | null;
};

/** What the visibility rule needs of a member: their plans with access now and their first payment. */
export type MemberStanding = { plans: string[]; firstPaidAt: Date | null };

export const OPEN_GATE: ContentGate = { plans: [], dripDays: 0, visibleFrom: null };

const DAY_MS = 86_400_000;

/** Whether a member sees a published piece now (they have access: the route checked that first). */
export function isContentVisible(gate: ContentGate, member: MemberStanding, now: Date): boolean {
  if (gate.visibleFrom && gate.visibleFrom.getTime() > now.getTime()) return false;
  if (gate.plans.length > 0 && !member.plans.some((plan) => gate.plans.includes(plan))) return false;
  if (gate.dripDays > 0) {
    // A member with access but no payment of their own (complimentary, imported) waits from nothing: no drip.
    if (member.firstPaidAt && now.getTime() - member.firstPaidAt.getTime() < gate.dripDays * DAY_MS) return false;
  }
  return true;
}

/** A gate that needs the member's standing to decide (the scheduled time alone needs only the clock). */
export const gateNeedsMember = (gate: ContentGate) => gate.plans.length > 0 || gate.dripDays > 0;

// ----------------------------------------------------------------------------------- safe texts

/**
 * What members will not see of an operator's Markdown: raw HTML is shown as text in guides and
 * removed from strategies, script and unsafe links never reach a page. Said at save time so that
 * the operator is not surprised by the preview.
 */
export function contentWarnings(markdown: string): string[] {
  const warnings: string[] = [];
  if (/<\s*script\b/i.test(markdown)) warnings.push('Script tags are removed: members never get them.');
  if (/\]\(\s*(?:javascript|data|vbscript):/i.test(markdown) || /href\s*=\s*["']?\s*(?:javascript|data|vbscript):/i.test(markdown)) {
    warnings.push('javascript: and data: links are removed: only http(s), mailto and this site’s links are kept.');
  }
  if (/<\s*(?:iframe|object|embed|style)\b/i.test(markdown)) warnings.push('Embedded HTML (iframe, object, style) is removed.');
  return warnings;
}

/** Image names written in Markdown (`![alt](name)`) that are files of the content library, not URLs. */
export function imagesInMarkdown(markdown: string): string[] {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/!\[[^\]\n]*\]\(([^()\s]+)\)/g)) {
    const src = match[1] ?? '';
    if (!/^[a-z][a-z0-9+.-]*:|^\//i.test(src)) names.add(src);
  }
  return [...names];
}

// -------------------------------------------------------------------------------------- uploads

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg';

const EXTENSION_KIND: Record<string, ImageKind> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', gif: 'gif', webp: 'webp', svg: 'svg' };
export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) => prefix.every((byte, index) => bytes[at + index] === byte);

/** What the bytes are, by their magic numbers (never by the name): null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart();
  if (/^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

/** Why an SVG could run something in a browser that opens it: null when it cannot. */
export function unsafeSvgReason(svg: string): string | null {
  if (/<\s*script\b/i.test(svg)) return 'it holds a script';
  if (/\son[a-z]+\s*=/i.test(svg)) return 'it holds an event handler (on…=)';
  if (/(?:href|src)\s*=\s*["']?\s*(?:javascript|data:text\/html)/i.test(svg)) return 'it holds a javascript: link';
  if (/<\s*(?:foreignObject|iframe|embed|object)\b/i.test(svg)) return 'it embeds HTML';
  if (/<!ENTITY/i.test(svg)) return 'it declares XML entities';
  return null;
}

/** The refusal of an upload, or the image's kind: the name's extension must say what the bytes are. */
export function checkUpload(name: string, bytes: Uint8Array): { ok: true; kind: ImageKind } | { ok: false; message: string } {
  if (!IMAGE_NAME.test(name)) return { ok: false, message: 'The file name must end in .svg, .png, .jpg, .webp or .gif and hold only letters, digits, - and _.' };
  if (bytes.byteLength === 0) return { ok: false, message: 'The file is empty.' };
  if (bytes.byteLength > CONTENT_IMAGE_MAX_BYTES) return { ok: false, message: `An image may be at most ${CONTENT_IMAGE_MAX_BYTES / 1024 / 1024} MB.` };
  const claimed = EXTENSION_KIND[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];
  const kind = sniffImage(bytes);
  if (!kind) return { ok: false, message: `${name} is not an image: its content is none of SVG, PNG, JPEG, WebP or GIF.` };
  if (kind !== claimed) return { ok: false, message: `${name} is named as ${claimed?.toUpperCase() ?? 'an image'} but its content is ${kind.toUpperCase()}: rename it.` };
  if (kind === 'svg') {
    const reason = unsafeSvgReason(new TextDecoder().decode(bytes));
    if (reason) return { ok: false, message: `This SVG is refused: ${reason}.` };
  }
  return { ok: true, kind };
}

// ------------------------------------------------------------------------------------ contract

export const CONTENT_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

const frontMatter = z.record(z.string(), z.unknown());

export const saveContentRequestSchema = z.strictObject({
  kind: z.enum(CONTENT_KINDS),
  slug,
  /** A feature's product guide. */
  parentSlug: slug.nullable().default(null),
  /** The front matter's fields (id, order are the studio's: id is the slug). */
  frontMatter,
  body: z.string().max(CONTENT_BODY_MAX_CHARS, `The text may be at most ${CONTENT_BODY_MAX_CHARS / 1024} KB.`),
  plans: z.array(planSlug).max(20).default([]),
  dripDays: z.number().int().min(0).max(3650).default(0),
});
export type SaveContentRequest = z.input<typeof saveContentRequestSchema>;

export const publishContentRequestSchema = z.strictObject({
  /** ISO instant: publish then (Schedule); absent or past: now (Publish). */
  publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
});

export const contentItemSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(CONTENT_KINDS),
  slug: z.string(),
  parentSlug: z.string().nullable(),
  title: z.string(),
  status: z.enum(CONTENT_STATUSES),
  /** The draft differs from what members see. */
  unpublishedChanges: z.boolean(),
  publishAt: z.string().nullable(),
  plans: z.array(z.string()),
  dripDays: z.number(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type ContentItemSummary = z.infer<typeof contentItemSummarySchema>;

export const contentRevisionSchema = z.object({
  id: z.number(),
  action: z.string(),
  title: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type ContentRevision = z.infer<typeof contentRevisionSchema>;

export const contentItemSchema = contentItemSummarySchema.extend({
  frontMatter,
  body: z.string(),
  revisions: z.array(contentRevisionSchema),
  warnings: z.array(z.string()),
});
export type ContentItem = z.infer<typeof contentItemSchema>;

export const contentListSchema = z.object({ items: z.array(contentItemSummarySchema), planSlugs: z.array(z.string()) });

export const contentImageSchema = z.object({ name: z.string(), url: z.string(), width: z.number(), height: z.number(), bytes: z.number() });
export type ContentImageInfo = z.infer<typeof contentImageSchema>;
export const contentImageListSchema = z.object({ images: z.array(contentImageSchema) });

/** The preview: the member area's own DTO, built by the member area's own pipeline. */
export type ContentPreview =
  | { kind: 'guide'; guide: Guide; warnings: string[] }
  | { kind: 'feature'; feature: GuideFeature; warnings: string[] }
  | { kind: 'strategy'; strategy: Strategy; warnings: string[] };

export const contentPreviewSchema = z.custom<ContentPreview>((value) => typeof value === 'object' && value !== null && 'kind' in value);

// --------------------------------------------------------------------------------- announcements

export const postAnnouncementRequestSchema = z.strictObject({
  title: z.string().trim().min(1, 'Please enter a title.').max(140),
  body: z.string().trim().min(1, 'Please write the update.').max(ANNOUNCEMENT_BODY_MAX_CHARS, `An update may be at most ${ANNOUNCEMENT_BODY_MAX_CHARS / 1024} KB.`),
  /** The invite-only script (or product) it concerns, if one. */
  scriptId: z.string().trim().max(120).nullable().default(null),
  plans: z.array(planSlug).max(20).default([]),
  /** Send it by mail to members who did not opt out, and post it to Discord. */
  notify: z.boolean().default(true),
});
export type PostAnnouncementRequest = z.input<typeof postAnnouncementRequestSchema>;

export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  scriptId: z.string().nullable(),
  plans: z.array(z.string()),
  publishedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const adminAnnouncementSchema = announcementSchema.extend({
  createdBy: z.string().nullable(),
  mailsQueued: z.number(),
  discord: z.string(),
  /** What each integration answered, by its name: 'posted', 'off', 'failed: …'. */
  posts: z.record(z.string(), z.string()),
});
export type AdminAnnouncement = z.infer<typeof adminAnnouncementSchema>;
export const adminAnnouncementListSchema = z.object({ announcements: z.array(adminAnnouncementSchema) });

export const memberAnnouncementsSchema = z.object({
  announcements: z.array(announcementSchema.extend({ read: z.boolean() })),
  unread: z.number(),
});
export type MemberAnnouncements = z.infer<typeof memberAnnouncementsSchema>;

export const announcementMailsSchema = z.object({ announcementMails: z.boolean() });
export type AnnouncementMailsPreference = z.infer<typeof announcementMailsSchema>;

export const CONTENT_STUDIO_PATHS = {
  items: '/api/admin/content',
  item: (id: string) => `/api/admin/content/${encodeURIComponent(id)}`,
  publish: (id: string) => `/api/admin/content/${encodeURIComponent(id)}/publish`,
  unpublish: (id: string) => `/api/admin/content/${encodeURIComponent(id)}/unpublish`,
  restore: (id: string, revision: number) => `/api/admin/content/${encodeURIComponent(id)}/revisions/${revision}/restore`,
  preview: '/api/admin/content/preview',
  images: '/api/admin/content/images',
  upload: (name: string) => `/api/admin/content/images?name=${encodeURIComponent(name)}`,
  adminAnnouncements: '/api/admin/announcements',
  announcements: '/api/announcements',
  announcementsRead: '/api/announcements/read',
  announcementMails: '/api/preferences/announcement-mails',
} as const;
