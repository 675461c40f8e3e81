import type { ImageSize } from '@shared/content';

// Reads the intrinsic size of the content images (SVG, PNG, GIF, JPEG, WebP: the formats the
// front-matter schema accepts) from their bytes, so the client can reserve each image's room
// before it loads. Small header readers instead of an image library: only the size is needed.

/** The intrinsic size of an image file, or undefined when its bytes do not say (or it is not an image). */
export function readImageSize(file: string, bytes: Uint8Array): ImageSize | undefined {
  const extension = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  const size =
    extension === 'svg'
      ? svgSize(new TextDecoder().decode(bytes))
      : (pngSize(bytes) ?? gifSize(bytes) ?? jpegSize(bytes) ?? webpSize(bytes));
  if (!size) return undefined;
  // <img width/height> take whole pixels.
  const width = Math.round(size.width);
  const height = Math.round(size.height);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

// -------------------------------------------------------------------------------------- svg

/** A length in user units: a plain number or px. Others (%, em, cm) depend on where it is shown. */
function svgLength(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:px)?\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

function svgSize(text: string): ImageSize | undefined {
  // The root element's start tag; comments could hold an '<svg' of their own.
  const tag = /<svg\b((?:[^>"']|"[^"]*"|'[^']*')*)>/i.exec(text.replace(/<!--[\s\S]*?-->/g, ''));
  if (!tag) return undefined;
  const attributes = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted] of (tag[1] ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set((name ?? '').toLowerCase(), doubleQuoted ?? singleQuoted ?? '');
  }
  const width = svgLength(attributes.get('width'));
  const height = svgLength(attributes.get('height'));
  if (width !== undefined && height !== undefined) return { width, height };

  const box = (attributes.get('viewbox') ?? '').trim().split(/[\s,]+/).map(Number);
  const boxWidth = box[2];
  const boxHeight = box[3];
  if (box.length !== 4 || !boxWidth || !boxHeight || boxWidth <= 0 || boxHeight <= 0) return undefined;
  // One given side scales the view box; none means the view box is the size.
  if (width !== undefined) return { width, height: (width * boxHeight) / boxWidth };
  if (height !== undefined) return { width: (height * boxWidth) / boxHeight, height };
  return { width: boxWidth, height: boxHeight };
}

// ----------------------------------------------------------------------------------- raster

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  // Signature, then the IHDR chunk whose first fields are width and height (big-endian).
  if (bytes.length < 24 || ascii(bytes, 1, 3) !== 'PNG' || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  return { width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) };
}

function gifSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 10 || !/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return undefined;
  return { width: view(bytes).getUint16(6, true), height: view(bytes).getUint16(8, true) };
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const data = view(bytes);
  let at = 2;
  // Walk the segments to the first start-of-frame marker, which holds the size.
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: data.getUint16(at + 7), height: data.getUint16(at + 5) };
    }
    at += 2 + data.getUint16(at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return undefined;
  const data = view(bytes);
  const uint24 = (at: number) => data.getUint16(at, true) | ((bytes[at + 2] ?? 0) << 16);
  switch (ascii(bytes, 12, 4)) {
    case 'VP8 ': // lossy: 14-bit sizes after the frame tag and start code
      return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff };
    case 'VP8L': {
      // lossless: two 14-bit fields (size - 1) packed after the signature byte
      const bits = data.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    case 'VP8X': // extended: 24-bit canvas size - 1
      return { width: uint24(24) + 1, height: uint24(27) + 1 };
    default:
      return undefined;
  }
}
