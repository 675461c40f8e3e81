import type { GuideSummary, StrategySummary } from '@shared/content';
import { gateNeedsMember, type ContentGate } from '@shared/content-studio';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { buildCatalogue, type CatalogueOptions, type ContentCatalogue, type ContentImageEntry, type ContentSource, type ContentTree } from './content-loader';
import { contentVersion, listImages, listPublished, type ContentImageRow, type ContentItemRow } from './content.repository';
import type { ContentStorage } from './content-storage';

// What members read: the published pieces built into one catalogue, kept in memory. A publish on
// this instance reloads it at once; every instance compares the database's content version with
// its own at most every MEMBER_CACHE_MS and reloads when it moved, so a publish elsewhere shows
// within that time. A build that fails (it should not: the studio builds before it publishes)
// keeps the copy members already read.

/** One built state of the published content, with each piece's gate. */
export type ContentSnapshot = {
  version: number;
  catalogue: ContentCatalogue;
  /** The lists as answered when nothing is gated (one object each, so each is prepared once). */
  guideList: { guides: GuideSummary[] };
  strategyList: { strategies: StrategySummary[] };
  /** Gate of `guide:<id>` and `strategy:<id>`; a missing key is open. */
  gates: Map<string, ContentGate>;
  /** Some piece is gated by plan, drip or a future publish time: lists are filtered per member. */
  gated: boolean;
  /** Some gate needs the member's plans or first payment (not only the clock). */
  needsMember: boolean;
  /**
   * The pieces that show each image (by file name), built only when something is gated: an image
   * is served to a member who may read one of them (an image no piece shows stays open to members).
   */
  imageUsers: Map<string, { kind: 'guide' | 'strategy'; id: string }[]>;
};

export type ContentLibrary = {
  current: () => Promise<ContentSnapshot>;
  /** Reads the database's content now (after a publish on this instance). */
  reload: () => Promise<ContentSnapshot>;
};

export const gateKey = (kind: 'guide' | 'strategy', id: string) => `${kind}:${id}`;

function snapshotOf(version: number, catalogue: ContentCatalogue, gates: Map<string, ContentGate>): ContentSnapshot {
  const values = [...gates.values()];
  return {
    version,
    catalogue,
    guideList: { guides: catalogue.guides },
    strategyList: { strategies: catalogue.strategies },
    gates,
    gated: values.some((gate) => gateNeedsMember(gate) || gate.visibleFrom !== null),
    needsMember: values.some(gateNeedsMember),
    imageUsers: gates.size > 0 ? imageUsersOf(catalogue) : new Map(),
  };
}

// an image URL as the loader writes it into a piece (`imageUrl`), whatever its prefix
const IMAGE_URL = /\/content\/images\/([A-Za-z0-9][\w.-]*)/g;

/** Which pieces show which images: every image URL in a guide (with its features) or a strategy. */
export function imageUsersOf(catalogue: ContentCatalogue): Map<string, { kind: 'guide' | 'strategy'; id: string }[]> {
  const users = new Map<string, { kind: 'guide' | 'strategy'; id: string }[]>();
  const note = (kind: 'guide' | 'strategy', id: string, dto: unknown) => {
    for (const file of new Set([...JSON.stringify(dto ?? null).matchAll(IMAGE_URL)].map((match) => match[1]!))) users.set(file, [...(users.get(file) ?? []), { kind, id }]);
  };
  for (const summary of catalogue.guides) {
    const guide = catalogue.guide(summary.id);
    note('guide', summary.id, [guide, ...(guide?.features ?? []).map((feature) => catalogue.feature(summary.id, feature.id))]);
  }
  for (const summary of catalogue.strategies) note('strategy', summary.id, catalogue.strategy(summary.id));
  return users;
}

/** A fixed catalogue with nothing gated (tests and tools that pass their own content). */
export function staticContentLibrary(catalogue: ContentCatalogue): ContentLibrary {
  const snapshot = snapshotOf(0, catalogue, new Map());
  return { current: async () => snapshot, reload: async () => snapshot };
}

const pad = (position: number) => String(position).padStart(2, '0');

/** The name a piece has in messages: the file it would be in content/. */
export function sourceName(row: Pick<ContentItemRow, 'kind' | 'slug' | 'parentSlug' | 'position'>): string {
  if (row.kind === 'feature') return `guides/${row.parentSlug}/${pad(row.position)}-${row.slug}.md`;
  return `${row.kind === 'guide' ? 'guides' : 'strategies'}/${row.slug}.md`;
}

