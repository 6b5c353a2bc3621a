#!/usr/bin/env bash
# Prints the Debian packages the real-server tests need, for this release's default PostgreSQL:
# postgresql-N-postgis-3 (the STAC API) and postgresql-N-pgvector where the release has it
# (trixie, sid; bookworm has none and the tests use the pgserver wheel instead). Fails when this release's apt
# has no chromium, the browser the session report's security test needs (bookworm, trixie and sid have it).
set -euo pipefail
default_major() {
  apt-cache depends postgresql 2>/dev/null | sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | head -1
}
major=$(default_major)
if [ -z "$major" ] && [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq >/dev/null 2>&1 || true
  major=$(default_major)
fi
if [ -z "$major" ]; then
  echo "test_packages: apt knows no 'postgresql' package; run apt-get update" >&2
  exit 1
fi
packages=(redis-server postgresql "postgresql-$major-postgis-3" poppler-utils ffmpeg espeak-ng python3-pyqt5.qtmultimedia
          chromium)
# poppler: the print-layout tests read their PDFs; ffmpeg: the MP4 animation test; espeak-ng speaks the
# voice-input tests' requests into the Speak button's capture path, which uses Qt Multimedia; Chromium (headless)
# is the browser tests/security/test_report_html_browser.py opens the session report in (QtWebKit is bookworm only)
if ! apt-cache show chromium >/dev/null 2>&1; then
  echo "test_packages: this release's apt has no 'chromium' (the session report's browser test needs it)" >&2
  exit 1
fi
if apt-cache show "postgresql-$major-pgvector" >/dev/null 2>&1; then
  packages+=("postgresql-$major-pgvector")
fi
echo "${packages[@]}"
