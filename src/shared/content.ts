import { z } from 'zod';

// Contracts for the premium content (guides, product feature docs, strategies) and the pure
// helpers both sides need to present it. The server reads Markdown files from `content/` and
// returns these DTOs; the client renders them. No I/O here.

export const GUIDE_DIFFICULTIES = ['beginner', 'intermediate', 'advanced', 'product', 'tutorial'] as const;
export const STRATEGY_DIFFICULTIES = ['easy', 'medium', 'advanced'] as const;
export const GUIDE_TYPES = ['guide', 'product'] as const;

export type GuideDifficulty = (typeof GUIDE_DIFFICULTIES)[number];
export type StrategyDifficulty = (typeof STRATEGY_DIFFICULTIES)[number];
export type Difficulty = GuideDifficulty | StrategyDifficulty;
export type GuideType = (typeof GUIDE_TYPES)[number];
export const GUIDE_LAYOUTS = ['single-page', 'feature-list', 'long-form'] as const;
export type GuideLayout = (typeof GUIDE_LAYOUTS)[number];

export type DifficultyColour = 'green' | 'yellow' | 'red' | 'purple' | 'blue';

/**
 * Badge colour per difficulty (easy green, medium yellow, advanced red, product purple,
 * tutorial blue). Beginner and intermediate have no colour of their own; they follow the same
 * easy → hard scale so one glance reads the same on guides and strategies.
 */
export const DIFFICULTY_COLOURS: Readonly<Record<Difficulty, DifficultyColour>> = {
  easy: 'green',
  beginner: 'green',
  medium: 'yellow',
  intermediate: 'yellow',
  advanced: 'red',
  product: 'purple',
  tutorial: 'blue',
};

// ---------------------------------------------------------------------------------------------
// Front matter schemas. Strict objects, so a misspelt key in a content file fails loudly at
// start-up instead of silently dropping a field.

const id = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case kebab-case id');
const imageFile = z
  .string()
  .regex(/^[A-Za-z0-9][\w-]*\.(?:svg|png|jpe?g|webp|gif)$/, 'must be a file name in content/images');
const readTime = z.number().int().positive();
const text = z.string().trim().min(1);

export const guideFrontMatterSchema = z.strictObject({
  id,
  title: text,
  description: text,
  difficulty: z.enum(GUIDE_DIFFICULTIES),
  type: z.enum(GUIDE_TYPES),
  estimatedReadTime: readTime,
  previewImage: imageFile,
  relatedGuides: z.array(id).default([]),
  order: z.number().int(),
  /** The layout chosen in the console; files written before it get theirs from the id (guideLayout). */
  layout: z.enum(GUIDE_LAYOUTS).optional(),
});

export const featureFrontMatterSchema = z.strictObject({
  id,
  title: text,
  description: text,
  estimatedReadTime: readTime,
});

export const strategyFrontMatterSchema = z.strictObject({
  id,
  title: text,
  description: text,
  difficulty: z.enum(STRATEGY_DIFFICULTIES),
  strategyType: text,
  timeframes: z.array(text).min(1),
  indicatorsRequired: z.array(text).min(1),
  estimatedReadTime: readTime,
  previewImage: imageFile,
  heroImage: imageFile,
  relatedStrategies: z.array(id).default([]),
  order: z.number().int(),
});

export type GuideFrontMatter = z.infer<typeof guideFrontMatterSchema>;
export type FeatureFrontMatter = z.infer<typeof featureFrontMatterSchema>;
export type StrategyFrontMatter = z.infer<typeof strategyFrontMatterSchema>;

// ---------------------------------------------------------------------------------------------
// DTOs returned by the content API. Image fields are URLs, Markdown fields have their image
// references already rewritten to URLs.

/** Intrinsic size of an image in CSS pixels. */
export type ImageSize = { width: number; height: number };

/**
 * The size of every image a DTO shows (its own image fields and the images inside its Markdown),
 * keyed by URL. The client gives each `<img>` these as width/height so the page keeps the
 * image's room before it loads: nothing below moves when it arrives.
 */
export type ImageSizes = Record<string, ImageSize>;

export type GuideSummary = {
  id: string;
  title: string;
  description: string;
  /** URL of the card image. */
  previewImage: string;
  /** Minutes. */
  estimatedReadTime: number;
  difficulty: GuideDifficulty;
  type: GuideType;
  featureCount: number;
  /** Number of `## ` sections; 0 for single-page guides, whose text is all in `introduction`. */
  sectionCount: number;
};

