import { describe, expect, it } from 'vitest';
import { sectionBeingRead } from './use-section-spy';

describe('the section being read (#46: the table of contents follows the reader)', () => {
  it.each([
    ['at the top: the first', [100, 900, 1700], 240, false, 0],
    ['the second has passed the reading line', [-700, 200, 1000], 240, false, 1],
    ['deep in the third', [-1700, -900, -100], 240, false, 2],
    ['a short last section at the page end', [-1500, -700, 500], 240, true, 2],
    ['no sections', [], 240, false, -1],
  ])('%s', (_name, tops, line, atEnd, expected) => {
    expect(sectionBeingRead(tops, line, atEnd)).toBe(expected);
  });
});
