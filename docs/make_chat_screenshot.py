"""Renders docs/screenshot-chat.png: a realistic turn through the real AgentLoop, offscreen.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_chat_screenshot.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import conftest  # noqa: E402,F401  (makes stacgis_agent and testkit importable)

ANSWER = """### Mean NDVI, parcel 42 (June 2023)

| date | cloud % | mean NDVI |
|---|---|---|
| 2023-06-04 | 3 | 0.71 |
| 2023-06-19 | 8 | 0.66 |

The parcel is **densely vegetated**; the small drop on 19 June matches the hay cut.
Layer *S2B 2023-06-04 NDVI* is on the map, styled from brown to green.
"""


async def scenario(panel, emu, Turn) -> None:
    emu.script(
        Turn(thinking="The user wants Sentinel-2 over the selected parcel in June. Search first.",
             tool_calls=[("search_items", {"collection": "sentinel-2-l2a", "bbox": [4.80, 45.72, 4.86, 45.77],
                                           "datetime": "2023-06-01/2023-06-30"})]),
        Turn(thinking="Two clear scenes. Load the best one and compute NDVI statistics.",
             tool_calls=[("load_item", {"item_id": "S2B_31TFL_20230604", "asset": "ndvi"})]),
        Turn(tool_calls=[("raster_stats", {"layer": "S2B_31TFL_20230604:ndvi", "band": 1})]),
        Turn(content=ANSWER, prompt_eval_count=3120, eval_count=142, eval_duration_ns=3_100_000_000),
    )
    panel.input.setPlainText("Show me Sentinel-2 over the selected parcel last June and compute mean NDVI")
    panel.input.submit()
    while panel.session.busy:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)


def main() -> int:
    import qasync
    from qgis.core import QgsApplication

    app = QgsApplication([], True)
    app.initQgis()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    from stacgis_agent.agent.map_context import LayerInfo, MapContext
    from stacgis_agent.ui.chat_panel import ChatPanel
    from stacgis_agent.ui.chat_session import ChatSession
    from testkit.agent_harness import Harness
    from testkit.ollama_emulator import OllamaEmulator, Turn

    context = MapContext(extent=(842000.0, 6515000.0, 846000.0, 6519000.0), crs="EPSG:2154",
                         center_lonlat=(4.83, 45.75), scale=25000, active_layer="parcels",
                         selected_features={"type": "FeatureCollection", "features": [{"id": 42}]},
                         layers=(LayerInfo("parcels", "vector", geometry="Polygon"),))
    with OllamaEmulator() as emu:
        harness = Harness(emu)
        session = ChatSession(lambda sid: harness.make_loop(session_id=sid), context_source=lambda: context)
        panel = ChatPanel(session)
        panel.resize(560, 980)
        panel.show()
        panel.refresh_map_context()
        loop.run_until_complete(scenario(panel, emu, Turn))
        panel.feed.topLevelItem(1).setExpanded(True)  # the arguments of the first call
        app.processEvents()
        target = ROOT / "docs" / "screenshot-chat.png"
        panel.grab().save(str(target))
        print(f"saved {target}")
        loop.run_until_complete(session.close_agent())
        loop.run_until_complete(harness.aclose())
    return 0


if __name__ == "__main__":
    sys.exit(main())
