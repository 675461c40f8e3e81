// The only file that touches the content studio's tables: pieces with their drafts and published
// snapshots, their revisions, the images' facts and the version every instance watches.
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { ContentKind } from '@shared/content-studio';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { contentImages, contentItems, contentRevisions, contentState, type PublishedContent } from '../../db/schema';
import { accessPlansOfMember } from '../entitlements/entitlement-reads';

export type ContentItemRow = typeof contentItems.$inferSelect;
export type ContentRevisionRow = typeof contentRevisions.$inferSelect;
export type ContentImageRow = Omit<typeof contentImages.$inferSelect, 'bytes'>;

/** The draft fields an operator writes. */
export type ContentDraft = { frontMatter: Record<string, unknown>; body: string; plans: string[]; dripDays: number };

export async function contentVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: contentState.version }).from(contentState).where(eq(contentState.id, 1));
  return row?.version ?? 0;
}

/** Every instance reloads its copy when it sees the number move (within MEMBER_CACHE_MS). */
export async function bumpContentVersion(db: Db): Promise<void> {
  // an upsert: the one row is the migration's, but an emptied database (tests) has none
  await db
    .insert(contentState)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: contentState.id, set: { version: sql`${contentState.version} + 1` } });
}

export async function wasImported(db: Db): Promise<boolean> {
  const [row] = await db.select({ importedAt: contentState.importedAt }).from(contentState).where(eq(contentState.id, 1));
  return Boolean(row?.importedAt);
}

export async function markImported(db: Db, at: Date): Promise<void> {
  await db
    .insert(contentState)
    .values({ id: 1, version: 1, importedAt: at })
    .onConflictDoUpdate({ target: contentState.id, set: { importedAt: at, version: sql`${contentState.version} + 1` } });
}

export function listItems(db: Db): Promise<ContentItemRow[]> {
  return db.select().from(contentItems).orderBy(asc(contentItems.kind), asc(contentItems.parentSlug), asc(contentItems.slug));
}

/** The pieces members may see (now or from their publish_at). */
export function listPublished(db: Db): Promise<ContentItemRow[]> {
  return db.select().from(contentItems).where(isNotNull(contentItems.published));
}

export async function findItem(db: Db, id: string): Promise<ContentItemRow | undefined> {
  const [row] = await db.select().from(contentItems).where(eq(contentItems.id, id));
  return row;
}

export async function findItemBySlug(db: Db, kind: ContentKind, slug: string, parentSlug: string | null): Promise<ContentItemRow | undefined> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug), sql`coalesce(${contentItems.parentSlug}, '') = ${parentSlug ?? ''}`));
  return row;
}

/** A new piece, or undefined when its slug is taken (the unique index decides, not a read before). */
export async function insertItem(
  db: Db,
  input: { kind: ContentKind; slug: string; parentSlug: string | null; position: number; origin: string; by: string | null; at: Date } & ContentDraft,
): Promise<ContentItemRow | undefined> {
  const [row] = await db
    .insert(contentItems)
    .values({ ...input, updatedBy: input.by, createdAt: input.at, updatedAt: input.at })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function updateDraft(db: Db, id: string, draft: ContentDraft, by: string | null, at: Date): Promise<ContentItemRow | undefined> {
  const [row] = await db
    .update(contentItems)
    .set({ ...draft, updatedBy: by, updatedAt: at })
    .where(eq(contentItems.id, id))
    .returning();
  return row;
}

export async function setPublished(db: Db, id: string, published: PublishedContent | null, publishAt: Date | null, by: string | null, at: Date): Promise<ContentItemRow | undefined> {
  const [row] = await db.update(contentItems).set({ published, publishAt, updatedBy: by, updatedAt: at }).where(eq(contentItems.id, id)).returning();
  return row;
}

export async function addRevision(db: Db, itemId: string, action: string, draft: ContentDraft, by: string | null, at: Date): Promise<void> {
  await db.insert(contentRevisions).values({ itemId, action, ...draft, createdBy: by, createdAt: at });
}

export function listRevisions(db: Db, itemId: string, limit = 50): Promise<ContentRevisionRow[]> {
  return db.select().from(contentRevisions).where(eq(contentRevisions.itemId, itemId)).orderBy(desc(contentRevisions.id)).limit(limit);
}

export async function findRevision(db: Db, itemId: string, revisionId: number): Promise<ContentRevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(contentRevisions)
    .where(and(eq(contentRevisions.itemId, itemId), eq(contentRevisions.id, revisionId)));
  return row;
}

const imageFacts = {
  name: contentImages.name,
  contentType: contentImages.contentType,
  width: contentImages.width,
  height: contentImages.height,
  byteSize: contentImages.byteSize,
  storage: contentImages.storage,
  createdBy: contentImages.createdBy,
  createdAt: contentImages.createdAt,
};

export function listImages(db: Db): Promise<ContentImageRow[]> {
  return db.select(imageFacts).from(contentImages).orderBy(asc(contentImages.name));
}

/** The image's facts (and its bytes with the database storage), or false when the name is taken (replace: true overwrites them). */
export async function recordImage(db: Db, image: ContentImageRow, replace: boolean, bytes: Uint8Array | null = null): Promise<boolean> {
  const insert = db.insert(contentImages).values({ ...image, bytes: bytes ? Buffer.from(bytes) : null });
  const rows = replace
    ? await insert
        .onConflictDoUpdate({ target: contentImages.name, set: { contentType: image.contentType, width: image.width, height: image.height, byteSize: image.byteSize, storage: image.storage, ...(bytes ? { bytes: Buffer.from(bytes) } : {}) } })
        .returning({ name: contentImages.name })
    : await insert.onConflictDoNothing().returning({ name: contentImages.name });
  return rows.length > 0;
}

/**
 * The plans with access a member holds now (the SQL access rule) and their first paid order: what
 * per-plan gating and drip need.
 */
export async function memberStanding(db: Db, userId: string): Promise<{ plans: string[]; firstPaidAt: Date | null }> {
  const [row] = await queryRows<{ plans: string[] | null; first_paid_at: Date | string | null }>(
    db,
    sql`SELECT
          ${accessPlansOfMember(userId)} AS plans,
          (SELECT min(o.created_at) FROM orders o WHERE o.user_id = ${userId}::uuid AND o.status = 'paid' AND o.amount > 0) AS first_paid_at`,
  );
  const firstPaid = row?.first_paid_at;
  return { plans: row?.plans ?? [], firstPaidAt: firstPaid ? new Date(firstPaid) : null };
}
