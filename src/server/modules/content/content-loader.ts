import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import {
  featureFrontMatterSchema,
  guideFrontMatterSchema,
  guideLayout,
  parseSettingBlocks,
  strategyFrontMatterSchema,
} from '@shared/content';
import type {
  Guide,
  GuideFeature,
  GuideFeatureSummary,
  GuideSummary,
  ImageSize,
  ImageSizes,
  Strategy,
  StrategySummary,
} from '@shared/content';
import { readImageSize } from './image-size';

// Builds the members' content (guides, product features, strategies) from a source tree: the
// repository's `content/` read from disk (readContentTree), or the studio's published rows
// (content-library.ts). Any broken piece (bad front matter, unknown image, dangling related id)
// stops the build with a message that names the piece, rather than surfacing later as a
// half-rendered page: the studio refuses to publish what would not build.

export type ContentLoaderOptions = {
  /** The content root holding guides/, strategies/ and images/. */
  dir: string;
} & CatalogueOptions;

export type CatalogueOptions = {
  /** Replaces `{brand}` in texts. */
  brandName: string;
  /** Replaces `{product}` in ids and texts. */
  productSlug: string;
  /** Public URL under which the API serves an image of the library. */
  imageUrl: (file: string) => string;
};

/** A piece as written: front matter (not yet validated, `{brand}` not yet replaced) and Markdown. */
export type ContentSource = { name: string; data: Record<string, unknown>; body: string };

/** An image of the library: its intrinsic size, and its bytes on demand. */
export type ContentImageEntry = { size: ImageSize; read: () => Promise<Uint8Array>; path?: string };

export type ContentTree = {
  /** `features` undefined: the guide has no feature folder (a product guide then fails). */
  guides: { source: ContentSource; features: ContentSource[] | undefined }[];
  strategies: ContentSource[];
  images: Map<string, ContentImageEntry>;
};

export type ContentCatalogue = {
  /** Ordered for the overview grid. */
  guides: GuideSummary[];
  guide(id: string): Guide | undefined;
  feature(productId: string, featureId: string): GuideFeature | undefined;
  /** Ordered for the card grid. */
  strategies: StrategySummary[];
  strategy(id: string): Strategy | undefined;
  /** An image of the library by its file name, or undefined for any other name. */
  image(file: string): ContentImageEntry | undefined;
  /** Absolute path of an image read from a content folder, or undefined. */
  imagePath(file: string): string | undefined;
};

