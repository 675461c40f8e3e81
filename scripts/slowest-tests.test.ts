import { describe, expect, it } from 'vitest';
import { playwrightDurations, slowest, vitestDurations } from './slowest-tests.mjs';

describe('the slowest tests of a run', () => {
  it('names a Vitest test by its file and full name', () => {
    const report = {
      testResults: [
        { name: `${process.cwd()}/src/a.test.ts`, assertionResults: [{ fullName: 'a › works', duration: 120 }, { fullName: 'a › has no duration' }] },
      ],
    };
    expect(vitestDurations(report)).toEqual([
      { name: 'src/a.test.ts › a › works', ms: 120 },
      { name: 'src/a.test.ts › a › has no duration', ms: 0 },
    ]);
  });

  it('names a Playwright test by file, line and describe titles, summing its retries', () => {
    const report = {
      suites: [
        {
          title: 'b.spec.ts',
          specs: [{ title: 'top', file: 'b.spec.ts', line: 3, tests: [{ results: [{ duration: 1000 }, { duration: 500 }] }] }],
          suites: [{ title: 'group', specs: [{ title: 'inner', file: 'b.spec.ts', line: 9, tests: [{ results: [{ duration: 40 }] }] }] }],
        },
      ],
    };
    expect(playwrightDurations(report)).toEqual([
      { name: 'b.spec.ts:3 › top', ms: 1500 },
      { name: 'b.spec.ts:9 › group › inner', ms: 40 },
    ]);
  });

  it('keeps the slowest first, at most the count asked', () => {
    const durations = [5, 50, 1, 30].map((ms) => ({ name: `t${ms}`, ms }));
    expect(slowest(durations, 2)).toEqual([
      { name: 't50', ms: 50 },
      { name: 't30', ms: 30 },
    ]);
    expect(durations.map((test) => test.ms)).toEqual([5, 50, 1, 30]);
  });
});
