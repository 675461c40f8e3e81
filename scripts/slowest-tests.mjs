// Prints the ten slowest tests of a `npm test` run from the reports it wrote (Vitest and
// Playwright JSON), so that a slow test is seen where it starts rather than in a longer suite.
//   node scripts/slowest-tests.mjs test-results/vitest.json test-results/e2e.json …
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const COUNT = 10;

/** [{ name, ms }] of every test in a Vitest JSON report. */
export function vitestDurations(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({ name: `${relative(process.cwd(), file.name)} › ${test.fullName}`, ms: test.duration ?? 0 })),
  );
}

/** [{ name, ms }] of every test in a Playwright JSON report: a suite per file, nested describes. */
export function playwrightDurations(report) {
  const walk = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        name: `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`,
        ms: test.results.reduce((sum, result) => sum + result.duration, 0),
      })),
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
}
