#!/usr/bin/env bash
# Runs every check the README promises: typecheck, lint, unit and integration tests (PGlite, and a
# Postgres server when TEST_DATABASE_URL is set), the production build and the browser tests.
# Ends with one plain line "N passed, N failed" summing every suite, and fails if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
# the reports of an earlier run must not be counted again
rm -f test-results/*.ended test-results/vitest.json test-results/vitest.log test-results/vitest-client.json test-results/vitest-client.log test-results/vitest-postgres.json test-results/vitest-postgres.log test-results/e2e.json
passed=0
failed=0
# Each step prints how long it took, so a slow step shows where it starts.
step_started=$SECONDS
took() { echo "   ($1: $((SECONDS - step_started)) s)"; step_started=$SECONDS; }

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
# A step run beside others is waited for after them: the time of its own end is kept, so that
# its duration is its own and not the time the run got round to waiting for it.
in_background() { # name, command...
  local name=$1; shift
  ( "$@"; status=$?; echo "$SECONDS" > "test-results/$name.ended"; exit "$status" ) &
}
ended_at() { cat "test-results/$1.ended" 2>/dev/null || echo "$SECONDS"; }
count_step() { # name, exit code → a step without its own tests counts as one check
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failed_steps+="FAILED: $1"$'\n'; echo "FAILED: $1"; fi
}

# The type check and the lint are single-threaded and CPU-bound, as are the Vitest workers: run
# side by side they give the suite more of a busy machine, whose other work takes the cores a
# runnable process at a time, and on a quiet one take no longer than one after another.
npx tsc --noEmit -p tsconfig.json > test-results/typecheck.log 2>&1 &
typecheck_pid=$!
npx eslint . --max-warnings=0 > test-results/lint.log 2>&1 &
lint_pid=$!
# The production build the browser tests need, for the same reason (no suite reads dist/).
node scripts/build.mjs > test-results/build.log 2>&1 &
build_pid=$!

# The Postgres server pass is independent of the PGlite one (its own template database, ports
# chosen by the system, no shared files), so it runs beside it for the same reason: on a busy
# machine six runnable workers get more of the cores than three, and on the Postgres pass the
# workers also wait on the server, which leaves the PGlite workers its share.
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  postgres_started=$SECONDS
  in_background postgres npx vitest run --project server --reporter=default --reporter=json --outputFile=test-results/vitest-postgres.json > test-results/vitest-postgres.log 2>&1
  postgres_pid=$!
fi

# The client and pure projects in a Vitest run of their own, for the same reason: one run shares
# its workers among its projects, so the server suites waited for a worker until the client files
# were done (157 s of a 463 s pass under two hogs), three workers the whole pass long.
client_started=$SECONDS
in_background client env -u TEST_DATABASE_URL npx vitest run --project client --project shared --reporter=default --reporter=json --outputFile=test-results/vitest-client.json > test-results/vitest-client.log 2>&1
client_pid=$!

echo "== server unit and integration tests (PGlite), beside the type check, the lint, the client tests and the Postgres pass"
# without TEST_DATABASE_URL, which would move this pass onto the Postgres server as well
env -u TEST_DATABASE_URL npx vitest run --project server --reporter=default --reporter=json --outputFile=test-results/vitest.json 2>&1 | tee test-results/vitest.log
pglite_status=${PIPESTATUS[0]}
add_counts "$(count_report vitest test-results/vitest.json "$pglite_status")"
note_runner_errors "Vitest on PGlite" "$pglite_status" test-results/vitest.log
took "Vitest on PGlite"

wait "$client_pid"; client_status=$?
echo "== client and pure unit tests (jsdom, Node), run beside the server tests"
cat test-results/vitest-client.log
add_counts "$(count_report vitest test-results/vitest-client.json "$client_status")"
note_runner_errors "Vitest client and shared" "$client_status" test-results/vitest-client.log
echo "   (Vitest client and shared: $(($(ended_at client) - client_started)) s)"
took "the rest of the client tests"

wait "$typecheck_pid"; typecheck_status=$?
echo "== typecheck"; cat test-results/typecheck.log; count_step typecheck "$typecheck_status"
wait "$lint_pid"; lint_status=$?
echo "== lint"; cat test-results/lint.log; count_step lint "$lint_status"
took "the rest of the type check and the lint"

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  wait "$postgres_pid"; postgres_status=$?
  echo "== server integration tests (Postgres server), run beside the PGlite pass"
  cat test-results/vitest-postgres.log
  add_counts "$(count_report vitest test-results/vitest-postgres.json $postgres_status)"
  note_runner_errors "Vitest on Postgres" "$postgres_status" test-results/vitest-postgres.log
  echo "   (Vitest on Postgres: $(($(ended_at postgres) - postgres_started)) s)"
  took "the rest of the Postgres pass"
fi

# The browser tests after the Vitest passes, not beside them: on the slower kind of machine beside
# two CPU hogs, the journeys' browsers and servers beside the passes' nine workers put the load at
# 27 on two cores and five server and client tests over their bounds (docs/testing.md).
wait "$build_pid"; build_status=$?
echo "== build, made beside the Vitest passes"; cat test-results/build.log; count_step build "$build_status"
took "the rest of the build"

echo "== end-to-end (Chromium)"
bash scripts/ensure-chromium.sh
CI=1 npx playwright test
add_counts "$(count_report playwright test-results/e2e.json $?)"
took "end-to-end"

# the container image and the compose stack (npm run test:container), when asked (.ci/run asks):
# it builds images and needs podman, minutes a developer's `npm test` does without
if [ -n "${CONTAINER_TEST:-}" ]; then
  echo "== container image and compose stack (npm run test:container)"
  npm run test:container; count_step "test:container" $?
  took "the container test"
fi

# CI keeps only the last lines of a run: they name what failed, the steps and then the tests
node scripts/slowest-tests.mjs test-results/vitest.json test-results/vitest-client.json test-results/vitest-postgres.json test-results/e2e.json
printf '%s' "$failed_steps"
echo "npm test took $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
