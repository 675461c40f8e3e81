import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ImageSizes } from '@shared/content';
import { ContentImage } from '@client/components/content/content-image';
import { cn } from '@client/lib/cn';

// A deliberately small Markdown renderer for the guides. It builds React elements, never HTML
// strings, so nothing in a guide can inject markup or script: text is always escaped by React,
// links keep only http(s), mailto and same-site targets, and images only our own content URLs.
// It covers what the guides use: paragraphs, headings, lists, quotes, tables, rules, images,
// bold, italics, inline code and links. Images get their size from the DTO's `images` map, so
// they keep their room before they load.

export type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'image'; alt: string; src: string }
  | { kind: 'table'; headers: string[]; rows: string[][] }
  | { kind: 'rule' };

const HEADING = /^(#{1,6})\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const IMAGE_ONLY = /^\s*!\[([^\]\n]*)\]\(([^()\s]+)\)\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const isBlank = (line: string) => line.trim() === '';

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    HEADING.test(line) ||
    RULE.test(line) ||
    IMAGE_ONLY.test(line) ||
    BULLET.test(line) ||
    ORDERED.test(line) ||
    QUOTE.test(line) ||
    (TABLE_ROW.test(line) && next !== undefined && TABLE_SEPARATOR.test(next))
  );
}

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** Splits Markdown into blocks (exported for tests). */
export function parseMarkdownBlocks(markdown: string): MarkdownBlock[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MarkdownBlock[] = [];
  let i = 0;

  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      i++;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 3, text: (heading[2] ?? '').replace(/\s#+\s*$/, '').trim() });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    const image = IMAGE_ONLY.exec(line);
    if (image) {
      blocks.push({ kind: 'image', alt: image[1] ?? '', src: image[2] ?? '' });
      i++;
      continue;
    }

    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = !bullet;
      const itemPattern = isOrdered ? ORDERED : BULLET;
      const items: string[] = [];
      const start = ordered ? Number(ordered[1]) : 1;
      while (i < lines.length) {
        const current = lines[i] ?? '';
        const item = itemPattern.exec(current);
        if (item) {
          items.push((isOrdered ? item[2] : item[1]) ?? '');
          i++;
          continue;
        }
        if (isBlank(current)) {
          // A blank line inside a list only continues it when another item of the same kind follows.
          const following = lines[i + 1];
          if (following !== undefined && itemPattern.test(following)) {
            i++;
            continue;
          }
          break;
        }
        if (startsBlock(current, lines[i + 1])) break;
        // A wrapped line belongs to the item above it.
        items[items.length - 1] = `${items[items.length - 1] ?? ''} ${current.trim()}`;
        i++;
      }
      blocks.push({ kind: 'list', ordered: isOrdered, start, items });
      continue;
    }

    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) {
        quoted.push(QUOTE.exec(lines[i] ?? '')?.[1] ?? '');
        i++;
      }
      blocks.push({ kind: 'quote', text: quoted.join('\n') });
      continue;
    }

    if (TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? '')) {
      const headers = tableCells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i] ?? '')) {
        rows.push(tableCells(lines[i] ?? ''));
        i++;
      }
      blocks.push({ kind: 'table', headers, rows });
      continue;
    }

    const paragraph: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i] ?? '') && !startsBlock(lines[i] ?? '', lines[i + 1])) {
      paragraph.push((lines[i] ?? '').trim());
      i++;
    }
    blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
  }
  return blocks;
}

// ------------------------------------------------------------------------------------ safety

/** Link targets we render as links; anything else (javascript:, data:, //host) stays plain text. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:\/\/|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[/?#]/.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  return null;
}

/** Images only from our own content route (the server already rewrote every guide image to it). */
export function safeImageSrc(src: string): string | null {
  // the console previews drafts with the images of its own route (operators only)
  return /^\/api\/(?:admin\/)?content\/images\/[\w.-]+$/.test(src) ? src : null;
}

// ------------------------------------------------------------------------------------ inline

const INLINE =
  /!\[([^\]\n]*)\]\(([^()\s]+)\)|\[([^\]\n]+)\]\(([^()\s]+)\)|`([^`\n]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*\n]*?[^*\s])?)\*/g;

function renderInline(text: string, images: ImageSizes, keyPrefix = 'i'): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) nodes.push(text.slice(last, at));
    const key = `${keyPrefix}-${index++}`;
    const [whole, imageAlt, imageSrc, linkText, linkHref, code, bold, boldUnderscore, em] = match;
    if (imageSrc !== undefined) {
      const src = safeImageSrc(imageSrc);
      nodes.push(
        src ? <ContentImage key={key} src={src} alt={imageAlt ?? ''} size={images[src]} className="my-4 inline-block rounded-xl border border-border" /> : (imageAlt ?? ''),
      );
    } else if (linkHref !== undefined) {
      nodes.push(<SafeLink key={key} href={linkHref}>{renderInline(linkText ?? '', images, key)}</SafeLink>);
    } else if (code !== undefined) {
      nodes.push(
        <code key={key} className="rounded-md bg-white/10 px-1.5 py-0.5 font-mono text-[0.85em] text-emerald-300">
          {code}
        </code>,
      );
    } else if (bold !== undefined || boldUnderscore !== undefined) {
      nodes.push(
        <strong key={key} className="font-semibold text-white">
          {renderInline(bold ?? boldUnderscore ?? '', images, key)}
        </strong>,
      );
    } else if (em !== undefined) {
      nodes.push(<em key={key}>{renderInline(em, images, key)}</em>);
    } else {
      nodes.push(whole);
    }
    last = at + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