/** The one error shape of broken content: the file first, so the fix starts in the right place. */
export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Content file ${file}: ${problem}`);
    this.name = 'ContentError';
  }
}

function contentError(file: string, message: string): Error {
  return new ContentError(file, message);
}

type SourceFile = ContentSource;
type Context = CatalogueOptions & {
  images: Map<string, ContentImageEntry>;
  /** `imageUrl` of every image → its size. These are the only `<img src>` the sanitiser keeps. */
  sizeByUrl: Map<string, ImageSize>;
};

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
// A line that is nothing but a Markdown image: a section's illustration.
const IMAGE_LINE = /^!\[([^\]\n]*)\]\(([^()\s]+)\)[ \t]*$/m;
const MARKDOWN_IMAGE = /!\[([^\]\n]*)\]\(([^()\s]+)\)/g;
const SAFE_FILE_NAME = /^[A-Za-z0-9][\w.-]*$/;

export async function loadContent(options: ContentLoaderOptions): Promise<ContentCatalogue> {
  return buildCatalogue(await readContentTree(options.dir), options);
}

/** The catalogue of a source tree; throws a ContentError for the first broken piece. */
export function buildCatalogue(tree: ContentTree, options: CatalogueOptions): ContentCatalogue {
  const { images } = tree;
  const sizeByUrl = new Map([...images].map(([file, image]) => [options.imageUrl(file), image.size]));
  const ctx: Context = { ...options, images, sizeByUrl };

  const guides = tree.guides.map(({ source, features }) => buildGuide(ctx, prepare(ctx, source), features?.map((feature) => prepare(ctx, feature))));
  assertUnique(guides.map(({ guide, file }) => ({ id: guide.id, file })));
  guides.sort((a, b) => a.order - b.order || a.guide.id.localeCompare(b.guide.id));
  const strategies = tree.strategies.map((source) => buildStrategy(ctx, prepare(ctx, source)));
  assertUnique(strategies.map(({ strategy, file }) => ({ id: strategy.id, file })));
  strategies.sort((a, b) => a.order - b.order || a.strategy.id.localeCompare(b.strategy.id));

  const guideById = new Map(guides.map((entry) => [entry.guide.id, entry]));
  const strategyById = new Map(strategies.map(({ strategy }) => [strategy.id, strategy]));
  for (const { guide, file } of guides) checkRelated(file, 'relatedGuides', guide.relatedGuides, guideById);
  for (const { strategy, file } of strategies) {
    checkRelated(file, 'relatedStrategies', strategy.relatedStrategies, strategyById);
  }

  return {
    guides: guides.map(({ guide }) => toGuideSummary(guide)),
    guide: (guideId) => guideById.get(guideId)?.guide,
    feature: (productId, featureId) => guideById.get(productId)?.features.get(featureId),
    strategies: strategies.map(({ strategy }) => toStrategySummary(strategy)),
    strategy: (strategyId) => strategyById.get(strategyId),
    // Only names of the library resolve, so '../' or absolute paths never do.
    image: (file) => images.get(file),
    imagePath: (file) => images.get(file)?.path,
  };
}

// ---------------------------------------------------------------------------------- reading

/** The content folder as a source tree: guides/ (with feature folders), strategies/, images/. */
export async function readContentTree(dir: string): Promise<ContentTree> {
  const root = resolve(dir);
  const images = await listImages(join(root, 'images'));
  const guidesDir = join(root, 'guides');
  const entries = await readdir(guidesDir, { withFileTypes: true });
  const folders = new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.md'));
  for (const folder of folders) {
    if (!files.some((file) => file.name === `${folder}.md`)) {
      throw contentError(`guides/${folder}/`, 'feature folder has no matching guides/<name>.md');
    }
  }
  const guides = await Promise.all(
    files.map(async (entry) => {
      const source = await readSource(root, join(guidesDir, entry.name));
      const folder = entry.name.slice(0, -'.md'.length);
      if (!folders.has(folder)) return { source, features: undefined };
      const names = (await readdir(join(guidesDir, folder))).filter((name) => name.endsWith('.md')).sort();
      return { source, features: await Promise.all(names.map((name) => readSource(root, join(guidesDir, folder, name)))) };
    }),
  );
  const strategiesDir = join(root, 'strategies');
  const strategyNames = (await readdir(strategiesDir)).filter((name) => name.endsWith('.md'));
  const strategies = await Promise.all(strategyNames.map((name) => readSource(root, join(strategiesDir, name))));
  return { guides, strategies, images };
}

async function readSource(root: string, path: string): Promise<SourceFile> {
  return parseSourceText(relative(root, path), await readFile(path, 'utf8'));
}

/** A Markdown file with YAML front matter as a source; `name` is only for messages. */
export function parseSourceText(name: string, raw: string): ContentSource {
  const match = FRONT_MATTER.exec(raw);
  if (!match) throw contentError(name, 'missing YAML front matter between --- lines');
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    throw contentError(name, `invalid YAML front matter: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw contentError(name, 'front matter must be a YAML mapping');
  }
  return { name, data: data as Record<string, unknown>, body: raw.slice(match[0].length) };
}

/** `{brand}` and `{product}` replaced after parsing, so a brand name with YAML-significant characters cannot break a file. */
function prepare(ctx: Context, source: ContentSource): SourceFile {
  return { name: source.name, data: substituteDeep(ctx, source.data) as Record<string, unknown>, body: substitute(ctx, source.body) };
}

