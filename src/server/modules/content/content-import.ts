import { isDeepStrictEqual } from 'node:util';
import { basename } from 'node:path';
import { IMAGE_CONTENT_TYPES, sniffImage } from '@shared/content-studio';
import type { ContentKind } from '@shared/content-studio';
import type { Db } from '../../db/client';
import type { PublishedContent } from '../../db/schema';
import { readContentTree, type ContentSource } from './content-loader';
import { addRevision, findItemBySlug, insertItem, markImported, recordImage, setPublished, updateDraft, wasImported } from './content.repository';
import type { ContentStorage } from './content-storage';

// The repository's content/ (guides with their feature folders, strategies, images) into the
// studio's rows: at the first start of a shop, so the member area reads as it always did, and
// again on demand (`npm run admin -- content import`). A piece that came from a file is written
// over by its file (its earlier version stays in its revisions); pieces written in the console
// are never touched.

export type ImportReport = { created: number; updated: number; unchanged: number; images: number };

type Piece = { kind: ContentKind; slug: string; parentSlug: string | null; position: number; source: ContentSource };

const substituteId = (value: unknown, productSlug: string) => String(value ?? '').replaceAll('{product}', productSlug);

export async function importContent(deps: { db: Db; storage: ContentStorage; dir: string; productSlug: string; by: string; at: Date }): Promise<ImportReport> {
  const { db, storage, productSlug, by, at } = deps;
  const tree = await readContentTree(deps.dir);
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, images: 0 };

  for (const [name, entry] of tree.images) {
    const bytes = await entry.read();
    const kind = sniffImage(bytes);
    if (!kind) throw new Error(`content/images/${name} is not an image`);
    if (storage.kind !== 'database') await storage.put(name, bytes, IMAGE_CONTENT_TYPES[kind]);
    await recordImage(db, { name, contentType: IMAGE_CONTENT_TYPES[kind], width: entry.size.width, height: entry.size.height, byteSize: bytes.byteLength, storage: storage.kind, createdBy: by, createdAt: at }, true, storage.kind === 'database' ? bytes : null);
    report.images += 1;
  }

  const pieces: Piece[] = [];
  for (const { source, features } of tree.guides) {
    const slug = substituteId(source.data.id, productSlug);
    pieces.push({ kind: 'guide', slug, parentSlug: null, position: 0, source });
    for (const feature of features ?? []) {
      const position = Number(/^(\d+)-/.exec(basename(feature.name))?.[1] ?? 0);
      pieces.push({ kind: 'feature', slug: substituteId(feature.data.id, productSlug), parentSlug: slug, position, source: feature });
    }
  }
  for (const source of tree.strategies) pieces.push({ kind: 'strategy', slug: substituteId(source.data.id, productSlug), parentSlug: null, position: 0, source });

  for (const piece of pieces) {
    const draft = { frontMatter: piece.source.data, body: piece.source.body, plans: [], dripDays: 0 };
    const published: PublishedContent = draft;
    const existing = await findItemBySlug(db, piece.kind, piece.slug, piece.parentSlug);
    if (!existing) {
      const row = await insertItem(db, { kind: piece.kind, slug: piece.slug, parentSlug: piece.parentSlug, position: piece.position, origin: 'import', by, at, ...draft });
      if (row) {
        await setPublished(db, row.id, published, null, by, at);
        await addRevision(db, row.id, 'import', draft, by, at);
        report.created += 1;
      } else report.unchanged += 1; // another instance imported it meanwhile
      continue;
    }
    if (existing.origin !== 'import') {
      report.unchanged += 1;
      continue;
    }
    const same = existing.body === draft.body && isDeepStrictEqual(existing.frontMatter, draft.frontMatter) && existing.published !== null && existing.published.body === draft.body && isDeepStrictEqual(existing.published.frontMatter, draft.frontMatter);
    if (same) {
      report.unchanged += 1;
      continue;
    }
    await updateDraft(db, existing.id, { ...draft, plans: existing.plans, dripDays: existing.dripDays }, by, at);
    await setPublished(db, existing.id, { ...published, plans: existing.published?.plans ?? [], dripDays: existing.published?.dripDays ?? 0 }, existing.publishAt, by, at);
    await addRevision(db, existing.id, 'import', { ...draft, plans: existing.plans, dripDays: existing.dripDays }, by, at);
    report.updated += 1;
  }
  await markImported(db, at);
  return report;
}

/** The first start's import: nothing when this database has imported once already (even if the operator deleted pieces since). */
export async function importContentOnFirstStart(deps: Parameters<typeof importContent>[0]): Promise<ImportReport | null> {
  if (await wasImported(deps.db)) return null;
  return importContent(deps);
}


