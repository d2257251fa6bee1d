#!/usr/bin/env bash
# The dashboard's browser tests drive Debian's Chromium (playwright-core cannot download its own
# browser here). Installs it with apt-get when it is missing and this runs as root; otherwise says
# what to do. CHROMIUM_PATH names another binary.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
for bin in chromium chromium-browser google-chrome; do
  if command -v "$bin" >/dev/null 2>&1; then exit 0; fi
done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Chromium for the dashboard's browser tests (apt-get install chromium)" >&2
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1) ||
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
  exit 0
fi
echo "The dashboard's browser tests need Chromium: install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
exit 1
