import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ImageSizes } from '@shared/content';
import { expectSized } from '../test/guide-fixtures';
import { DataTable, Markdown, parseMarkdownBlocks, safeHref, safeImageSrc } from './markdown';

function renderMarkdown(source: string, images?: ImageSizes) {
  const router = createMemoryRouter([{ path: '/', element: <Markdown source={source} images={images} /> }]);
  return render(<RouterProvider router={router} />);
}

describe('parseMarkdownBlocks', () => {
  it('splits paragraphs, lists, quotes, headings, rules and tables', () => {
    const blocks = parseMarkdownBlocks(
      [
        '### Heading',
        'First line',
        'continues here.',
        '',
        'How to read it:',
        '',
        '- **One** item',
        '  wrapped onto a second line',
        '- Two',
        '',
        '3. Third',
        '4. Fourth',
        '',
        '> Quoted',
        '> twice',
        '',
        '---',
        '| A | B |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 3, text: 'Heading' },
      { kind: 'paragraph', text: 'First line continues here.' },
      { kind: 'paragraph', text: 'How to read it:' },
      { kind: 'list', ordered: false, start: 1, items: ['**One** item wrapped onto a second line', 'Two'] },
      { kind: 'list', ordered: true, start: 3, items: ['Third', 'Fourth'] },
      { kind: 'quote', text: 'Quoted\ntwice' },
      { kind: 'rule' },
      { kind: 'table', headers: ['A', 'B'], rows: [['1', '2']] },
    ]);
  });

  it('treats a line holding only an image as a figure', () => {
    expect(parseMarkdownBlocks('![Alt text](/api/content/images/a.svg)')).toEqual([{ kind: 'image', alt: 'Alt text', src: '/api/content/images/a.svg' }]);
  });
});

describe('safety rules', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['mailto:support@example.com', 'mailto:support@example.com'],
    ['/dashboard/strategies', '/dashboard/strategies'],
    ['?guide=x', '?guide=x'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,hi', null],
    ['//evil.example', null],
    ['vbscript:x', null],
  ])('href %s → %s', (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });

  it('keeps only our own content images', () => {
    expect(safeImageSrc('/api/content/images/a-b_c.svg')).toBe('/api/content/images/a-b_c.svg');
    expect(safeImageSrc('https://evil.example/a.svg')).toBeNull();
    expect(safeImageSrc('/api/content/images/../secret')).toBeNull();
    expect(safeImageSrc('javascript:alert(1)')).toBeNull();
  });
});

describe('<Markdown>', () => {
  it('renders inline emphasis, code, links and images', () => {
    renderMarkdown('Use **bold**, *italics*, `code` and [a link](https://example.com) with ![chart](/api/content/images/c.svg) inline.');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByText('italics').tagName).toBe('EM');
    expect(screen.getByText('code').tagName).toBe('CODE');
    expect(screen.getByRole('link', { name: 'a link' })).toHaveAttribute('href', 'https://example.com');
    expect(screen.getByRole('img', { name: 'chart' })).toHaveAttribute('src', '/api/content/images/c.svg');
  });

  it('gives figures and inline images the size the content API states', () => {
    renderMarkdown(
      ['![A figure](/api/content/images/figure.svg)', '', 'Text with ![an icon](/api/content/images/icon.svg) in it, **and ![bold](/api/content/images/icon.svg)**.'].join('\n'),
      { '/api/content/images/figure.svg': { width: 800, height: 450 }, '/api/content/images/icon.svg': { width: 48, height: 24 } },
    );
    expectSized(screen.getByRole('img', { name: 'A figure' }), 800, 450);
    expectSized(screen.getByRole('img', { name: 'an icon' }), 48, 24);
    expectSized(screen.getByRole('img', { name: 'bold' }), 48, 24);
  });

  it('sizes images inside table cells too', () => {
    render(<DataTable headers={['Setting', 'Look']} rows={[['Colour', '![swatch](/api/content/images/swatch.svg)']]} images={{ '/api/content/images/swatch.svg': { width: 30, height: 10 } }} />);
    expectSized(screen.getByRole('img', { name: 'swatch' }), 30, 10);
  });

  it('still shows an image whose size it was not told, without inventing one', () => {
    renderMarkdown('![unknown](/api/content/images/unknown.svg)');
    const image = screen.getByRole('img', { name: 'unknown' });
    expect(image).toHaveAttribute('src', '/api/content/images/unknown.svg');
    expect(image).not.toHaveAttribute('width');
    expect(image).not.toHaveAttribute('height');
  });

  it('numbers ordered lists from their first number', () => {
    const { container } = renderMarkdown('2. Second\n3. Third');
    const list = container.querySelector('ol');
    expect(list).toHaveAttribute('start', '2');
    expect(within(list as HTMLElement).getAllByRole('listitem')).toHaveLength(2);
  });

  it('does not treat single asterisks in arithmetic as emphasis', () => {
    renderMarkdown('Risk 1% × 2 * 3 stays as written.');
    expect(screen.getByText('Risk 1% × 2 * 3 stays as written.')).toBeInTheDocument();
  });
});
