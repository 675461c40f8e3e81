import { describe, expect, it } from 'vitest';
import { checkUpload, contentWarnings, imagesInMarkdown, isContentVisible, sniffImage, unsafeSvgReason } from './content-studio';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');
const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('who sees a published piece', () => {
  const monthly = { plans: ['monthly'], firstPaidAt: new Date(now.getTime() - 2 * DAY) };
  const yearly = { plans: ['yearly'], firstPaidAt: new Date(now.getTime() - 30 * DAY) };

  it('an open piece: every member with access', () => {
    expect(isContentVisible({ plans: [], dripDays: 0, visibleFrom: null }, monthly, now)).toBe(true);
  });
  it('gated to plans: members on one of them', () => {
    const gate = { plans: ['yearly', 'lifetime'], dripDays: 0, visibleFrom: null };
    expect(isContentVisible(gate, yearly, now)).toBe(true);
    expect(isContentVisible(gate, monthly, now)).toBe(false);
  });
  it('drip: whole days after the first payment; no payment of their own (complimentary): at once', () => {
    const gate = { plans: [], dripDays: 7, visibleFrom: null };
    expect(isContentVisible(gate, monthly, now)).toBe(false);
    expect(isContentVisible(gate, yearly, now)).toBe(true);
    expect(isContentVisible(gate, { plans: ['monthly'], firstPaidAt: new Date(now.getTime() - 7 * DAY) }, now)).toBe(true);
    expect(isContentVisible(gate, { plans: ['monthly'], firstPaidAt: null }, now)).toBe(true);
  });
  it('scheduled: from its time on', () => {
    expect(isContentVisible({ plans: [], dripDays: 0, visibleFrom: new Date(now.getTime() + 1000) }, yearly, now)).toBe(false);
    expect(isContentVisible({ plans: [], dripDays: 0, visibleFrom: now }, yearly, now)).toBe(true);
  });
});

describe('what an upload really is', () => {
  it.each([
    ['png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0)],
    ['gif', text('GIF89a....')],
    ['webp', bytes(0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50)],
    ['svg', text('<?xml version="1.0"?>\n<!-- chart -->\n<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
  ])('%s by its magic bytes', (kind, data) => {
    expect(sniffImage(data)).toBe(kind);
  });

  it('text, HTML and nothing are not images', () => {
    expect(sniffImage(text('hello'))).toBeNull();
    expect(sniffImage(text('<html><svg></svg></html>'))).toBeNull();
    expect(sniffImage(bytes())).toBeNull();
  });

  it.each([
    ['<svg><script>alert(1)</script></svg>', 'it holds a script'],
    ['<svg><rect onclick="x()"/></svg>', 'it holds an event handler (on…=)'],
    ['<svg><a href="javascript:alert(1)">x</a></svg>', 'it holds a javascript: link'],
    ['<svg><foreignObject><div/></foreignObject></svg>', 'it embeds HTML'],
    ['<!DOCTYPE svg [<!ENTITY x "y">]><svg/>', 'it declares XML entities'],
  ])('an unsafe SVG: %s', (svg, reason) => {
    expect(unsafeSvgReason(svg)).toBe(reason);
  });

  it('refuses a bad name, an empty file, a file over 5 MB, a renamed file; takes a real one', () => {
    const pngBytes = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0);
    expect(checkUpload('../x.png', pngBytes)).toMatchObject({ ok: false });
    expect(checkUpload('x.png', bytes())).toEqual({ ok: false, message: 'The file is empty.' });
    expect(checkUpload('x.png', new Uint8Array(5 * 1024 * 1024 + 1))).toEqual({ ok: false, message: 'An image may be at most 5 MB.' });
    expect(checkUpload('x.jpg', pngBytes)).toEqual({ ok: false, message: 'x.jpg is named as JPEG but its content is PNG: rename it.' });
    expect(checkUpload('x.png', pngBytes)).toEqual({ ok: true, kind: 'png' });
  });
});

describe("what an operator's text loses", () => {
  it('says so for script, javascript: links and embeds; nothing for plain Markdown', () => {
    expect(contentWarnings('Plain **text** with [a link](https://x.example).')).toEqual([]);
    expect(contentWarnings('<script>x</script>')).toHaveLength(1);
    expect(contentWarnings('[x](javascript:alert(1))')).toHaveLength(1);
    expect(contentWarnings('<iframe src="x">')).toHaveLength(1);
  });

  it('lists the library images a text uses, not URLs', () => {
    expect(imagesInMarkdown('![a](one.png) ![b](https://x.example/b.png) ![c](/api/c.png) ![a](one.png) ![d](two.svg)')).toEqual(['one.png', 'two.svg']);
  });
});
