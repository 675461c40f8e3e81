import { extname, join } from 'node:path';
import type { Guide, GuideFeature, GuideSummary, Strategy, StrategySummary } from '@shared/content';
import type { Config } from '../../config';
import { PROJECT_ROOT } from '../../project-root';
import { loadContent, type CatalogueOptions, type ContentCatalogue } from './content-loader';
import { serverError } from '../../http/server-errors';

/** `content/` at the project root, whatever the working directory. */
export const CONTENT_DIR = join(PROJECT_ROOT, 'content');

/** Where the API serves the files of content/images (the loader writes these URLs into the DTOs). */
const CONTENT_IMAGE_PREFIX = '/api/content/images/';

/** Where the console's preview reads images (published or not; operators only). */
export const PREVIEW_IMAGE_PREFIX = '/api/admin/content/images/';

/** How this shop builds its catalogue: its brand in the texts, its image route in the URLs. */
export function siteCatalogueOptions(config: Pick<Config, 'site'>): CatalogueOptions {
  return { brandName: config.site.brandName, productSlug: config.site.brandSlug, imageUrl: (file) => `${CONTENT_IMAGE_PREFIX}${file}` };
}

/** Reads a whole content tree from disk; a broken file throws (see the loader). */
export function loadSiteContent(config: Pick<Config, 'site'>, dir: string = CONTENT_DIR): Promise<ContentCatalogue> {
  return loadContent({ dir, ...siteCatalogueOptions(config) });
}

/** A catalogue with nothing in it, for tools that serve no content (e.g. the benchmark). */
export const EMPTY_CONTENT: ContentCatalogue = {
  guides: [],
  guide: () => undefined,
  feature: () => undefined,
  strategies: [],
  strategy: () => undefined,
  image: () => undefined,
  imagePath: () => undefined,
};

const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

export type ContentImage = { body: Uint8Array; contentType: string };

export function createContentService({ content }: { content: ContentCatalogue }) {
  // Content never changes while the process runs, so each image is read from disk once.
  const imageCache = new Map<string, Promise<ContentImage>>();

  const notFound = (what: string) => serverError('contentNotFound', what);

  return {
    listGuides(): GuideSummary[] {
      return content.guides;
    },

    guide(id: string): Guide {
      const guide = content.guide(id);
      if (!guide) throw notFound('The guide');
      return guide;
    },

    feature(productId: string, featureId: string): GuideFeature {
      if (!content.guide(productId)) throw notFound('The product');
      const feature = content.feature(productId, featureId);
      if (!feature) throw notFound('The requested feature documentation');
      return feature;
    },

    listStrategies(): StrategySummary[] {
      return content.strategies;
    },

    strategy(id: string): Strategy {
      const strategy = content.strategy(id);
      if (!strategy) throw notFound('The strategy');
      return strategy;
    },

    image(file: string): Promise<ContentImage> {
      const entry = content.image(file);
      const contentType = IMAGE_TYPES[extname(file).toLowerCase()];
      if (!entry || !contentType) return Promise.reject(notFound('The image'));
      let cached = imageCache.get(file);
      if (!cached) {
        cached = entry.read().then((body) => ({ body, contentType }));
        // A failed read (file removed under us) must not be remembered.
        cached.catch(() => imageCache.delete(file));
        imageCache.set(file, cached);
      }
      return cached;
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
