#!/usr/bin/env bash
# Runs every check the README promises: typecheck, lint, unit and integration tests (PGlite, and a
# Postgres server when TEST_DATABASE_URL is set), the production build and the browser tests.
# Ends with one plain line "N passed, N failed" summing every suite, and fails if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
passed=0
failed=0

count_vitest() { # file → adds the numbers of a Vitest JSON report
  local counts
  counts=$(node -e 'const r=require(process.argv[1]);console.log(r.numPassedTests, r.numFailedTests + (r.numFailedTestSuites||0) + (r.success===false && r.numFailedTests===0 && r.numFailedTestSuites===0 ? 1 : 0))' "$(pwd)/$1" 2>/dev/null || echo "0 1")
  passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
}
count_step() { # name, exit code → a step without its own tests counts as one check
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $1"; fi
}

echo "== typecheck"; npx tsc --noEmit -p tsconfig.json; count_step typecheck $?
echo "== lint"; npx eslint . --max-warnings=0; count_step lint $?

echo "== unit and integration tests (PGlite)"
rm -f test-results/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json
count_vitest test-results/vitest.json

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== server integration tests (Postgres server)"
  rm -f test-results/vitest-postgres.json
  npx vitest run --project server --reporter=default --reporter=json --outputFile=test-results/vitest-postgres.json
  count_vitest test-results/vitest-postgres.json
fi

echo "== build"; npx vite build; count_step build $?

echo "== end-to-end (Chromium)"
bash scripts/ensure-chromium.sh
rm -f test-results/e2e.json
CI=1 npx playwright test
node -e 'const s=require(process.argv[1]).stats;console.log(s.expected, s.unexpected + s.flaky)' "$(pwd)/test-results/e2e.json" > test-results/e2e.counts 2>/dev/null || echo "0 1" > test-results/e2e.counts
read -r e2e_passed e2e_failed < test-results/e2e.counts
passed=$((passed + e2e_passed)); failed=$((failed + e2e_failed))

echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