// ----------------------------------------------------------------------------------- guides

type LoadedGuide = { guide: Guide; features: Map<string, GuideFeature>; file: string };

function buildGuide(ctx: Context, source: SourceFile, featureSources: SourceFile[] | undefined): LoadedGuide & { order: number } {
  const meta = validate(source, guideFrontMatterSchema);
  const features = new Map<string, GuideFeature>();

  if (meta.type === 'product') {
    if (!featureSources) throw contentError(source.name, `type product needs a folder guides/${basename(source.name, '.md')}/`);
    for (const feature of buildFeatures(ctx, featureSources)) features.set(feature.id, feature);
    if (features.size === 0) throw contentError(source.name, 'product guide has no feature files');
  } else if (featureSources && featureSources.length > 0) {
    throw contentError(source.name, 'only guides with type product may have a feature folder');
  }

  const split = splitSections(ctx, source);
  const introduction = rewriteImages(ctx, source.name, split.introduction);
  const sections = split.sections.map((section) => ({ ...section, content: rewriteImages(ctx, source.name, section.content) }));
  const previewImage = imageUrlFor(ctx, source.name, meta.previewImage);
  const guide: Guide = {
    id: meta.id,
    title: meta.title,
    description: meta.description,
    previewImage,
    estimatedReadTime: meta.estimatedReadTime,
    difficulty: meta.difficulty,
    type: meta.type,
    featureCount: features.size,
    sectionCount: sections.length,
    introduction,
    features: [...features.values()].map(toFeatureSummary),
    sections,
    relatedGuides: meta.relatedGuides,
    layout: guideLayout(meta.id, ctx.productSlug, meta.layout),
    images: imageSizes(
      ctx,
      [previewImage, ...sections.map((section) => section.image)],
      [introduction, ...sections.map((section) => section.content)],
    ),
  };
  return { guide, features, file: source.name, order: meta.order };
}

function buildFeatures(ctx: Context, sources: SourceFile[]): GuideFeature[] {
  const features = sources.map((source) => buildFeature(ctx, source));
  assertUnique(features.map((feature, index) => ({ id: feature.id, file: basename(sources[index]?.name ?? '') })));
  return features;
}

/** One feature's documentation; its file name carries the order (NN-<id>.md) and must end in its id. */
function buildFeature(context: Context, prepared: SourceFile): GuideFeature {
  const meta = validate(prepared, featureFrontMatterSchema);
  // Keeping the file name equal to the id avoids two names for one feature.
  const expected = basename(prepared.name).replace(/^\d+-/, '').replace(/\.md$/, '');
  if (expected !== meta.id) {
    throw contentError(prepared.name, `id '${meta.id}' does not match the file name`);
  }
  const body = rewriteImages(context, prepared.name, prepared.body);
  return {
    ...toFeatureSummary(meta),
    blocks: parseSettingBlocks(body),
    images: imageSizes(context, [], [body]),
  };
}

// ------------------------------------------------------------------------------- strategies

function buildStrategy(ctx: Context, source: SourceFile): { strategy: Strategy; order: number; file: string } {
  const meta = validate(source, strategyFrontMatterSchema);
  const { introduction, sections: rawSections } = splitSections(ctx, source);
  if (rawSections.length === 0) throw contentError(source.name, 'a strategy needs at least one "## " section');
  const sections = rawSections.map((section) => ({ ...section, content: rewriteImages(ctx, source.name, section.content) }));
  const previewImage = imageUrlFor(ctx, source.name, meta.previewImage);
  const heroImage = imageUrlFor(ctx, source.name, meta.heroImage);
  const strategy: Strategy = {
    id: meta.id,
    title: meta.title,
    description: meta.description,
    previewImage,
    heroImage,
    estimatedReadTime: meta.estimatedReadTime,
    difficulty: meta.difficulty,
    strategyType: meta.strategyType,
    timeframes: meta.timeframes,
    indicatorsRequired: meta.indicatorsRequired,
    sectionCount: sections.length,
    introduction: rewriteImages(ctx, source.name, introduction),
    sections: sections.map(({ content, ...section }) => ({ ...section, html: renderHtml(ctx, content) })),
    relatedStrategies: meta.relatedStrategies,
    images: imageSizes(
      ctx,
      [previewImage, heroImage, ...sections.map((section) => section.image)],
      sections.map((section) => section.content),
    ),
  };
  return { strategy, order: meta.order, file: source.name };
}

