"""A raster a tool wrote (detect_change's difference) goes on the map with a diverging ramp
centred on zero; files outside the tools' output folder are refused."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from qgis.core import QgsProject, QgsSingleBandPseudoColorRenderer

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.cogs import write_cog


@pytest.fixture
async def tools(qgis_iface, qgis_new_project, tmp_path):
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), deps
    QgsProject.instance().removeAllMapLayers()


async def test_difference_raster_gets_a_diverging_ramp_centred_on_zero(tools):
    client, deps = tools
    diff = np.linspace(-0.2, 0.5, 100 * 100, dtype="float32").reshape(100, 100)
    path = write_cog(deps.output_dir() / "change-demo-ndvi-1234.tif", diff, origin=(4.8, 45.78), pixel_size=0.0005)
    result = await client.call_tool("add_result_layer", {"path": str(path)})
    assert not result.is_error, result.content[0].text
    layers = list(QgsProject.instance().mapLayers().values())
    assert [lyr.name() for lyr in layers] == ["change-demo-ndvi-1234"]
    renderer = layers[0].renderer()
    assert isinstance(renderer, QgsSingleBandPseudoColorRenderer)
    low, high = renderer.classificationMin(), renderer.classificationMax()
    assert low == pytest.approx(-high) and high == pytest.approx(np.percentile(diff, 98), rel=0.02)
    # one undo step removes it again
    turn = deps.turn_history.undo_last_turn()
    assert turn is not None and QgsProject.instance().mapLayers() == {}


async def test_files_outside_the_tools_output_folder_are_refused(tools, tmp_path):
    client, _deps = tools
    outside = write_cog(tmp_path / "secret.tif", np.ones((10, 10), dtype="float32"), origin=(0, 1), pixel_size=0.1)
    result = await client.call_tool("add_result_layer", {"path": str(outside)})
    assert result.is_error and "only adds files that tools wrote" in result.content[0].text
    result = await client.call_tool("add_result_layer", {"path": "../secret.tif"})
    assert result.is_error and QgsProject.instance().mapLayers() == {}
