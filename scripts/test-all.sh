#!/usr/bin/env bash
# Runs every check the README promises: typecheck, lint, unit and integration tests (PGlite, and a
# Postgres server when TEST_DATABASE_URL is set), the production build and the browser tests.
# Ends with one plain line "N passed, N failed" summing every suite, and fails if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
# the reports of an earlier run must not be counted again
rm -f test-results/vitest.json test-results/vitest.log test-results/vitest-postgres.json test-results/vitest-postgres.log test-results/e2e.json test-results/container.log test-results/build.log
passed=0
failed=0

# Reads a test report and prints "passed failed", counting tests: a Vitest file that could not
# run (it failed without a failed test of its own) counts as one failure; a Playwright test that
# passed only on a retry (flaky) counts once, as a failure. A missing or unreadable report, or a
# runner that failed with nothing counted (an unhandled error), counts as one failure.
count_report() { # kind (vitest|playwright), report file, exit code of the runner
  node - "$1" "$(pwd)/$2" "$3" <<'NODE' 2>/dev/null || echo "0 1"
const [kind, file, exitCode] = process.argv.slice(2);
const report = require(file);
let passed = 0;
let failed = 0;
if (kind === 'vitest') {
  for (const suite of report.testResults) {
    const tests = suite.assertionResults;
    passed += tests.filter((test) => test.status === 'passed').length;
    const failedTests = tests.filter((test) => test.status === 'failed').length;
    failed += failedTests || (suite.status === 'failed' ? 1 : 0);
  }
} else {
  const { expected, unexpected, flaky } = report.stats;
  passed += expected;
  failed += unexpected + flaky;
}
if (failed === 0 && Number(exitCode) !== 0) failed = 1;
console.log(passed, failed);
NODE
}
add_counts() { # "passed failed"
  local counts=$1
  passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
}
failed_steps=""
# A Vitest pass can fail with every test passed (an unhandled error, a hook or a teardown that
# failed): its report names no failed test, so the end of the run quotes what Vitest said instead.
note_runner_errors() { # name, exit code, log file
  [ "$2" -eq 0 ] && return
  local said
  said=$(sed 's/\x1b\[[0-9;]*m//g' "$3" | awk '/Unhandled Errors|Failed Suites|Failed Tests/ { quoting = 1 } quoting && shown < 30 { print; shown++ }')
  [ -n "$said" ] || said=$(sed 's/\x1b\[[0-9;]*m//g' "$3" | grep -v '^\s*$' | tail -12)
  failed_steps+="FAILED: $1 exited with $2"$'\n'"$said"$'\n'
}
count_step() { # name, exit code → a step without its own tests counts as one check
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failed_steps+="FAILED: $1"$'\n'; echo "FAILED: $1"; fi
}

# The type check, the lint, the build and both Vitest passes start at once: they are CPU-bound and
# independent (no shared files, databases or ports), and side by side they get more of a busy
# machine, whose other work takes the cores a runnable process at a time, and on a quiet one take
# no longer than one after another. Each waits on nothing but its own work and has bounds far
# above its time, so it holds up under the load.
run_started=$(date +%s)
npx tsc --noEmit -p tsconfig.json > test-results/typecheck.log 2>&1 &
typecheck_pid=$!
npx eslint . --max-warnings=0 > test-results/lint.log 2>&1 &
lint_pid=$!
node scripts/build.mjs > test-results/build.log 2>&1 &
build_pid=$!
# without TEST_DATABASE_URL, which would move this pass onto the Postgres server as well
env -u TEST_DATABASE_URL npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json > test-results/vitest.log 2>&1 &
pglite_pid=$!
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  npx vitest run --project server --reporter=default --reporter=json --outputFile=test-results/vitest-postgres.json > test-results/vitest-postgres.log 2>&1 &
  postgres_pid=$!
fi
echo "== started side by side: type check, lint, build, Vitest on PGlite${TEST_DATABASE_URL:+ and on Postgres} (their output follows as each ends)"
# when a step ended: its log's last write (a step in the background may end long before it is read)
ended() { echo "   ($1: ended $(( $(stat -c %Y "$2") - run_started )) s into the run)"; }

wait "$build_pid"; build_status=$?
echo "== build"; cat test-results/build.log; count_step build "$build_status"; ended build test-results/build.log

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  wait "$postgres_pid"; postgres_status=$?
  echo "== server integration tests (Postgres server)"
  cat test-results/vitest-postgres.log
  add_counts "$(count_report vitest test-results/vitest-postgres.json $postgres_status)"
  note_runner_errors "Vitest on Postgres" "$postgres_status" test-results/vitest-postgres.log
  ended "Vitest on Postgres" test-results/vitest-postgres.log
fi

# The browser tests wait on what pages show, with bounds (20 s) that a page starved of the CPU has
# missed when they started beside both Vitest passes: they start once the Postgres pass is over,
# beside the PGlite pass's last files.
echo "== end-to-end (Chromium), beside the rest of the PGlite pass"
bash scripts/ensure-chromium.sh
CI=1 npx playwright test
add_counts "$(count_report playwright test-results/e2e.json $?)"
ended "end-to-end" test-results/e2e.json

wait "$pglite_pid"; pglite_status=$?
echo "== unit and integration tests (PGlite)"
cat test-results/vitest.log
add_counts "$(count_report vitest test-results/vitest.json "$pglite_status")"
note_runner_errors "Vitest on PGlite" "$pglite_status" test-results/vitest.log
ended "Vitest on PGlite" test-results/vitest.log


wait "$typecheck_pid"; typecheck_status=$?
echo "== typecheck"; cat test-results/typecheck.log; count_step typecheck "$typecheck_status"
wait "$lint_pid"; lint_status=$?
echo "== lint"; cat test-results/lint.log; count_step lint "$lint_status"

# The container image and the compose stack (npm run test:container), when asked (.ci/run asks):
# it builds images and needs podman, minutes a developer's `npm test` does without. It runs last,
# alone: beside the Vitest passes, the compose stack's database answered too late for the test's
# replica stop to lose nothing (five purchases refused with 503 while the machine was starved).
if [ -n "${CONTAINER_TEST:-}" ]; then
  echo "== container image and compose stack (npm run test:container)"
  npm run test:container 2>&1 | tee test-results/container.log; count_step "test:container" "${PIPESTATUS[0]}"
  ended "the container test" test-results/container.log
fi

# CI keeps only the last lines of a run: they name what failed, the steps and then the tests
node scripts/slowest-tests.mjs test-results/vitest.json test-results/vitest-postgres.json test-results/e2e.json
printf '%s' "$failed_steps"
echo "npm test took $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
