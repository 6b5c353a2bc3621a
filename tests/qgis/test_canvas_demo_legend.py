"""The shipped demo catalog, loaded as an analyst would: the legend names each band as the catalog
does ("ndvi", "elevation", "red"), never "Band 1 (Gray)"."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsProject, QgsRasterLayer

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


@pytest.mark.parametrize(("collection", "item", "words"), [
    ("demo-ndvi", "demo-ndvi-2025-06-15", ["ndvi"]),  # named in raster:bands only
    ("demo-elevation", "demo-elevation-lyon", ["elevation"]),
    ("demo-rgb", "demo-rgb-2025-06-15", ["red", "green", "blue"]),
])
async def test_demo_layers_legend_says_what_each_band_is(qgis_iface, qgis_new_project, tmp_path,
                                                         collection, item, words):
    async with httpx.AsyncClient() as http:
        client = OneShotClient(build_server(canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface),
                                            canvas=True))
        result = await client.call_tool("load_stac_asset", {"collection": collection, "item_id": item})
    assert not result.is_error, result.content[0].text
    [layer] = [lyr for lyr in QgsProject.instance().mapLayers().values() if isinstance(lyr, QgsRasterLayer)]
    names = [layer.bandName(i + 1).lower() for i in range(layer.bandCount())]
    assert all(word in name for word, name in zip(words, names)) and len(names) == len(words), names
    assert not any("gray" in name for name in names), names
    QgsProject.instance().removeAllMapLayers()
