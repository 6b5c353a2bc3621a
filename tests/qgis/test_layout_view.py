"""Issue 46.1, a layout page: get_layout_view renders a page of a real print layout and says what can be measured
without looking: a legend pushed past the page's edge, a legend whose frame is smaller than its content, a map item
that draws nothing of a layer. The picture goes only to a model that can see."""

from __future__ import annotations

import base64

import httpx
import pytest
from qgis.core import (
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsPrintLayout,
    QgsProject,
    QgsRectangle,
    QgsUnitTypes,
)
from qgis.PyQt.QtGui import QImage

from stacgis_agent.tools.server import build_server
from testkit.qgis_drivers.canvas_layers import city_layer
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient

MM = QgsUnitTypes.LayoutMillimeters


@pytest.fixture
async def page(qgis_iface, qgis_new_project, tmp_path):
    project = QgsProject.instance()
    cities = city_layer()
    project.addMapLayer(cities)
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()  # one A4 landscape page, 297 × 210 mm
    layout.setName("client page")
    world = QgsLayoutItemMap(layout)
    world.attemptMove(QgsLayoutPoint(10, 10, MM))
    world.attemptResize(QgsLayoutSize(180, 150, MM))
    world.setLayers([cities])
    world.setKeepLayerSet(True)
    world.setExtent(QgsRectangle(4.5, 44.8, 8.0, 46.5))
    layout.addLayoutItem(world)
    legend = QgsLayoutItemLegend(layout)
    legend.setLinkedMap(world)
    legend.setResizeToContents(False)
    layout.addLayoutItem(legend)
    legend.attemptResize(QgsLayoutSize(6, 4, MM))  # smaller than "cities" and its symbol
    legend.attemptMove(QgsLayoutPoint(292, 20, MM))  # 1 mm past the right edge
    project.layoutManager().addLayout(layout)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "out"), qgis_iface)
        yield deps, world
    project.removeAllMapLayers()


async def test_the_page_is_measured_and_a_model_that_cannot_see_gets_no_picture(page):
    deps, _world = page

    async def cannot_see() -> bool:
        return False

    deps.model_sees = cannot_see
    result = await OneShotClient(build_server(deps, canvas=True)).call_tool("get_layout_view", {"name": "client page"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["page_size_mm"] == [297.0, 210.0] and data["picture_for_model"] is False
    legend = next(row for row in data["items"] if row["type"] == "legend")
    assert legend["cut_by_page"] == {"right": 1.0} and legend["legend_cut"] is True
    assert legend["content_mm"][0] > 6 and legend["content_mm"][1] > 4
    world = next(row for row in data["items"] if row["type"] == "map")
    assert world["layers"][0]["name"] == "cities" and world["layers"][0]["paints"] > 0
    text = result.content[0].text
    assert "is cut by the page's edge (1.0 mm past the right)" in text and "the legend is cut" in text
    assert "No picture is attached" in text and all(part.type == "text" for part in result.content)
    assert QImage(data["png_file"]).width() == 768


async def test_a_model_that_can_see_gets_the_page_and_an_empty_map_item_is_said(page):
    deps, world = page
    world.setExtent(QgsRectangle(20.0, 60.0, 21.0, 61.0))  # no city there
    result = await OneShotClient(build_server(deps, canvas=True)).call_tool("get_layout_view",
                                                                            {"name": "client page", "width": 400})
    picture = QImage()
    assert picture.loadFromData(base64.b64decode(result.content[-1].data), "PNG")
    assert (picture.width(), picture.height()) == (400, round(400 * 210 / 297))
    assert "Map 'Map 1' draws nothing of 'cities'" in result.content[0].text
    missing = await OneShotClient(build_server(deps, canvas=True)).call_tool("get_layout_view", {"name": "other"})
    assert missing.is_error and "client page" in missing.content[0].text
