#!/usr/bin/env bash
# What the tests need beyond npm packages, from Debian: Chromium for the dashboard's browser tests
# (playwright-core cannot download its own browser here) and poppler-utils (`pdftotext`, `pdffonts`)
# to read the invoice and quote PDFs back. Installs what is missing with apt-get when this runs as
# root; otherwise says what to do. CHROMIUM_PATH names another Chromium binary.
set -euo pipefail

missing=()
has_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then return 0; fi
  for bin in chromium chromium-browser google-chrome; do
    if command -v "$bin" >/dev/null 2>&1; then return 0; fi
  done
  return 1
}
has_chromium || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 && command -v pdffonts >/dev/null 2>&1 || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing what the tests need: ${missing[*]} (apt-get install)" >&2
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1) ||
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null)
  exit 0
fi
echo "The tests need ${missing[*]}: install them (sudo apt-get install ${missing[*]}) or set CHROMIUM_PATH." >&2
exit 1
