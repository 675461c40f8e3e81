import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanStrategyTitle, splitParagraphs } from '@shared/content';
import type { Guide, GuideFeature, Strategy, TableBlock } from '@shared/content';
import { loadContent, type ContentCatalogue } from './content-loader';

const CONTENT_DIR = fileURLToPath(new URL('../../../../content', import.meta.url));
const IMAGE_PREFIX = '/api/content/images/';
const imageUrl = (file: string) => `${IMAGE_PREFIX}${file}`;

let content: ContentCatalogue;
let guides: Guide[];
let strategies: Strategy[];

function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

function featuresOf(productId: string): GuideFeature[] {
  const guide = defined(content.guide(productId), productId);
  return guide.features.map((feature) => defined(content.feature(productId, feature.id), feature.id));
}

function tables(feature: GuideFeature): TableBlock[] {
  return feature.blocks.filter((block): block is TableBlock => block.kind === 'table');
}

/** Every text a reader can see, for the content-rule checks. */
function allText(): string {
  const parts: string[] = [];
  for (const guide of guides) {
    parts.push(guide.title, guide.description, guide.introduction, ...guide.sections.map((s) => `${s.title}\n${s.content}`));
    for (const feature of guide.type === 'product' ? featuresOf(guide.id) : []) {
      parts.push(feature.title, feature.description, JSON.stringify(feature.blocks));
    }
  }
  for (const strategy of strategies) {
    parts.push(strategy.title, strategy.description, strategy.introduction, ...strategy.sections.map((s) => s.html));
  }
  return parts.join('\n');
}

beforeAll(async () => {
  content = await loadContent({ dir: CONTENT_DIR, brandName: 'Candlewise', productSlug: 'candlewise', imageUrl });
  guides = content.guides.map((summary) => defined(content.guide(summary.id), summary.id));
  strategies = content.strategies.map((summary) => defined(content.strategy(summary.id), summary.id));
});

