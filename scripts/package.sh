#!/usr/bin/env bash
# Builds the zip the QGIS plugin repository accepts: one top folder named stacgis_agent with
# the plugin's own files only (no tests, benchmarks, build or CI files), and the user guide its Help shows
# (docs/guide and the pictures the guide shows: scripts/guide_links.py --package).
# Usage: scripts/package.sh [OUTPUT_DIR]; RELEASE=1 first refuses placeholder release values in metadata.txt
# (email, tracker, repository, homepage: scripts/release_check.py).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${RELEASE:-}" ]; then
  /usr/bin/python3 "$REPO/scripts/release_check.py" "$REPO/metadata.txt" >&2
fi
OUT="$(mkdir -p "${1:-$REPO/dist}" && cd "${1:-$REPO/dist}" && pwd)"
VERSION="$(sed -n 's/^version=//p' "$REPO/metadata.txt")"
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/stacgis_agent"
cd "$REPO"
{ git ls-files --cached --others --exclude-standard -z \
    | grep -zvE '^(tests|bench|scripts|docs|\.ci|\.github)/|^(Makefile|pyproject\.toml|requirements-(dev|qt6)\.txt|\.gitignore)$|__pycache__|\.pyc$'
  /usr/bin/python3 scripts/guide_links.py --package | tr '\n' '\0'; } \
  | while IFS= read -r -d '' f; do
      [ -f "$f" ] || continue
      mkdir -p "$STAGE/stacgis_agent/$(dirname "$f")"
      cp "$f" "$STAGE/stacgis_agent/$f"
    done
ZIP="$OUT/stacgis_agent-$VERSION.zip"
rm -f "$ZIP"
(cd "$STAGE" && /usr/bin/python3 -m zipfile -c "$ZIP" stacgis_agent)
echo "$ZIP"
