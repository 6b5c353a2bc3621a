#!/usr/bin/env bash
# docs/screenshots/dock-<lang>.png (430 px), -320.png and -320-error.png (a narrow dock, then a turn that goes
# wrong) and -320-hidpi.png (QT_SCALE_FACTOR=2): QGIS under Xvfb with its locale set to each language (as
# Settings ▸ Options ▸ General ▸ Override system locale does), a real session on the demo catalog in that
# language, the model scripted by the Ollama emulator (docs/make_language_screenshot.py).
# Usage: scripts/language_screenshots.sh [LANG...]     HIDPI=0 skips the HiDPI run
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
shoot() {  # shoot CODE OUTPUT [VAR=VALUE...]: one QGIS run
  local code="$1" out="$2"
  shift 2
  PROFILES="$REPO/.build/screenshot-profiles-$code"
  rm -rf "$PROFILES"
  mkdir -p "$PROFILES/profiles/default/QGIS"
  printf '[locale]\noverrideFlag=true\nuserLocale=%s\n\n' "$code" > "$PROFILES/profiles/default/QGIS/QGIS3.ini"
  env "$@" STACGIS_DATA_DIR="$PROFILES/data" STACGIS_REPO="$REPO" STACGIS_SCREENSHOT_LANG="$code" \
    STACGIS_QGIS_CODE="$REPO/docs/make_language_screenshot.py" STACGIS_SCREENSHOT="$out" \
    "$REPO/scripts/run_qgis.sh" "$PROFILES" 1
}
for lang in "${@:-de fr}"; do
  for code in $lang; do
    shoot "$code" "$REPO/docs/screenshots/dock-$code.png"
    if [ "${HIDPI:-1}" = 1 ]; then  # a screen twice as dense: 1200 x 900 logical pixels, the dock at 320
      shoot "$code" "$REPO/docs/screenshots/dock-$code-320-hidpi.png" QT_SCALE_FACTOR=2 STACGIS_DOCK_WIDTH=320 \
        STACGIS_SCREENSHOT_NARROW=0 STACGIS_XVFB_SCREEN=2400x1800x24
    fi
  done
done
