// Prints what a `npm test` run's reports (Vitest and Playwright JSON) say CI needs at its end: the
// ten slowest tests, so that a slow test is seen where it starts rather than in a longer suite, and
// every failed test with the first line of its error, since CI keeps only the run's last lines.
//   node scripts/slowest-tests.mjs test-results/vitest.json test-results/e2e.json …
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const COUNT = 10;
const ERROR_CHARS = 300;

// the colour codes Vitest writes into its failure messages (built from a string: a control
// character in a regular expression literal reads like a mistake)
const COLOUR_CODE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The first line of an error text that says something, shortened. */
function firstLine(text) {
  const line = String(text ?? '')
    .split('\n')
    .map((part) => part.replace(COLOUR_CODE, '').trim())
    .find(Boolean);
  return (line ?? '').slice(0, ERROR_CHARS);
}

/**
 * [{ name, ms, failed, error? }] of every test in a Vitest JSON report; a file that failed without a
 * failed test of its own (a hook failed, or the file did not load) is one failed entry; the report
 * holds no hook's error, which the run's closing lines quote from Vitest's output (test-all.sh).
 */
export function vitestDurations(report) {
  return report.testResults.flatMap((file) => {
    const path = relative(process.cwd(), file.name);
    const tests = file.assertionResults.map((test) => ({
      name: `${path} › ${test.fullName}`,
      ms: test.duration ?? 0,
      failed: test.status === 'failed',
      ...(test.status === 'failed' ? { error: firstLine(test.failureMessages?.[0]) } : {}),
    }));
    const fileFailedAlone = file.status === 'failed' && !tests.some((test) => test.failed);
    return fileFailedAlone ? [...tests, { name: `${path} (failed outside its tests: a hook, or the file did not load)`, ms: 0, failed: true, error: firstLine(file.message) }] : tests;
  });
}

/**
 * [{ name, ms, failed, error? }] of every test in a Playwright JSON report: a suite per file, nested
 * describes; a test that passed only on a retry (flaky) counts as failed, as the final count does.
 */
export function playwrightDurations(report) {
  const walk = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => {
        const failed = test.status === 'unexpected' || test.status === 'flaky';
        const error = test.results.map((result) => result.error?.message).find(Boolean);
        return {
          name: `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`,
          ms: test.results.reduce((sum, result) => sum + result.duration, 0),
          failed,
          ...(failed ? { error: firstLine(error) } : {}),
        };
      }),
    ),
    ...(suite.suites ?? []).flatMap((describe) => walk(describe, [...titles, describe.title])),
  ];
  return report.suites.flatMap((file) => walk(file, []));
}

export function slowest(durations, count = COUNT) {
  return [...durations].sort((a, b) => b.ms - a.ms).slice(0, count);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const durations = process.argv
    .slice(2)
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      return 'testResults' in report ? vitestDurations(report).map((test) => ({ ...test, name: `${file.includes('postgres') ? '[postgres] ' : ''}${test.name}` })) : playwrightDurations(report);
    });
  console.log(`== the ${COUNT} slowest tests`);
  for (const test of slowest(durations)) console.log(`${(test.ms / 1000).toFixed(1).padStart(6)} s  ${test.name}`);
  const failures = durations.filter((test) => test.failed);
  if (failures.length > 0) {
    console.log(`== the ${failures.length} failed test${failures.length === 1 ? '' : 's'}`);
    for (const test of failures) console.log(`FAILED: ${test.name}${test.error ? `\n        ${test.error}` : ''}`);
  }
}
