"""One geometry truth: a raster whose .aux.xml sidecar moves it is described by the tools where QGIS draws it.
A GeoTIFF carrying its own georeference (at 5° E, 46° N) beside an .aux.xml that puts it at 10° E, 50° N (GDAL's
PAM georeference comes first): QGIS draws it at 10° E; the tools read it there too."""

from __future__ import annotations

import numpy as np
import pytest
from qgis.core import QgsProject, QgsRasterLayer

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.cogs import write_cog

SIDECAR = """<PAMDataset><SRS dataAxisToSRSAxisMapping="2,1">EPSG:4326</SRS>
<GeoTransform>10.0, 0.01, 0.0, 50.0, 0.0, -0.01</GeoTransform></PAMDataset>"""


@pytest.fixture
def moved_raster(qgis_new_project, tmp_path):
    path = write_cog(tmp_path / "scan.tif", np.arange(100 * 100, dtype=np.float32).reshape(100, 100),
                     origin=(5.0, 46.0), pixel_size=0.01)
    (tmp_path / "scan.tif.aux.xml").write_text(SIDECAR)
    layer = QgsRasterLayer(str(path), "scan", "gdal")
    QgsProject.instance().addMapLayer(layer)
    deps = ToolDeps.from_settings(Settings(), project=QgsProject.instance, work_dir=str(tmp_path / "out"))
    yield OneShotClient(build_server(deps)), layer
    QgsProject.instance().removeAllMapLayers()


async def test_the_tools_describe_a_raster_where_qgis_draws_it(moved_raster):
    client, layer = moved_raster
    drawn = layer.extent()
    assert drawn.xMinimum() == pytest.approx(10.0)  # QGIS honours the sidecar
    info = await client.call_tool("get_raster_info", {"source": "scan"})
    assert info.structured_content["bounds_lonlat"] == pytest.approx(
        [drawn.xMinimum(), drawn.yMinimum(), drawn.xMaximum(), drawn.yMaximum()], abs=1e-9)
    centre = drawn.center()
    value = await client.call_tool("query_raster_point", {"source": "scan", "x": centre.x(), "y": centre.y()})
    assert not value.is_error, value.content[0].text  # before: "The point is outside the raster"
    assert value.structured_content["values"][0]["value"] == 50 * 100 + 50
