"""Run inside QGIS (`scripts/session_screenshot.sh`): a real session on the shipped demo catalog
— the plugin's own runtime, tools and canvas, with the model scripted by the Ollama emulator —
then screenshots of the whole QGIS window (docs/screenshot-session.png) and of the dock alone
(docs/screenshot-chat.png), and QGIS quits."""

import asyncio
import os
import sys
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QTimer
from qgis.utils import iface, plugins

ROOT = Path(os.environ["STACGIS_REPO"])  # QGIS runs this file with exec(): no __file__
sys.path.insert(0, str(ROOT / "tests"))
from testkit.llm.ollama_emulator import OllamaEmulator, Turn  # noqa: E402

OUT = Path(os.environ.get("STACGIS_SCREENSHOT", ROOT / "docs" / "screenshot-session.png"))
QUESTION = "Show me the NDVI of June around the centre of the map and give me its mean"
ANSWER = """### NDVI around Lyon, 15 June 2025

| statistic | value |
|---|---|
| mean | {mean:.2f} |
| min / max | {min:.2f} / {max:.2f} |
| valid pixels | {count:,} |

The layer **demo-ndvi demo-ndvi-2025-06-15** is on the map with a diverging ramp: the fields are
green, the river is orange (negative NDVI). Ask me to compare with September to see the harvest.
"""

emulator = OllamaEmulator().start()


async def session() -> None:
    runtime = plugins["stacgis_agent"].runtime
    os.environ["STACGIS_OLLAMA_URL"] = emulator.url
    await runtime.restart()
    from osgeo import gdal

    tif = ROOT / "resources/demo_catalog/collections/demo-ndvi/items/demo-ndvi-2025-06-15.tif"
    dataset = gdal.Open(str(tif))  # kept: a band outlives its dataset only as a dangling pointer
    band = dataset.GetRasterBand(1)
    raw = band.ReadAsArray().astype("float64")
    valid = raw[raw != band.GetNoDataValue()] * band.GetScale()
    emulator.script(
        Turn(thinking="The user wants the June NDVI near the map centre. Search the demo NDVI collection.",
             tool_calls=[("search_items", {"collections": ["demo-ndvi"], "datetime": "2025-06-01/2025-06-30",
                                           "bbox": [4.82, 45.75, 4.85, 45.77]})]),
        Turn(thinking="One item on 15 June. Put its NDVI asset on the map.",
             tool_calls=[("load_stac_asset", {"collection": "demo-ndvi", "item_id": "demo-ndvi-2025-06-15"})]),
        Turn(tool_calls=[("get_raster_statistics", {"source": "demo-ndvi demo-ndvi-2025-06-15", "exact": True})]),
        Turn(content=ANSWER.format(mean=valid.mean(), min=valid.min(), max=valid.max(), count=valid.size),
             prompt_eval_count=4210, eval_count=118, eval_duration_ns=2_400_000_000),
    )
    panel = runtime.panel
    panel.input.setPlainText(QUESTION)
    panel.input.submit()
    await asyncio.sleep(0.2)
    while panel.session.busy:
        await asyncio.sleep(0.05)
    iface.mapCanvas().refreshAllLayers()
    await asyncio.sleep(2.0)


def shoot() -> None:
    window = iface.mainWindow()
    ok = window.grab().save(str(OUT))
    print(f"screenshot {'saved to' if ok else 'FAILED:'} {OUT}", flush=True)
    dock_png = OUT.with_name("screenshot-chat.png")  # the same session, the dock alone, for the README
    ok = plugins["stacgis_agent"].dock.grab().save(str(dock_png))
    print(f"screenshot {'saved to' if ok else 'FAILED:'} {dock_png}", flush=True)
    emulator.stop()
    QTimer.singleShot(200, QgsApplication.instance().quit)


def start() -> None:
    task = asyncio.ensure_future(session())
    task.add_done_callback(lambda t: (t.exception() and print("session failed:", repr(t.exception()), flush=True),
                                      QTimer.singleShot(500, shoot)))


iface.mainWindow().resize(1600, 1000)
iface.mainWindow().showMaximized()
QTimer.singleShot(4000, start)
