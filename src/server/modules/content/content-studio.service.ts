import { isDeepStrictEqual } from 'node:util';
import {
  IMAGE_CONTENT_TYPES,
  checkUpload,
  contentWarnings,
  type ContentImageInfo,
  type ContentItem,
  type ContentItemSummary,
  type ContentKind,
  type ContentPreview,
  type ContentStatus,
  type SaveContentRequest,
  saveContentRequestSchema,
} from '@shared/content-studio';
import { PLAN_TYPES } from '@shared/plans';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { PublishedContent } from '../../db/schema';
import { serverError } from '../../http/server-errors';
import { buildCatalogue, ContentError, type CatalogueOptions } from './content-loader';
import { imageEntries, publishedPieces, sourceName, treeOf, type ContentLibrary, type TreePiece } from './content-library';
import {
  addRevision,
  bumpContentVersion,
  findItem,
  findRevision,
  insertItem,
  listImages,
  listItems,
  listPublished,
  listRevisions,
  recordImage,
  setPublished,
  updateDraft,
  type ContentDraft,
  type ContentItemRow,
} from './content.repository';
import type { ContentStorage } from './content-storage';
import { readImageSize } from './image-size';

// The console's side of the content: drafts, publication now or at a time, revisions and their
// restore, the preview (the member area's own DTO, built by the member area's own pipeline), and
// image uploads. Publishing builds the whole published catalogue with the piece in it first: what
// would not build (a missing image, a broken front matter, a dangling related id) is refused with
// the loader's message, and what members read stays as it was.

type SaveInput = z.output<typeof saveContentRequestSchema>;

const KIND_WORDS: Record<ContentKind, string> = { guide: 'A guide', feature: 'A feature', strategy: 'A strategy' };