// ---------------------------------------------------------------------------------- parsing

function validate<Schema extends z.ZodType>(source: SourceFile, schema: Schema): z.infer<Schema> {
  const result = schema.safeParse(source.data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(front matter)';
    return `${field}: ${issue.message}`;
  });
  throw contentError(source.name, problems.join('; '));
}

function substitute(ctx: CatalogueOptions, value: string): string {
  return value.replaceAll('{brand}', ctx.brandName).replaceAll('{product}', ctx.productSlug);
}

function substituteDeep(ctx: CatalogueOptions, value: unknown): unknown {
  if (typeof value === 'string') return substitute(ctx, value);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(ctx, item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteDeep(ctx, item)]));
  }
  return value;
}

type RawSection = { id: string; title: string; content: string; image?: string; imageAlt?: string };

/** Text before the first `## ` heading is the introduction; each `## ` starts a section. */
function splitSections(ctx: Context, source: SourceFile): { introduction: string; sections: RawSection[] } {
  const parts = source.body.replace(/\r\n?/g, '\n').split(/^## +/m);
  const introduction = (parts.shift() ?? '').trim();
  const usedIds = new Set<string>();
  const sections = parts.map((part) => {
    const newline = part.indexOf('\n');
    const title = (newline === -1 ? part : part.slice(0, newline)).trim();
    let content = newline === -1 ? '' : part.slice(newline + 1);
    const section: RawSection = { id: uniqueSlug(title, usedIds), title, content: '' };
    const image = IMAGE_LINE.exec(content);
    if (image) {
      // The section's own illustration is shown apart from its text, so it leaves the Markdown.
      section.image = imageUrlFor(ctx, source.name, image[2] ?? '');
      section.imageAlt = image[1] ?? '';
      content = content.slice(0, image.index) + content.slice(image.index + image[0].length);
    }
    section.content = content.trim();
    return section;
  });
  return { introduction, sections };
}

function uniqueSlug(title: string, used: Set<string>): string {
  const base =
    title
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section';
  let slug = base;
  for (let n = 2; used.has(slug); n += 1) slug = `${base}-${n}`;
  used.add(slug);
  return slug;
}

// ----------------------------------------------------------------------------------- images

/** Every image of content/images with its size, read once here so no request has to. */
async function listImages(dir: string): Promise<Map<string, ContentImageEntry>> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files = entries.filter((entry) => entry.isFile() && SAFE_FILE_NAME.test(entry.name));
  return new Map(
    await Promise.all(
      files.map(async (entry): Promise<[string, ContentImageEntry]> => {
        const path = join(dir, entry.name);
        const size = readImageSize(entry.name, await readFile(path));
        if (!size) {
          // Without a size the page cannot keep the image's room, and it jumps when it loads.
          throw contentError(`images/${entry.name}`, 'cannot read the image size (an SVG needs width and height, or a viewBox)');
        }
        return [entry.name, { path, size, read: async () => new Uint8Array(await readFile(path)) }];
      }),
    ),
  );
}

function imageUrlFor(ctx: Context, file: string, image: string): string {
  if (!ctx.images.has(image)) throw contentError(file, `image '${image}' is not in content/images (upload it first)`);
  return ctx.imageUrl(image);
}