describe('guides', () => {
  it('has the eight guides of the spec, in overview order', () => {
    expect(content.guides.map((guide) => guide.id)).toEqual([
      'getting-started',
      'candlewise-setup',
      'tradingview-account',
      'candlewise-pro-v2',
      'smart-money-concepts',
      'candlewise-volatility-index',
      'technical-analysis',
      'chart-patterns',
    ]);
  });

  it.each([
    ['getting-started', 'beginner', 'guide', 'long-form'],
    ['technical-analysis', 'beginner', 'guide', 'long-form'],
    ['chart-patterns', 'beginner', 'guide', 'long-form'],
    ['candlewise-setup', 'tutorial', 'guide', 'single-page'],
    ['tradingview-account', 'tutorial', 'guide', 'single-page'],
    ['candlewise-pro-v2', 'product', 'product', 'feature-list'],
    ['smart-money-concepts', 'product', 'product', 'long-form'],
    ['candlewise-volatility-index', 'product', 'product', 'long-form'],
  ])('%s is %s / %s with the %s layout', (id, difficulty, type, layout) => {
    expect(content.guide(id)).toMatchObject({ difficulty, type, layout });
  });

  it.each([
    ['candlewise-pro-v2', 11],
    ['smart-money-concepts', 7],
    ['candlewise-volatility-index', 3],
  ])('%s documents %i features', (id, count) => {
    const guide = defined(content.guide(id), id);
    expect(guide.featureCount).toBe(count);
    expect(guide.features).toHaveLength(count);
    expect(content.guides.find((summary) => summary.id === id)?.featureCount).toBe(count);
    expect(guide.introduction.length).toBeGreaterThan(200);
  });

  it('documents the marketed features', () => {
    const ids = ['candlewise-pro-v2', 'smart-money-concepts', 'candlewise-volatility-index'].flatMap((id) =>
      featuresOf(id).map((feature) => feature.id),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        'adaptive-trend-tracker',
        'midline',
        'adaptive-cloud',
        'swing-signals',
        'reversal-signals',
        'screener-dashboard',
        'order-blocks',
        'fair-value-gaps',
        'market-structure',
        'smart-money-oscillator',
        'value-area',
        'volatility-channel',
        'adr-levels',
      ]),
    );
  });

  it('gives every feature text and at least one Setting/Description table', () => {
    for (const id of ['candlewise-pro-v2', 'smart-money-concepts', 'candlewise-volatility-index']) {
      for (const feature of featuresOf(id)) {
        const found = tables(feature);
        expect(found.length, `${id}/${feature.id}`).toBeGreaterThan(0);
        for (const table of found) {
          expect(table.headers).toEqual(['Setting', 'Description']);
          expect(table.rows.length).toBeGreaterThan(1);
          for (const [name, description] of table.rows) {
            expect(name, `${feature.id}: ${name}`).not.toBe('');
            expect(description, `${feature.id}: ${name}`).not.toBe('');
          }
        }
        expect(feature.blocks.some((block) => block.kind === 'text')).toBe(true);
      }
    }
  });

  it('answers undefined for unknown ids', () => {
    expect(content.guide('no-such-guide')).toBeUndefined();
    expect(content.feature('candlewise-pro-v2', 'no-such-feature')).toBeUndefined();
    expect(content.feature('no-such-product', 'midline')).toBeUndefined();
    expect(content.feature('getting-started', 'midline')).toBeUndefined();
  });

  it('splits the long-form guides into 5–8 sections after an introduction', () => {
    for (const id of ['getting-started', 'technical-analysis', 'chart-patterns']) {
      const guide = defined(content.guide(id), id);
      expect(guide.introduction).not.toBe('');
      expect(guide.introduction).not.toContain('## ');
      expect(guide.sections.length, id).toBeGreaterThanOrEqual(5);
      expect(guide.sections.length, id).toBeLessThanOrEqual(8);
      expect(guide.sectionCount).toBe(guide.sections.length);
      expect(new Set(guide.sections.map((section) => section.id)).size).toBe(guide.sections.length);
      for (const section of guide.sections) {
        expect(section.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(section.content).not.toMatch(/^!\[/m);
      }
    }
  });

  it('keeps single-page tutorials in the introduction, with inline images', () => {
    for (const id of ['candlewise-setup', 'tradingview-account']) {
      const guide = defined(content.guide(id), id);
      expect(guide.sections).toEqual([]);
      const paragraphs = splitParagraphs(guide.introduction);
      expect(paragraphs.length).toBeGreaterThan(8);
      expect(paragraphs.some((paragraph) => paragraph.startsWith(`![`) && paragraph.includes(IMAGE_PREFIX))).toBe(true);
    }
  });

  it('only relates guides that exist', () => {
    const ids = new Set(content.guides.map((guide) => guide.id));
    for (const guide of guides) for (const related of guide.relatedGuides) expect(ids.has(related)).toBe(true);
  });
});