export function createContentStudio(deps: {
  db: Db;
  storage: ContentStorage;
  library: ContentLibrary;
  options: CatalogueOptions;
  clock: () => Date;
  /** Where the console reads an image for the preview (members' image route answers members only). */
  previewImageUrl: (name: string) => string;
}) {
  const { db, storage, library, options, clock } = deps;

  const statusOf = (row: ContentItemRow, now: Date): ContentStatus => {
    if (!row.published) return 'draft';
    return row.publishAt && row.publishAt > now ? 'scheduled' : 'published';
  };

  const draftOf = (row: Pick<ContentItemRow, 'frontMatter' | 'body' | 'plans' | 'dripDays'>): ContentDraft => ({ frontMatter: row.frontMatter, body: row.body, plans: row.plans, dripDays: row.dripDays });

  const summary = (row: ContentItemRow, now: Date): ContentItemSummary => ({
    id: row.id,
    kind: row.kind,
    slug: row.slug,
    parentSlug: row.parentSlug,
    title: typeof row.frontMatter.title === 'string' ? row.frontMatter.title : row.slug,
    status: statusOf(row, now),
    unpublishedChanges: row.published !== null && !isDeepStrictEqual(row.published, draftOf(row)),
    publishAt: row.publishAt?.toISOString() ?? null,
    plans: row.plans,
    dripDays: row.dripDays,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  });

  const detail = async (row: ContentItemRow): Promise<ContentItem> => ({
    ...summary(row, clock()),
    frontMatter: row.frontMatter,
    body: row.body,
    revisions: (await listRevisions(db, row.id)).map((revision) => ({
      id: revision.id,
      action: revision.action,
      title: typeof revision.frontMatter.title === 'string' ? revision.frontMatter.title : row.slug,
      createdAt: revision.createdAt.toISOString(),
      createdBy: revision.createdBy,
    })),
    warnings: contentWarnings(row.body),
  });

  const requireItem = async (id: string) => {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await findItem(db, id) : undefined;
    if (!row) throw serverError('contentNotFound', 'The piece');
    return row;
  };

  /** The studio owns two fields of the front matter: the id is the slug, the order comes next after the others. */
  const normalise = async (input: SaveInput, existing?: ContentItemRow): Promise<ContentDraft> => {
    const frontMatter: Record<string, unknown> = { ...input.frontMatter, id: input.slug };
    if (input.kind === 'feature') delete frontMatter.order;
    else if (typeof frontMatter.order !== 'number') {
      const previous = existing?.frontMatter.order;
      if (typeof previous === 'number') frontMatter.order = previous;
      else {
        const orders = (await listItems(db)).filter((row) => row.kind === input.kind).map((row) => Number(row.frontMatter.order) || 0);
        frontMatter.order = Math.max(0, ...orders) + 1;
      }
    }
    for (const [key, value] of Object.entries(frontMatter)) if (value === undefined || value === null || value === '') delete frontMatter[key];
    return { frontMatter, body: input.body, plans: [...new Set(input.plans)], dripDays: input.dripDays };
  };

  /**
   * The catalogue members would read with `changes` applied over what is published (a piece's
   * draft for the preview or a publication). A product guide brings its features: the published
   * ones, else their drafts (a new product guide is published with its features).
   */
  const buildWith = async (changes: TreePiece[], catalogueOptions: CatalogueOptions = options) => {
    const [rows, images] = await Promise.all([listItems(db), listImages(db)]);
    const key = (piece: Pick<TreePiece, 'kind' | 'slug' | 'parentSlug'>) => `${piece.kind}:${piece.parentSlug ?? ''}:${piece.slug}`;
    const pieces = new Map(publishedPieces(rows).map((piece) => [key(piece), piece]));
    for (const change of changes) pieces.set(key(change), change);
    for (const change of changes.filter((piece) => piece.kind === 'guide')) {
      for (const row of rows.filter((candidate) => candidate.kind === 'feature' && candidate.parentSlug === change.slug)) {
        if (!pieces.has(key(row))) pieces.set(key(row), { ...row, frontMatter: row.frontMatter, body: row.body });
      }
    }
    // features whose guide is in neither list wait for it
    const all = [...pieces.values()].filter((piece) => piece.kind !== 'feature' || pieces.has(`guide::${piece.parentSlug}`));
    return buildCatalogue(treeOf(all, imageEntries(images, storage)), catalogueOptions);
  };

  const pieceOf = (row: Pick<ContentItemRow, 'kind' | 'slug' | 'parentSlug' | 'position'>, draft: ContentDraft): TreePiece => ({
    kind: row.kind,
    slug: row.slug,
    parentSlug: row.parentSlug,
    position: row.position,
    frontMatter: draft.frontMatter,
    body: draft.body,
  });

  const problemOf = (error: unknown): string => {
    if (error instanceof ContentError) return `${error.file}: ${error.problem}`;
    throw error;
  };

  return {
    async list(): Promise<{ items: ContentItemSummary[]; planSlugs: string[] }> {
      const now = clock();
      return { items: (await listItems(db)).map((row) => summary(row, now)), planSlugs: [...PLAN_TYPES] };
    },

    async get(id: string): Promise<ContentItem> {
      return detail(await requireItem(id));
    },

    async create(request: SaveContentRequest, by: string): Promise<ContentItem> {
      const input = saveContentRequestSchema.parse(request);
      if (input.kind === 'feature') {
        const rows = await listItems(db);
        if (!input.parentSlug || !rows.some((row) => row.kind === 'guide' && row.slug === input.parentSlug)) throw serverError('contentParentMissing', input.parentSlug ?? '(none)');
      }
      const draft = await normalise(input);
      const position = input.kind === 'feature' ? Math.max(0, ...(await listItems(db)).filter((row) => row.kind === 'feature' && row.parentSlug === input.parentSlug).map((row) => row.position)) + 1 : 0;
      const at = clock();
      const row = await insertItem(db, { kind: input.kind, slug: input.slug, parentSlug: input.kind === 'feature' ? input.parentSlug : null, position, origin: 'console', by, at, ...draft });
      if (!row) throw serverError('contentSlugTaken', `${KIND_WORDS[input.kind]} with the slug ${input.slug}`);
      await addRevision(db, row.id, 'save', draft, by, at);
      return detail(row);
    },

    /** Saves the draft: members keep reading the published version until Publish. */
    async save(id: string, request: SaveContentRequest, by: string): Promise<ContentItem> {
      const input = saveContentRequestSchema.parse(request);
      const existing = await requireItem(id);
      if (input.slug !== existing.slug || input.kind !== existing.kind) throw serverError('contentSlugFixed');
      const draft = await normalise(input, existing);
      const at = clock();
      const row = await updateDraft(db, id, draft, by, at);
      if (!row) throw serverError('contentNotFound', 'The piece');
      await addRevision(db, id, 'save', draft, by, at);
      return detail(row);
    },

    async preview(request: SaveContentRequest): Promise<ContentPreview> {
      const input = saveContentRequestSchema.parse(request);
      const draft = await normalise(input);
      const piece = pieceOf({ kind: input.kind, slug: input.slug, parentSlug: input.kind === 'feature' ? input.parentSlug : null, position: 0 }, draft);
      const warnings = contentWarnings(input.body);
      try {
        const changes = [piece];
        if (input.kind === 'feature' && input.parentSlug) {
          // the feature is shown inside its guide: the guide's published version, else its draft
          const rows = await listItems(db);
          const parent = rows.find((row) => row.kind === 'guide' && row.slug === input.parentSlug);
          if (parent && !parent.published) changes.push(pieceOf(parent, draftOf(parent)));
        }
        const catalogue = await buildWith(changes, { ...options, imageUrl: deps.previewImageUrl });
        if (input.kind === 'guide') return { kind: 'guide', guide: catalogue.guide(input.slug) ?? failPreview(), warnings };
        if (input.kind === 'strategy') return { kind: 'strategy', strategy: catalogue.strategy(input.slug) ?? failPreview(), warnings };
        return { kind: 'feature', feature: catalogue.feature(input.parentSlug ?? '', input.slug) ?? failPreview(), warnings };
      } catch (error) {
        throw serverError('contentPreviewBroken', problemOf(error));
      }
    },

    /** Publish now (publishAt null or past) or Schedule: refused, with the reason, when it would not build. */
    async publish(id: string, publishAt: Date | null, by: string): Promise<ContentItem> {
      const row = await requireItem(id);
      const draft = draftOf(row);
      const changes = [pieceOf(row, draft)];
      if (row.kind === 'feature') {
        const parent = (await listItems(db)).find((candidate) => candidate.kind === 'guide' && candidate.slug === row.parentSlug);
        if (parent && !parent.published) changes.push(pieceOf(parent, draftOf(parent)));
      }
      try {
        await buildWith(changes);
      } catch (error) {
        throw serverError('contentWouldBreak', problemOf(error));
      }
      const at = clock();
      const when = publishAt && publishAt > at ? publishAt : null;
      const published: PublishedContent = draft;
      const updated = await db.transaction(async (tx) => {
        const written = await setPublished(tx as unknown as Db, id, published, when, by, at);
        if (row.kind === 'guide') {
          // a new product guide goes out with the features it was built with
          const features = (await listItems(tx as unknown as Db)).filter((candidate) => candidate.kind === 'feature' && candidate.parentSlug === row.slug && !candidate.published);
          for (const feature of features) await setPublished(tx as unknown as Db, feature.id, draftOf(feature), null, by, at);
        }
        await addRevision(tx as unknown as Db, id, when ? 'schedule' : 'publish', draft, by, at);
        await bumpContentVersion(tx as unknown as Db);
        return written;
      });
      await library.reload();
      return detail(updated ?? row);
    },

    /** Members stop seeing it; the draft and its revisions stay. */
    async unpublish(id: string, by: string): Promise<ContentItem> {
      const row = await requireItem(id);
      const at = clock();
      const updated = await db.transaction(async (tx) => {
        const written = await setPublished(tx as unknown as Db, id, null, null, by, at);
        await addRevision(tx as unknown as Db, id, 'unpublish', draftOf(row), by, at);
        await bumpContentVersion(tx as unknown as Db);
        return written;
      });
      await library.reload();
      return detail(updated ?? row);
    },

    /** A revision's text back into the draft (Publish makes it what members read). */
    async restore(id: string, revisionId: number, by: string): Promise<ContentItem> {
      const row = await requireItem(id);
      const revision = await findRevision(db, id, revisionId);
      if (!revision) throw serverError('contentNotFound', 'The revision');
      const draft = draftOf(revision);
      const at = clock();
      const updated = await updateDraft(db, id, draft, by, at);
      await addRevision(db, id, 'restore', draft, by, at);
      return detail(updated ?? row);
    },

    async images(): Promise<ContentImageInfo[]> {
      return (await listImages(db)).map((image) => ({ name: image.name, url: deps.previewImageUrl(image.name), width: image.width, height: image.height, bytes: image.byteSize }));
    },

    /** Checks what the bytes are (never the name alone), refuses unsafe SVG and taken names, then stores. */
    async upload(name: string, bytes: Uint8Array, by: string): Promise<ContentImageInfo> {
      const checked = checkUpload(name, bytes);
      if (!checked.ok) throw serverError('contentUploadRefused', checked.message);
      const size = readImageSize(name, bytes);
      if (!size) throw serverError('contentUploadRefused', checked.kind === 'svg' ? 'This SVG has no size: give it width and height, or a viewBox.' : `The size of ${name} cannot be read: is the file complete?`);
      const contentType = IMAGE_CONTENT_TYPES[checked.kind];
      const inDatabase = storage.kind === 'database';
      const taken = (await listImages(db)).some((image) => image.name.toLowerCase() === name.toLowerCase());
      if (taken) throw serverError('contentImageTaken', name);
      // a bucket or a folder first: a row never names bytes that were not stored
      if (!inDatabase) await storage.put(name, bytes, contentType);
      const recorded = await recordImage(db, { name, contentType, width: size.width, height: size.height, byteSize: bytes.byteLength, storage: storage.kind, createdBy: by, createdAt: clock() }, false, inDatabase ? bytes : null);
      if (!recorded) throw serverError('contentImageTaken', name);
      return { name, url: deps.previewImageUrl(name), width: size.width, height: size.height, bytes: bytes.byteLength };
    },

    /** For the console's list: where each published piece's file would be. */
    sourceName,
    listPublished: () => listPublished(db),
  };
}

function failPreview(): never {
  throw new ContentError('preview', 'the piece did not build');
}

export type ContentStudio = ReturnType<typeof createContentStudio>;