/** The sizes of our own images among `urls` and the images inside the (rewritten) Markdown `texts`. */
function imageSizes(ctx: Context, urls: (string | undefined)[], texts: string[]): ImageSizes {
  const sizes: ImageSizes = {};
  const inText = texts.flatMap((text) => [...text.matchAll(MARKDOWN_IMAGE)].map((match) => match[2]));
  for (const url of [...urls, ...inText]) {
    const size = url === undefined ? undefined : ctx.sizeByUrl.get(url);
    if (url !== undefined && size) sizes[url] = size;
  }
  return sizes;
}

/** Points `![alt](file.svg)` at the API; absolute URLs stay as they are for the sanitiser to judge. */
function rewriteImages(ctx: Context, file: string, markdown: string): string {
  return markdown.replace(MARKDOWN_IMAGE, (whole, alt: string, src: string) =>
    /^[a-z][a-z0-9+.-]*:|^\//i.test(src) ? whole : `![${alt}](${imageUrlFor(ctx, file, src)})`,
  );
}

// ------------------------------------------------------------------------------------- html

const marked = new Marked({ gfm: true, async: false });

function renderHtml(ctx: Context, markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }), {
    allowedTags: [
      'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'code', 'pre', 'blockquote',
      'ul', 'ol', 'li', 'h3', 'h4', 'h5', 'h6', 'a', 'img',
      'table', 'thead', 'tbody', 'tr', 'th', 'td',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
      th: ['align'],
      td: ['align'],
      ol: ['start'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: /^https?:/i.test(attribs.href ?? '')
          ? { ...attribs, target: '_blank', rel: 'noopener noreferrer' }
          : attribs,
      }),
      // Our images hold their room before they load (see ImageSizes); others are dropped below.
      img: (tagName, attribs) => {
        const size = ctx.sizeByUrl.get(attribs.src ?? '');
        if (!size) return { tagName, attribs };
        const { src = '', alt = '', title } = attribs;
        const sized = { src, alt, width: String(size.width), height: String(size.height), loading: 'lazy', decoding: 'async' };
        return { tagName, attribs: title === undefined ? sized : { ...sized, title } };
      },
    },
    // Images only from our own image route: no tracking pixels or hot-linked pictures.
    exclusiveFilter: (frame) => frame.tag === 'img' && !ctx.sizeByUrl.has(frame.attribs.src ?? ''),
  });
}

// ---------------------------------------------------------------------------------- helpers

function toGuideSummary(guide: Guide): GuideSummary {
  return {
    id: guide.id,
    title: guide.title,
    description: guide.description,
    previewImage: guide.previewImage,
    estimatedReadTime: guide.estimatedReadTime,
    difficulty: guide.difficulty,
    type: guide.type,
    featureCount: guide.featureCount,
    sectionCount: guide.sectionCount,
  };
}

function toFeatureSummary(feature: GuideFeatureSummary): GuideFeatureSummary {
  return {
    id: feature.id,
    title: feature.title,
    description: feature.description,
    estimatedReadTime: feature.estimatedReadTime,
  };
}

function toStrategySummary(strategy: Strategy): StrategySummary {
  return {
    id: strategy.id,
    title: strategy.title,
    description: strategy.description,
    previewImage: strategy.previewImage,
    estimatedReadTime: strategy.estimatedReadTime,
    difficulty: strategy.difficulty,
    strategyType: strategy.strategyType,
    timeframes: strategy.timeframes,
    sectionCount: strategy.sectionCount,
  };
}

function checkRelated(file: string, field: string, ids: string[], known: Map<string, unknown>): void {
  const missing = ids.filter((relatedId) => !known.has(relatedId));
  if (missing.length > 0) throw contentError(file, `${field}: unknown id(s) ${missing.join(', ')}`);
}

function assertUnique(items: { id: string; file: string }[]): void {
  const seen = new Map<string, string>();
  for (const { id, file } of items) {
    const other = seen.get(id);
    if (other !== undefined) throw contentError(file, `id '${id}' is also used by ${other}`);
    seen.set(id, file);
  }
}
