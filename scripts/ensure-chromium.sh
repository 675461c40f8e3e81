#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (no test tool downloads its own browser). Install it when
# it is missing and we can; otherwise say exactly what to do.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium_path" ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  echo "installing Debian's chromium for the browser tests ..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $chromium_path: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
