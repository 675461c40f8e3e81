import { describe, expect, it } from 'vitest';
import {
  DIFFICULTY_COLOURS,
  cleanStrategyTitle,
  featureFrontMatterSchema,
  guideFrontMatterSchema,
  guideLayout,
  parseSettingBlocks,
  splitParagraphs,
  strategyFrontMatterSchema,
} from './content';

describe('cleanStrategyTitle', () => {
  it.each([
    ['🧭 Midline Trend-Following Blueprint', 'Midline Trend-Following'],
    ['🧭 SMC Oscillator Pullback Blueprint', 'SMC Oscillator Pullback'],
    ['🧭️ With Variation Selector Blueprint', 'With Variation Selector'],
    ['🧭Tight Blueprint', 'Tight'],
    ['  🧭  Padded   Blueprint  ', 'Padded'],
    ['🧭 Breakout – Blueprint', 'Breakout'],
    ['Plain Title', 'Plain Title'],
    ['Blueprint Reading Basics', 'Blueprint Reading Basics'],
    ['🧭 Midline Blueprints', 'Midline Blueprints'],
  ])('%s → %s', (input, expected) => {
    expect(cleanStrategyTitle(input)).toBe(expected);
  });
});

describe('guideLayout', () => {
  it.each([
    ['candlewise-setup', 'candlewise', 'single-page'],
    ['tradingview-account', 'candlewise', 'single-page'],
    ['candlewise-pro-v2', 'candlewise', 'feature-list'],
    ['acme-setup', 'acme', 'single-page'],
    ['acme-pro-v2', 'acme', 'feature-list'],
    ['candlewise-setup', 'acme', 'long-form'],
    ['smart-money-concepts', 'candlewise', 'long-form'],
    ['candlewise-volatility-index', 'candlewise', 'long-form'],
    ['getting-started', 'candlewise', 'long-form'],
  ] as const)('%s with slug %s is %s', (id, slug, layout) => {
    expect(guideLayout(id, slug)).toBe(layout);
  });
});

describe('splitParagraphs', () => {
  it.each([
    ['', []],
    ['One line.', ['One line.']],
    ['First.\n\nSecond.', ['First.', 'Second.']],
    ['First.\n   \nSecond.', ['First.', 'Second.']],
    ['\n\nFirst.\n\n\n\nSecond.\n\n', ['First.', 'Second.']],
    ['Line one\nline two\n\nNext', ['Line one\nline two', 'Next']],
    ['Windows.\r\n\r\nLine endings.', ['Windows.', 'Line endings.']],
    ['Text.\n\n![Alt](/img/a.svg)\n\nMore.', ['Text.', '![Alt](/img/a.svg)', 'More.']],
  ])('%j', (input, expected) => {
    expect(splitParagraphs(input)).toEqual(expected);
  });
});