export type GuideFeatureSummary = {
  id: string;
  title: string;
  description: string;
  estimatedReadTime: number;
};

export type GuideSection = {
  id: string;
  title: string;
  /** Markdown. */
  content: string;
  /** URL of the section's illustration. */
  image?: string;
  imageAlt?: string;
};

export type Guide = GuideSummary & {
  /** Markdown; for single-page guides the whole page (see `splitParagraphs`). */
  introduction: string;
  features: GuideFeatureSummary[];
  sections: GuideSection[];
  relatedGuides: string[];
  layout: GuideLayout;
  images: ImageSizes;
};

export type TextBlock = { kind: 'text'; markdown: string };
export type TableBlock = { kind: 'table'; headers: [string, string]; rows: [string, string][] };
export type DocumentationBlock = TextBlock | TableBlock;

export type GuideFeature = GuideFeatureSummary & {
  blocks: DocumentationBlock[];
  images: ImageSizes;
};

export type StrategySummary = {
  id: string;
  /** As written, e.g. '🧭 Midline Trend-Following Blueprint'; show it through `cleanStrategyTitle`. */
  title: string;
  description: string;
  previewImage: string;
  estimatedReadTime: number;
  difficulty: StrategyDifficulty;
  strategyType: string;
  timeframes: string[];
  sectionCount: number;
};

export type StrategySection = {
  id: string;
  title: string;
  /** Sanitised HTML, safe to inject. */
  html: string;
  image?: string;
  imageAlt?: string;
};

export type Strategy = StrategySummary & {
  heroImage: string;
  /** Markdown (plain paragraphs). */
  introduction: string;
  indicatorsRequired: string[];
  sections: StrategySection[];
  relatedStrategies: string[];
  /** Images inside `sections[].html` already carry their width and height. */
  images: ImageSizes;
};

// ---------------------------------------------------------------------------------------------
// Helpers

/** Strips the leading compass emoji and the trailing 'Blueprint' that strategy titles carry. */
export function cleanStrategyTitle(title: string): string {
  return title
    .replace(/^\s*\u{1F9ED}\u{FE0F}?\s*/u, '')
    .replace(/[\s\-–—:]*\bBlueprint\s*$/i, '')
    .trim();
}

/** Which of the three guide layouts renders a guide: single page, feature list or long form. */
export function guideLayout(id: string, productSlug: string, chosen?: GuideLayout): GuideLayout {
  if (chosen) return chosen;
  if (id === `${productSlug}-setup` || id === 'tradingview-account') return 'single-page';
  if (id === `${productSlug}-pro-v2`) return 'feature-list';
  return 'long-form';
}

/** Paragraphs of a text separated by blank lines (lines holding only spaces count as blank). */
export function splitParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

const TAB_ROW = /^[^\t]*\S[^\t]*\t/;

function toCells(line: string): [string, string] {
  const tab = line.indexOf('\t');
  // Extra tabs belong to the description: settings docs have exactly two columns.
  return [line.slice(0, tab).trim(), line.slice(tab + 1).replace(/\t+/g, ' ').trim()];
}

/**
 * Splits feature documentation into Markdown text and two-column tables. A table is a run of
 * consecutive lines each holding a TAB (`Setting<TAB>Description`, then `Name<TAB>Text` rows);
 * its first line gives the headers and it ends at the first line without a TAB (usually blank).
 */
export function parseSettingBlocks(documentation: string): DocumentationBlock[] {
  const blocks: DocumentationBlock[] = [];
  let textLines: string[] = [];
  let table: TableBlock | undefined;

  const flushText = () => {
    // Drop blank lines around the text but keep the first line's indentation (Markdown code).
    const markdown = textLines.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
    if (markdown.trim()) blocks.push({ kind: 'text', markdown });
    textLines = [];
  };

  for (const line of documentation.replace(/\r\n?/g, '\n').split('\n')) {
    if (TAB_ROW.test(line)) {
      if (table) {
        table.rows.push(toCells(line));
      } else {
        flushText();
        table = { kind: 'table', headers: toCells(line), rows: [] };
        blocks.push(table);
      }
      continue;
    }
    table = undefined;
    textLines.push(line);
  }
  flushText();
  return blocks;
}