describe('strategies', () => {
  it('has the two strategies of the spec', () => {
    expect(content.strategies).toEqual([
      expect.objectContaining({ id: 'midline-trend-following', difficulty: 'easy', timeframes: ['4H', '1H'] }),
      expect.objectContaining({ id: 'smc-oscillator-pullback', difficulty: 'medium', timeframes: ['All Timeframes'] }),
    ]);
  });

  it('titles carry the compass and Blueprint that the UI strips', () => {
    expect(content.strategies.map((strategy) => strategy.title)).toEqual([
      '🧭 Midline Trend-Following Blueprint',
      '🧭 SMC Oscillator Pullback Blueprint',
    ]);
    expect(content.strategies.map((strategy) => cleanStrategyTitle(strategy.title))).toEqual([
      'Midline Trend-Following',
      'SMC Oscillator Pullback',
    ]);
  });

  it('have 6–9 sections ending with the disclaimer, and every field a strategy card shows', () => {
    for (const strategy of strategies) {
      expect(strategy.sections.length).toBeGreaterThanOrEqual(6);
      expect(strategy.sections.length).toBeLessThanOrEqual(9);
      expect(strategy.sectionCount).toBe(strategy.sections.length);
      expect(strategy.sections.at(-1)?.title).toBe('Disclaimer');
      expect(strategy.sections.at(-1)?.html).toMatch(/educational purposes only/);
      expect(strategy.indicatorsRequired.length).toBeGreaterThan(0);
      expect(strategy.strategyType).not.toBe('');
      expect(strategy.heroImage).toMatch(/\.svg$/);
      expect(strategy.introduction).not.toBe('');
      for (const section of strategy.sections) {
        expect(section.html.trim(), section.id).not.toBe('');
        expect(section.html).toMatch(/^<(p|ul|ol|table|h3)/);
      }
    }
  });

  it('covers setup, entry, stop-loss, take-profit, risk, an example and mistakes', () => {
    for (const strategy of strategies) {
      const titles = strategy.sections.map((section) => section.title.toLowerCase()).join(' | ');
      for (const topic of ['setup', 'entry', 'stop-loss', 'take-profit', 'risk', 'example', 'mistakes']) {
        expect(titles, strategy.id).toContain(topic);
      }
    }
  });

  it('answers undefined for an unknown id', () => {
    expect(content.strategy('no-such-strategy')).toBeUndefined();
  });
});