describe('parseSettingBlocks', () => {
  it('returns text only when there is no table', () => {
    expect(parseSettingBlocks('Para one.\n\nPara two.')).toEqual([{ kind: 'text', markdown: 'Para one.\n\nPara two.' }]);
  });

  it('splits text, a tab-separated table and trailing text', () => {
    const doc = 'Intro text.\n\nSetting\tDescription\nLength\tBars used.\nColour\tLine colour.\n\nAfter the table.';
    expect(parseSettingBlocks(doc)).toEqual([
      { kind: 'text', markdown: 'Intro text.' },
      {
        kind: 'table',
        headers: ['Setting', 'Description'],
        rows: [
          ['Length', 'Bars used.'],
          ['Colour', 'Line colour.'],
        ],
      },
      { kind: 'text', markdown: 'After the table.' },
    ]);
  });

  it('reads several tables and keeps them apart', () => {
    const blocks = parseSettingBlocks('Setting\tDescription\nA\ta\n\nBetween.\n\nSetting\tDescription\nB\tb\n');
    expect(blocks.map((block) => block.kind)).toEqual(['table', 'text', 'table']);
  });

  it('ends a table at the first line without a tab, even without a blank line', () => {
    const blocks = parseSettingBlocks('Setting\tDescription\nA\ta\nPlain line.');
    expect(blocks).toEqual([
      { kind: 'table', headers: ['Setting', 'Description'], rows: [['A', 'a']] },
      { kind: 'text', markdown: 'Plain line.' },
    ]);
  });

  it.each([
    ['trims cells', 'Setting \t Description \n Name \t  Text  ', ['Name', 'Text']],
    ['folds extra tabs into the description', 'Setting\tDescription\nName\tPart one\tpart two', ['Name', 'Part one part two']],
    ['keeps an empty description', 'Setting\tDescription\nName\t', ['Name', '']],
    ['handles CRLF', 'Setting\tDescription\r\nName\tText\r\n', ['Name', 'Text']],
  ])('%s', (_, doc, row) => {
    const [table] = parseSettingBlocks(doc);
    expect(table).toEqual({ kind: 'table', headers: ['Setting', 'Description'], rows: [row] });
  });

  it('does not mistake a tab-indented code line for a table', () => {
    expect(parseSettingBlocks('\tindented code\n\tmore')).toEqual([{ kind: 'text', markdown: '\tindented code\n\tmore' }]);
  });

  it('returns nothing for empty documentation', () => {
    expect(parseSettingBlocks('  \n\n ')).toEqual([]);
  });
});

describe('DIFFICULTY_COLOURS', () => {
  it.each([
    ['easy', 'green'],
    ['medium', 'yellow'],
    ['advanced', 'red'],
    ['product', 'purple'],
    ['tutorial', 'blue'],
    ['beginner', 'green'],
    ['intermediate', 'yellow'],
  ] as const)('%s is %s', (difficulty, colour) => {
    expect(DIFFICULTY_COLOURS[difficulty]).toBe(colour);
  });
});

describe('front matter schemas', () => {
  const guide = {
    id: 'getting-started',
    title: 'Getting Started',
    description: 'First steps.',
    difficulty: 'beginner',
    type: 'guide',
    estimatedReadTime: 8,
    previewImage: 'getting-started-preview.svg',
    order: 1,
  };

  it('accepts a guide and defaults relatedGuides', () => {
    expect(guideFrontMatterSchema.parse(guide)).toEqual({ ...guide, relatedGuides: [] });
  });

  it.each([
    ['an unknown difficulty', { difficulty: 'expert' }, 'difficulty'],
    ['a fractional read time', { estimatedReadTime: 2.5 }, 'estimatedReadTime'],
    ['an image path instead of a file name', { previewImage: '../secret.svg' }, 'previewImage'],
    ['an id with capitals', { id: 'Getting_Started' }, 'id'],
    ['an empty title', { title: '  ' }, 'title'],
  ])('rejects %s', (_, change, field) => {
    const result = guideFrontMatterSchema.safeParse({ ...guide, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it('rejects a misspelt key instead of ignoring it', () => {
    const result = guideFrontMatterSchema.safeParse({ ...guide, relatedGuide: ['x'] });
    expect(result.success).toBe(false);
  });

  it('accepts a feature and a strategy', () => {
    expect(
      featureFrontMatterSchema.safeParse({ id: 'midline', title: 'Midline', description: 'd', estimatedReadTime: 3 }).success,
    ).toBe(true);
    const strategy = {
      id: 'midline-trend-following',
      title: '🧭 Midline Trend-Following Blueprint',
      description: 'd',
      difficulty: 'easy',
      strategyType: 'Trend Following',
      timeframes: ['4H', '1H'],
      indicatorsRequired: ['Pro V2'],
      estimatedReadTime: 10,
      previewImage: 'a.svg',
      heroImage: 'b.svg',
      order: 1,
    };
    expect(strategyFrontMatterSchema.parse(strategy).relatedStrategies).toEqual([]);
    expect(strategyFrontMatterSchema.safeParse({ ...strategy, difficulty: 'beginner' }).success).toBe(false);
    expect(strategyFrontMatterSchema.safeParse({ ...strategy, timeframes: [] }).success).toBe(false);
  });
});
