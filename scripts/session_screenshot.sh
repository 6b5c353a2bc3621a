#!/usr/bin/env bash
# docs/screenshot-session.png (and the dock alone, docs/screenshot-chat.png): a real session in QGIS under Xvfb on the shipped demo catalog, with the
# plugin's own runtime and tools and the model scripted by the Ollama emulator.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PROFILES="$REPO/.build/screenshot-profiles"
rm -rf "$PROFILES"
export STACGIS_DATA_DIR="$PROFILES/data" STACGIS_REPO="$REPO"
export STACGIS_QGIS_CODE="$REPO/docs/make_session_screenshot.py"
export STACGIS_SCREENSHOT="$REPO/docs/screenshot-session.png"
exec "$REPO/scripts/run_qgis.sh" "$PROFILES" 1
