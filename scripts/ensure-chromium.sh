#!/usr/bin/env bash
# Browser tests drive Debian's Chromium headless shell, the benches (Lighthouse, traces) its full
# Chromium; no test tool downloads a browser of its own. Install what is missing when we can;
# otherwise say exactly what to do.
set -euo pipefail
test_browser="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
[ -x "$test_browser" ] && [ -x /usr/bin/chromium ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  echo "installing Debian's chromium and chromium-headless-shell for the browser tests and the benches ..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  exit 0
fi
[ -x "$test_browser" ] && exit 0
echo "Chromium's headless shell not found at $test_browser: install it (sudo apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH." >&2
exit 1
