#!/usr/bin/env bash
# Starts QGIS with an isolated profile in which the plugin is linked and enabled.
# Usage: scripts/run_qgis.sh PROFILES_DIR [HEADLESS]
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PROFILES="$1"
HEADLESS="${2:-}"
PROFILE="$PROFILES/profiles/default"
mkdir -p "$PROFILE/python/plugins" "$PROFILE/QGIS"
ln -sfn "$REPO" "$PROFILE/python/plugins/stacgis_agent"
INI="$PROFILE/QGIS/QGIS3.ini"
if ! grep -q "^stacgis_agent=true" "$INI" 2>/dev/null; then
  cat >> "$INI" <<'INI'
[PythonPlugins]
stacgis_agent=true

[qgis]
checkVersion=false
showTips322=false
INI
fi
# QGIS embeds Debian's Python: let it see the requirements installed in .venv.
SITE="$("$REPO/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
ARGS=(--profiles-path "$PROFILES" --profile default --noversioncheck)

if [ -n "$HEADLESS" ]; then
  # The committed docs/screenshot-dock.png changes only when asked: SCREENSHOT=docs/screenshot-dock.png
  export STACGIS_SCREENSHOT="${STACGIS_SCREENSHOT:-$REPO/.build/screenshot-dock.png}"
  mkdir -p "$(dirname "$STACGIS_SCREENSHOT")"
  export STACGIS_QUIT_AFTER_SCREENSHOT=1
  echo "Starting QGIS under Xvfb; the screenshot goes to $STACGIS_SCREENSHOT"
  CODE="${STACGIS_QGIS_CODE:-$REPO/scripts/screenshot.py}"  # what QGIS runs once started
  exec timeout 180 xvfb-run -a -s "-screen 0 ${STACGIS_XVFB_SCREEN:-1600x1000x24}" qgis "${ARGS[@]}" --code "$CODE"
fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found. Run QGIS with a screen (DISPLAY set), or headless with a screenshot:" >&2
  echo "    make run HEADLESS=1" >&2
  exit 2
fi
exec qgis "${ARGS[@]}"
