import { describe, expect, it } from 'vitest';
import { playwrightDurations, slowest, vitestDurations } from './slowest-tests.mjs';

describe('the slowest tests of a run', () => {
  it('names a Vitest test by its file and full name; a failed one, or a file that could not run, with its first error line', () => {
    const report = {
      testResults: [
        {
          name: `${process.cwd()}/src/a.test.ts`,
          status: 'failed',
          assertionResults: [
            { fullName: 'a › works', duration: 120, status: 'passed' },
            { fullName: 'a › has no duration', status: 'passed' },
            { fullName: 'a › breaks', duration: 7, status: 'failed', failureMessages: ['\n\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at a.test.ts:9'] },
          ],
        },
        { name: `${process.cwd()}/src/b.test.ts`, status: 'failed', message: 'Error: Cannot find module ./gone', assertionResults: [] },
      ],
    };
    expect(vitestDurations(report)).toEqual([
      { name: 'src/a.test.ts › a › works', ms: 120, failed: false },
      { name: 'src/a.test.ts › a › has no duration', ms: 0, failed: false },
      { name: 'src/a.test.ts › a › breaks', ms: 7, failed: true, error: 'AssertionError: expected 1 to be 2' },
      { name: 'src/b.test.ts (failed outside its tests: a hook, or the file did not load)', ms: 0, failed: true, error: 'Error: Cannot find module ./gone' },
    ]);
  });

  it('names a Playwright test by file, line and describe titles, summing its retries; a flaky one failed', () => {
    const report = {
      suites: [
        {
          title: 'b.spec.ts',
          specs: [
            {
              title: 'top',
              file: 'b.spec.ts',
              line: 3,
              tests: [{ status: 'flaky', results: [{ duration: 1000, error: { message: 'Timed out 5000ms waiting for expect(locator).toBeVisible()\n\nLocator: x' } }, { duration: 500 }] }],
            },
          ],
          suites: [{ title: 'group', specs: [{ title: 'inner', file: 'b.spec.ts', line: 9, tests: [{ status: 'expected', results: [{ duration: 40 }] }] }] }],
        },
      ],
    };
    expect(playwrightDurations(report)).toEqual([
      { name: 'b.spec.ts:3 › top', ms: 1500, failed: true, error: 'Timed out 5000ms waiting for expect(locator).toBeVisible()' },
      { name: 'b.spec.ts:9 › group › inner', ms: 40, failed: false },
    ]);
  });

  it('keeps the slowest first, at most the count asked', () => {
    const durations = [5, 50, 1, 30].map((ms) => ({ name: `t${ms}`, ms, failed: false }));
    expect(slowest(durations, 2)).toEqual([
      { name: 't50', ms: 50, failed: false },
      { name: 't30', ms: 30, failed: false },
    ]);
    expect(durations.map((test) => test.ms)).toEqual([5, 50, 1, 30]);
  });
});
