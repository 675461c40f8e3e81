import { describe, expect, it } from 'vitest';
import { readImageSize } from './image-size';

const text = (value: string) => new TextEncoder().encode(value);
const svg = (attributes: string, inner = '') => text(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${inner}</svg>`);

function bytes(length: number, write: (data: DataView, raw: Uint8Array) => void): Uint8Array {
  const raw = new Uint8Array(length);
  write(new DataView(raw.buffer), raw);
  return raw;
}
const put = (raw: Uint8Array, at: number, value: string) => raw.set(text(value), at);

describe('readImageSize: SVG', () => {
  it.each([
    ['width and height', 'width="800" height="450" viewBox="0 0 1600 900"', { width: 800, height: 450 }],
    ['px units and single quotes', "width='640px' height='360px'", { width: 640, height: 360 }],
    ['only a viewBox', 'viewBox="0 0 1200 480"', { width: 1200, height: 480 }],
    ['a comma-separated viewBox', 'viewBox="0,0,300,150"', { width: 300, height: 150 }],
    ['one side and a viewBox', 'width="400" viewBox="0 0 800 450"', { width: 400, height: 225 }],
    ['the other side and a viewBox', 'height="90" viewBox="0 0 160 90.5"', { width: 159, height: 90 }],
    ['relative sizes beside a viewBox', 'width="100%" height="100%" viewBox="0 0 64 32"', { width: 64, height: 32 }],
    ['fractions, rounded', 'width="99.6" height="50.2"', { width: 100, height: 50 }],
  ])('reads %s', (_, attributes, size) => {
    expect(readImageSize('a.svg', svg(attributes))).toEqual(size);
  });

  it('reads the root element only, not a stroke-width, a child or a comment', () => {
    const file = text(
      '<!-- <svg width="1" height="1"> --><svg xmlns="http://www.w3.org/2000/svg" stroke-width="3" data-title="a > b" viewBox="0 0 20 10">' +
        '<svg width="5" height="5"/></svg>',
    );
    expect(readImageSize('a.svg', file)).toEqual({ width: 20, height: 10 });
  });

  it.each([
    ['no size at all', ''],
    ['relative sizes only', 'width="100%" height="50%"'],
    ['an empty viewBox', 'viewBox="0 0 0 0"'],
  ])('answers undefined for %s', (_, attributes) => {
    expect(readImageSize('a.svg', svg(attributes))).toBeUndefined();
  });

  it('answers undefined for a file that is not an SVG', () => {
    expect(readImageSize('a.svg', text('<html><body>hello</body></html>'))).toBeUndefined();
  });
});

describe('readImageSize: raster formats the content schema accepts', () => {
  it('reads a PNG header', () => {
    const png = bytes(33, (data, raw) => {
      raw.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      data.setUint32(8, 13);
      put(raw, 12, 'IHDR');
      data.setUint32(16, 1920);
      data.setUint32(20, 1080);
    });
    expect(readImageSize('a.png', png)).toEqual({ width: 1920, height: 1080 });
  });

  it('reads a GIF header', () => {
    const gif = bytes(13, (data, raw) => {
      put(raw, 0, 'GIF89a');
      data.setUint16(6, 320, true);
      data.setUint16(8, 200, true);
    });
    expect(readImageSize('a.gif', gif)).toEqual({ width: 320, height: 200 });
  });

  it('reads a JPEG frame header after other segments', () => {
    const jpeg = bytes(40, (data, raw) => {
      raw.set([0xff, 0xd8]);
      // APP0 (JFIF), 16 bytes long
      raw.set([0xff, 0xe0], 2);
      data.setUint16(4, 16);
      // SOF2 (progressive): length, precision, height, width
      raw.set([0xff, 0xc2], 20);
      data.setUint16(22, 17);
      raw[24] = 8;
      data.setUint16(25, 600);
      data.setUint16(27, 1024);
    });
    expect(readImageSize('a.jpg', jpeg)).toEqual({ width: 1024, height: 600 });
  });

  it('does not take a Huffman table (FFC4) for a frame header', () => {
    const jpeg = bytes(40, (data, raw) => {
      raw.set([0xff, 0xd8, 0xff, 0xc4]);
      data.setUint16(4, 8);
      raw.set([0xff, 0xc0], 12);
      data.setUint16(14, 17);
      data.setUint16(17, 48);
      data.setUint16(19, 64);
    });
    expect(readImageSize('a.jpeg', jpeg)).toEqual({ width: 64, height: 48 });
  });

  const webp = (chunk: string, write: (data: DataView, raw: Uint8Array) => void) =>
    bytes(40, (data, raw) => {
      put(raw, 0, 'RIFF');
      put(raw, 8, 'WEBP');
      put(raw, 12, chunk);
      write(data, raw);
    });

  it('reads lossy, lossless and extended WebP headers', () => {
    const lossy = webp('VP8 ', (data) => {
      data.setUint16(26, 750, true);
      data.setUint16(28, 500, true);
    });
    // 14 bits of width - 1, then 14 bits of height - 1.
    const lossless = webp('VP8L', (data) => data.setUint32(21, (400 - 1) | ((300 - 1) << 14), true));
    const extended = webp('VP8X', (data, raw) => {
      data.setUint16(24, (5000 - 1) & 0xffff, true);
      raw[26] = (5000 - 1) >> 16;
      data.setUint16(27, 2000 - 1, true);
    });
    expect(readImageSize('a.webp', lossy)).toEqual({ width: 750, height: 500 });
    expect(readImageSize('a.webp', lossless)).toEqual({ width: 400, height: 300 });
    expect(readImageSize('a.webp', extended)).toEqual({ width: 5000, height: 2000 });
  });

  it.each([
    ['an empty file', 'a.png', new Uint8Array()],
    ['text named .png', 'a.png', text('not an image at all, just words in a file')],
    ['a truncated JPEG', 'a.jpg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00])],
    ['a zero-sized GIF', 'a.gif', bytes(13, (_, raw) => put(raw, 0, 'GIF87a'))],
  ])('answers undefined for %s', (_, file, data) => {
    expect(readImageSize(file, data)).toBeUndefined();
  });
});