export type TreePiece = Pick<ContentItemRow, 'kind' | 'slug' | 'parentSlug' | 'position'> & { frontMatter: Record<string, unknown>; body: string };

/** The source tree of these pieces and images, as the loader reads content/. */
export function treeOf(pieces: TreePiece[], images: Map<string, ContentImageEntry>): ContentTree {
  const source = (piece: TreePiece): ContentSource => ({ name: sourceName(piece), data: piece.frontMatter, body: piece.body });
  const features = (slug: string) =>
    pieces
      .filter((piece) => piece.kind === 'feature' && piece.parentSlug === slug)
      .sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug))
      .map(source);
  return {
    guides: pieces.filter((piece) => piece.kind === 'guide').map((piece) => ({ source: source(piece), features: features(piece.slug) })),
    strategies: pieces.filter((piece) => piece.kind === 'strategy').map(source),
    images,
  };
}

/** The image entries of these rows, their bytes read through the storage port. */
export function imageEntries(rows: ContentImageRow[], storage: ContentStorage): Map<string, ContentImageEntry> {
  return new Map(
    rows.map((row) => [
      row.name,
      {
        size: { width: row.width, height: row.height },
        read: async () => {
          const bytes = await storage.get(row.name);
          if (!bytes) throw new Error(`image ${row.name} is missing from the ${storage.kind} storage`);
          return bytes;
        },
      },
    ]),
  );
}

/** The published pieces as a tree (members' view): the published snapshot of each row. */
export function publishedPieces(rows: ContentItemRow[]): TreePiece[] {
  return rows.flatMap((row) => (row.published ? [{ kind: row.kind, slug: row.slug, parentSlug: row.parentSlug, position: row.position, frontMatter: row.published.frontMatter, body: row.published.body }] : []));
}

export function gatesOf(rows: ContentItemRow[]): Map<string, ContentGate> {
  const gates = new Map<string, ContentGate>();
  for (const row of rows) {
    if (!row.published || row.kind === 'feature') continue;
    const gate: ContentGate = { plans: row.published.plans, dripDays: row.published.dripDays, visibleFrom: row.publishAt };
    if (gateNeedsMember(gate) || gate.visibleFrom !== null) gates.set(gateKey(row.kind, row.slug), gate);
  }
  return gates;
}

export function createContentLibrary(deps: { db: Db; storage: ContentStorage; options: CatalogueOptions; cacheMs: number; logger: Logger; now?: () => number }): ContentLibrary {
  const { db, storage, options, cacheMs, logger } = deps;
  const now = deps.now ?? Date.now;
  let snapshot: ContentSnapshot | null = null;
  let checkedAt = -Infinity;
  let pending: Promise<ContentSnapshot> | null = null;

  const build = async (version: number): Promise<ContentSnapshot> => {
    const [rows, images] = await Promise.all([listPublished(db), listImages(db)]);
    const published = rows.filter((row) => row.published && (row.kind !== 'feature' || rows.some((parent) => parent.kind === 'guide' && parent.slug === row.parentSlug && parent.published)));
    try {
      return snapshotOf(version, buildCatalogue(treeOf(publishedPieces(published), imageEntries(images, storage)), options), gatesOf(published));
    } catch (error) {
      logger.error({ err: error }, 'the published content does not build; members keep the copy they had');
      return snapshot ?? snapshotOf(version, buildCatalogue({ guides: [], strategies: [], images: new Map() }, options), new Map());
    }
  };

  const refresh = (force: boolean): Promise<ContentSnapshot> => {
    pending ??= (async () => {
      try {
        const version = await contentVersion(db);
        if (force || !snapshot || snapshot.version !== version) snapshot = await build(version);
        checkedAt = now();
        return snapshot;
      } finally {
        pending = null;
      }
    })();
    return pending;
  };

  return {
    current: () => (snapshot && now() - checkedAt < cacheMs ? Promise.resolve(snapshot) : refresh(false)),
    reload: async () => {
      // a check begun before the caller's write may have read the old version: wait for it, then read again
      await pending?.catch(() => undefined);
      return refresh(true);
    },
  };
}

