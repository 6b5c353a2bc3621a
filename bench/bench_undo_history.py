"""The undo history's work on the GUI thread at the start and end of a turn: reading every layer's look
(its style as QML, digested, once, then again only for layers that changed) and the print layouts, on
projects of 10, 50 and 200 layers, next to what QGIS itself spends writing the same project to a .qgz
(the save an analyst already waits for), as a ratio of later turns to the save.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_undo_history.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from qgis.core import QgsApplication, QgsPrintLayout, QgsProject, QgsVectorLayer  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable


def _best(fn, runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def main() -> None:
    app = QgsApplication([], False)
    app.initQgis()
    from stacgis_agent.tools.canvas.undo.history import TurnHistory

    project = QgsProject.instance()
    folder = Path(tempfile.mkdtemp(prefix="bench-undo-"))
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName("A4")
    project.layoutManager().addLayout(layout)
    print(f"{'layers':>7} {'first turn ms':>14} {'later turns ms':>15} {'project save ms':>16} {'ratio':>6}")
    for count in (10, 50, 200):
        while len(project.mapLayers()) < count:
            n = len(project.mapLayers())
            project.addMapLayer(QgsVectorLayer("Polygon?crs=EPSG:4326&field=name:string", f"layer {n}", "memory"))
        history = TurnHistory()

        def turn(history=history) -> None:
            history.begin_turn("bench", "a turn that changes nothing")
            history.end_turn()

        first_ms = _best(turn, runs=1)  # every layer's look read once
        undo_ms = _best(turn)  # only layers that changed are read again
        save_ms = _best(lambda: project.write(str(folder / "bench.qgz")))
        print(f"{count:>7} {first_ms:>14.1f} {undo_ms:>15.1f} {save_ms:>16.1f} {undo_ms / save_ms:>6.2f}")
    project.clear()


if __name__ == "__main__":
    main()
