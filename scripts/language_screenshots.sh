#!/usr/bin/env bash
# docs/screenshots/dock-de.png and dock-fr.png: QGIS under Xvfb with its locale set to each language (as
# Settings ▸ Options ▸ General ▸ Override system locale does), a real session on the demo catalog in that
# language, the model scripted by the Ollama emulator. Usage: scripts/language_screenshots.sh [LANG...]
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
for lang in "${@:-de fr}"; do
  for code in $lang; do
    PROFILES="$REPO/.build/screenshot-profiles-$code"
    rm -rf "$PROFILES"
    mkdir -p "$PROFILES/profiles/default/QGIS"
    printf '[locale]\noverrideFlag=true\nuserLocale=%s\n\n' "$code" > "$PROFILES/profiles/default/QGIS/QGIS3.ini"
    STACGIS_DATA_DIR="$PROFILES/data" STACGIS_REPO="$REPO" STACGIS_SCREENSHOT_LANG="$code" \
      STACGIS_QGIS_CODE="$REPO/docs/make_language_screenshot.py" \
      STACGIS_SCREENSHOT="$REPO/docs/screenshots/dock-$code.png" \
      "$REPO/scripts/run_qgis.sh" "$PROFILES" 1
  done
done