const LINK_CLASS = 'font-medium text-primary underline decoration-primary/40 underline-offset-4 hover:decoration-primary';

function SafeLink({ href, children }: { href: string; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return <>{children}</>;
  if (safe.startsWith('/') || safe.startsWith('?') || safe.startsWith('#')) {
    return (
      <Link to={safe} className={LINK_CLASS}>
        {children}
      </Link>
    );
  }
  return (
    <a href={safe} className={LINK_CLASS} target={safe.startsWith('mailto:') ? undefined : '_blank'} rel="noopener noreferrer">
      {children}
    </a>
  );
}

// ------------------------------------------------------------------------------------ blocks

function Block({ block, index, images }: { block: MarkdownBlock; index: number; images: ImageSizes }) {
  switch (block.kind) {
    case 'heading': {
      // Page and card titles use h1/h2; headings inside a guide start at h3.
      const level = Math.min(6, Math.max(3, block.level + 1));
      const Tag = `h${level}` as 'h3' | 'h4' | 'h5' | 'h6';
      return <Tag className={cn('mb-3 mt-8 font-semibold tracking-tight text-white', level === 3 ? 'text-xl' : 'text-lg')}>{renderInline(block.text, images)}</Tag>;
    }
    case 'paragraph':
      return <p className="my-4">{renderInline(block.text, images)}</p>;
    case 'list': {
      const items = block.items.map((item, itemIndex) => (
        <li key={itemIndex} className="pl-1.5">
          {renderInline(item, images, `l${index}-${itemIndex}`)}
        </li>
      ));
      return block.ordered ? (
        <ol start={block.start} className="my-4 list-decimal space-y-2 pl-6 marker:font-semibold marker:text-primary">
          {items}
        </ol>
      ) : (
        <ul className="my-4 list-disc space-y-2 pl-6 marker:text-primary">{items}</ul>
      );
    }
    case 'quote':
      return (
        <blockquote className="my-6 rounded-r-xl border-l-2 border-primary/70 bg-primary/5 py-3 pl-5 pr-4 text-slate-200">
          {block.text.split('\n').map((line, lineIndex) => (
            <Fragment key={lineIndex}>
              {lineIndex > 0 && <br />}
              {renderInline(line, images, `q${index}-${lineIndex}`)}
            </Fragment>
          ))}
        </blockquote>
      );
    case 'image': {
      const src = safeImageSrc(block.src);
      if (!src) return null;
      return (
        <figure className="my-8">
          <ContentImage src={src} alt={block.alt} size={images[src]} className="w-full rounded-xl border border-border bg-black/20" />
          {block.alt && <figcaption className="mt-2.5 text-center text-sm text-muted">{block.alt}</figcaption>}
        </figure>
      );
    }
    case 'table':
      return <DataTable headers={block.headers} rows={block.rows} images={images} />;
    case 'rule':
      return <hr className="my-8 border-border" />;
  }
}

type DataTableProps = { headers: readonly string[]; rows: readonly (readonly string[])[]; caption?: string; images?: ImageSizes };

/** A readable table: used for Markdown tables and the Setting/Description blocks of feature docs. */
export function DataTable({ headers, rows, caption, images = {} }: DataTableProps) {
  return (
    <div className="my-6 overflow-x-auto rounded-xl border border-border">
      <table className="w-full border-collapse text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-white/[0.04]">
          <tr>
            {headers.map((header, index) => (
              <th key={index} scope="col" className="px-4 py-3 text-xs font-semibold uppercase tracking-wider text-muted">
                {renderInline(header, images, `h${index}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} className="border-t border-border align-top">
              {row.map((cell, cellIndex) => (
                <td key={cellIndex} className={cn('px-4 py-3 leading-6', cellIndex === 0 ? 'whitespace-nowrap font-medium text-white' : 'text-slate-300')}>
                  {renderInline(cell, images, `c${rowIndex}-${cellIndex}`)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Long-form reading style: comfortable measure, line height and contrast. */
export const PROSE_CLASS = 'text-[15.5px] leading-7 text-slate-300 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0';

/** Markdown from the content API; `images` is the DTO's map that sizes its pictures. */
export function Markdown({ source, images = {}, className }: { source: string; images?: ImageSizes; className?: string }) {
  const blocks = parseMarkdownBlocks(source);
  return (
    <div className={cn(PROSE_CLASS, className)}>
      {blocks.map((block, index) => (
        <Block key={index} block={block} index={index} images={images} />
      ))}
    </div>
  );
}