describe('images', () => {
  const referenced = () => {
    const urls: string[] = [];
    for (const guide of guides) {
      urls.push(guide.previewImage);
      for (const section of guide.sections) if (section.image) urls.push(section.image);
    }
    for (const strategy of strategies) {
      urls.push(strategy.previewImage, strategy.heroImage);
      for (const section of strategy.sections) if (section.image) urls.push(section.image);
    }
    const text = allText();
    for (const match of text.matchAll(/(?:\]\(|src=")([^)"\s]+)/g)) urls.push(match[1] ?? '');
    return urls;
  };

  it('every referenced image is one of ours and exists', () => {
    const urls = referenced();
    expect(urls.length).toBeGreaterThan(30);
    for (const url of urls) {
      expect(url.startsWith(IMAGE_PREFIX), url).toBe(true);
      expect(content.imagePath(url.slice(IMAGE_PREFIX.length)), url).toBeDefined();
    }
  });

  // Regression: images without a size took no room until loaded, so a page grew while the Table
  // of Contents scrolled and the jump stopped short of its section.
  it('gives every image a DTO shows its size, as the file states it', async () => {
    const declared = async (url: string) => {
      const svg = await readFile(defined(content.imagePath(url.slice(IMAGE_PREFIX.length)), url), 'utf8');
      const tag = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
      return { width: Number(/\swidth="(\d+)"/.exec(tag)?.[1]), height: Number(/\sheight="(\d+)"/.exec(tag)?.[1]) };
    };
    const dtos: { name: string; images: Record<string, { width: number; height: number }>; urls: string[] }[] = [];
    const inText = (text: string) => [...text.matchAll(/(?:\]\(|src=")([^)"\s]+)/g)].map((match) => match[1] ?? '');
    for (const guide of guides) {
      const text = [guide.introduction, ...guide.sections.map((section) => section.content)].join('\n');
      dtos.push({ name: guide.id, images: guide.images, urls: [guide.previewImage, ...guide.sections.flatMap((s) => s.image ?? []), ...inText(text)] });
      for (const feature of guide.type === 'product' ? featuresOf(guide.id) : []) {
        dtos.push({ name: `${guide.id}/${feature.id}`, images: feature.images, urls: inText(JSON.stringify(feature.blocks)) });
      }
    }
    for (const strategy of strategies) {
      const html = strategy.sections.map((section) => section.html).join('\n');
      dtos.push({
        name: strategy.id,
        images: strategy.images,
        urls: [strategy.previewImage, strategy.heroImage, ...strategy.sections.flatMap((s) => s.image ?? []), ...inText(html)],
      });
    }

    let checked = 0;
    for (const { name, images, urls } of dtos) {
      expect(Object.keys(images).sort(), name).toEqual([...new Set(urls)].sort());
      for (const url of urls) {
        const size = await declared(url);
        expect(size.width, url).toBeGreaterThan(0);
        expect(images[url], `${name}: ${url}`).toEqual(size);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('gives section images an alt text', () => {
    for (const section of [...guides.flatMap((g) => g.sections), ...strategies.flatMap((s) => s.sections)]) {
      if (section.image) expect(section.imageAlt?.length, section.id).toBeGreaterThan(10);
    }
  });

  it('resolves existing image names to absolute paths inside content/images', () => {
    expect(content.imagePath('pro-v2-preview.svg')).toBe(join(CONTENT_DIR, 'images', 'pro-v2-preview.svg'));
  });

  it.each(['../package.json', '../../package.json', '/etc/passwd', '', 'nope.svg', 'images/pro-v2-preview.svg', '.hidden.svg'])(
    'refuses %j',
    (file) => {
      expect(content.imagePath(file)).toBeUndefined();
    },
  );
});

describe('brand substitution', () => {
  it('leaves no placeholder anywhere in the output', () => {
    const everything = JSON.stringify({ guides, strategies, features: allText() });
    expect(everything).not.toContain('{brand}');
    expect(everything).not.toContain('{product}');
    expect(everything).toContain('Candlewise Pro V2');
  });

  it('uses the configured brand and slug, even with YAML-significant characters', async () => {
    const other = await loadContent({ dir: CONTENT_DIR, brandName: 'Acme: "Charts" #1', productSlug: 'acme', imageUrl });
    expect(other.guides.map((guide) => guide.id)).toEqual(
      expect.arrayContaining(['acme-setup', 'acme-pro-v2', 'acme-volatility-index']),
    );
    expect(other.guide('acme-pro-v2')).toMatchObject({ title: 'Acme: "Charts" #1 Pro V2', layout: 'feature-list' });
    expect(other.guide('acme-setup')?.layout).toBe('single-page');
    expect(other.guide('candlewise-pro-v2')).toBeUndefined();
    expect(other.guide('getting-started')?.relatedGuides).toContain('acme-setup');
  });
});

describe('content rules (default settings, take-profit, stop-loss and risk)', () => {
  const row = (productId: string, featureId: string, setting: string) =>
    tables(defined(content.feature(productId, featureId), featureId))
      .flatMap((table) => table.rows)
      .find(([name]) => name === setting)?.[1];

  it('documents the default settings', () => {
    expect(row('candlewise-pro-v2', 'swing-signals', 'Confirmation Bars')).toMatch(/^Default 6\./);
    expect(row('candlewise-pro-v2', 'swing-signals', 'Minimum Bars Between Signals')).toMatch(/^Default 4\./);
    expect(row('candlewise-pro-v2', 'trend-strength', 'Trend Strength Threshold')).toMatch(/1 \(sensitive\) to 100 \(strict\)/);
    expect(row('smart-money-concepts', 'market-structure', 'Structure Length')).toMatch(/^Default 14\./);
    expect(row('smart-money-concepts', 'value-area', 'Value Area %')).toMatch(/^Default 68%\./);
    expect(row('candlewise-volatility-index', 'volatility-channel', 'Deviation')).toMatch(/^Default 2\./);
    expect(row('candlewise-pro-v2', 'take-profit-stop-loss', 'Target Mode')).toContain('0.75 × ADR');
  });

  it('states the take-profit, stop-loss and risk rules in every strategy', () => {
    for (const strategy of strategies) {
      const html = strategy.sections.map((section) => section.html).join('\n');
      expect(html, strategy.id).toMatch(/average daily range \(ADR\)/);
      expect(html, strategy.id).toContain('0.75 × ADR');
      expect(html, strategy.id).toMatch(/half the take-profit/);
      expect(html, strategy.id).toContain('2:1');
      expect(html, strategy.id).toContain('1:1');
      expect(html, strategy.id).toContain('1–2%');
    }
  });

  it('states the rules in the guides where they apply', () => {
    const text = (id: string) => {
      const guide = defined(content.guide(id), id);
      return [guide.introduction, ...guide.sections.map((section) => section.content)].join('\n');
    };
    expect(text('getting-started')).toMatch(/0\.75 × ADR/);
    expect(text('getting-started')).toMatch(/1–2% of your account/);
    expect(text('technical-analysis')).toContain('68%');
    expect(text('technical-analysis')).toContain('structure length of 14');
    expect(text('chart-patterns')).toContain('half the take-profit for 2:1 (preferred)');
    for (const id of ['getting-started', 'candlewise-setup', 'tradingview-account']) {
      expect(text(id), id).toContain('1–2 hours');
    }
  });

  it('explains where to find the scripts and what to do about a wrong username', () => {
    const setup = defined(content.guide('candlewise-setup'), 'setup').introduction;
    for (const step of ['exact TradingView username', 'Indicators', 'Invite-only scripts', 'Discord', 'e-mail']) {
      expect(setup).toContain(step);
    }
    expect(defined(content.guide('tradingview-account'), 'tv').introduction).toMatch(/find your exact username/i);
  });

  it('carries an educational-risk disclaimer', () => {
    expect(allText()).toMatch(/not financial advice/);
  });
});

describe('broken or hostile content', () => {
  let root: string;

  const write = async (dir: string, path: string, text: string) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };

  const strategyFile = (body: string, extra = '') => `---
id: hostile
title: "🧭 Hostile Blueprint"
description: A test.
difficulty: easy
strategyType: Test
timeframes: [1H]
indicatorsRequired: [Nothing]
estimatedReadTime: 1
previewImage: ok.svg
heroImage: ok.svg
order: 1${extra}
---
Intro.

${body}`;

  /** A minimal valid tree: one guide, one strategy with the given body, one image. */
  const fixture = async (name: string, strategyBody: string, files: Record<string, string> = {}) => {
    const dir = join(root, name);
    await write(dir, 'images/ok.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>');
    await write(
      dir,
      'guides/basics.md',
      '---\nid: basics\ntitle: Basics\ndescription: d\ndifficulty: beginner\ntype: guide\nestimatedReadTime: 1\npreviewImage: ok.svg\norder: 1\n---\nIntro.\n\n## One\n\nText.\n',
    );
    await write(dir, 'strategies/hostile.md', strategyFile(strategyBody));
    for (const [path, text] of Object.entries(files)) await write(dir, path, text);
    return dir;
  };

  const load = (dir: string) => loadContent({ dir, brandName: 'Candlewise', productSlug: 'candlewise', imageUrl });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'content-loader-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('sanitises strategy HTML: no scripts, handlers, foreign images or javascript: links', async () => {
    const dir = await fixture(
      'hostile',
      [
        '## Attack',
        '',
        'Hello <script>alert("x")</script> world.',
        '',
        '<img src="x" onerror="alert(1)">',
        '',
        '<img src="https://evil.example/pixel.png">',
        '',
        '[click](javascript:alert(1)) and <a href="https://example.com" onclick="steal()">out</a>',
        '',
        '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>',
        '',
        '<div onmouseover="x()">div text</div>',
        '',
        'Some **bold** text.',
        '',
        'Inline ![ours](ok.svg) stays.',
        '',
        '| A | B |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
    const html = defined((await load(dir)).strategy('hostile'), 'hostile').sections[0]?.html ?? '';
    expect(html).not.toMatch(/<script|alert\("x"\)|onerror|onclick|onmouseover|javascript:|<iframe|<style|evil\.example/i);
    expect(html).toContain('<strong>bold</strong>');
    // Our image keeps its room before it loads: its intrinsic size, lazily and asynchronously decoded.
    expect(html).toContain(`<img src="${IMAGE_PREFIX}ok.svg" alt="ours" width="40" height="20" loading="lazy" decoding="async" />`);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">out</a>');
    expect(html).toContain('<table>');
  });

  const productGuide =
    '---\nid: prod\ntitle: P\ndescription: d\ndifficulty: product\ntype: product\nestimatedReadTime: 1\npreviewImage: ok.svg\norder: 2\n---\nIntro.';
  const feature = (id: string) => `---\nid: ${id}\ntitle: T\ndescription: d\nestimatedReadTime: 1\n---\nSetting\tDescription\nA\ta\n`;
  const hostile = (body: string, extra = '') => ({ 'strategies/hostile.md': strategyFile(body, extra) });

  it.each([
    ['a bad difficulty', { 'strategies/hostile.md': strategyFile('## A\n\nText.').replace('difficulty: easy', 'difficulty: extreme') }, /strategies\/hostile\.md: difficulty/],
    ['a missing field', { 'strategies/hostile.md': strategyFile('## A\n\nText.').replace('strategyType: Test\n', '') }, /strategies\/hostile\.md: strategyType/],
    ['an unknown key', hostile('## A\n\nText.', '\nauthor: me'), /strategies\/hostile\.md: .*author/],
    ['a strategy without sections', hostile('No sections.'), /strategies\/hostile\.md: .*section/],
    ['no front matter', { 'guides/basics.md': '# Just text\n' }, /guides\/basics\.md: missing YAML front matter/],
    ['invalid YAML', { 'guides/basics.md': '---\nid: [unclosed\n---\nText' }, /guides\/basics\.md: invalid YAML/],
    ['a missing image', hostile('## A\n\n![x](missing.svg)'), /strategies\/hostile\.md: image 'missing\.svg'/],
    ['a dangling related id', hostile('## A\n\nText.', '\nrelatedStrategies: [ghost]'), /strategies\/hostile\.md: relatedStrategies: unknown id\(s\) ghost/],
    ['a product guide without features', { 'guides/prod.md': productGuide }, /guides\/prod\.md: type product needs a folder/],
    ['features under a plain guide', { 'guides/basics/01-one.md': feature('one') }, /guides\/basics\.md: only guides with type product/],
    ['a feature whose id does not match its file', { 'guides/prod.md': productGuide, 'guides/prod/01-one.md': feature('two') }, /guides\/prod\/01-one\.md: id 'two'/],
    ['a feature folder without its guide', { 'guides/orphan/01-one.md': feature('one') }, /guides\/orphan\/: feature folder/],
    ['an SVG without a size', { 'images/blank.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="100%"><!-- <svg width="1" height="1"> --></svg>' }, /images\/blank\.svg: cannot read the image size/],
    ['two guides with one id', { 'guides/copy.md': '---\nid: basics\ntitle: B\ndescription: d\ndifficulty: beginner\ntype: guide\nestimatedReadTime: 1\npreviewImage: ok.svg\norder: 3\n---\nx' }, /id 'basics' is also used/],
  ])('refuses %s, naming the file and the field', async (name, files, message) => {
    const dir = await fixture(name.replace(/\W+/g, '-'), '## A\n\nText.', files);
    await expect(load(dir)).rejects.toThrow(message);
  });

  it('sizes the images inside feature documentation too', async () => {
    const withImage = feature('one').replace('Setting\t', 'See ![the panel](ok.svg).\n\nSetting\t');
    const loaded = await load(await fixture('feature-image', '## A\n\nText.', { 'guides/prod.md': productGuide, 'guides/prod/01-one.md': withImage }));
    expect(loaded.feature('prod', 'one')?.images).toEqual({ [`${IMAGE_PREFIX}ok.svg`]: { width: 40, height: 20 } });
    expect(loaded.guide('prod')?.images).toEqual({ [`${IMAGE_PREFIX}ok.svg`]: { width: 40, height: 20 } });
  });

  it('loads the valid fixture', async () => {
    const loaded = await load(await fixture('valid', '## A\n\nText.', { 'guides/prod.md': productGuide, 'guides/prod/01-one.md': feature('one') }));
    expect(loaded.guides.map((guide) => guide.id)).toEqual(['basics', 'prod']);
    expect(loaded.feature('prod', 'one')?.blocks).toEqual([{ kind: 'table', headers: ['Setting', 'Description'], rows: [['A', 'a']] }]);
  });
});
