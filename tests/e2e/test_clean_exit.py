"""QGIS exits cleanly after the plugin was loaded, used (a layer added by a tool) and unloaded: a whole
QGIS session run in its own process, so a crash at exit shows as its exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "testkit" / "qgis_drivers" / "clean_exit_session.py"


def test_qgis_exits_cleanly_after_the_plugin_was_used_and_unloaded():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("STACGIS_DATA_DIR", None)
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "CLEAN EXIT" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    assert "LAYERS ['demo-elevation demo-elevation-lyon']" in done.stdout, done.stdout
    for crash in ("double free", "Segmentation fault", "core dumped", "Traceback"):
        assert crash not in done.stderr, done.stderr[-3000:]
