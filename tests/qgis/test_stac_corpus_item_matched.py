"""Item search as Earth Search v1 answered it (recorded, tests/data/stac_corpus/SOURCES.md), replayed on loopback
and asked through the MCP tool where the analyst's selected point is: the API counted 2 items and sent both on
its first page with a next link all the same; the analyst is told 2 matched, nothing more is available, and no
further page is asked for."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer

from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_replay import StacReplay, load_session

POINT = (-105.1019, 40.1672)  # the point the session searched (near Boulder, Colorado)
SEARCH = {"collections": ["sentinel-2-l2a", "landsat-c2-l2"], "datetime": "2023-10-08", "use_selected_feature": True}


@pytest.fixture
def earth_search(tmp_path, qgis_iface, qgis_new_project):
    server = StacReplay(tmp_path, load_session(
        "earth-search-v1-matched.json", "earth-search-v1-collections-sentinel-2-l2a-landsat-c2-l2.json",
        "earth-search-v1-multiple-collections.json"), origin="https://earth-search.aws.element84.com/v1").start()
    layer = QgsVectorLayer("Point?crs=EPSG:4326", "site", "memory")
    feature = QgsFeature()
    feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(*POINT)))
    layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    layer.selectAll()
    yield server
    QgsProject.instance().removeAllMapLayers()
    server.stop()


async def _search(server, tmp_path, iface, **extra):
    async with httpx.AsyncClient(timeout=10) as http:
        client = OneShotClient(build_server(canvas_deps(http, server.url, str(tmp_path), iface)))
        result = await client.call_tool("search_items", {**SEARCH, **extra})
    assert not result.is_error, result.content[0].text
    return result


async def test_everything_matched_on_the_first_page_is_all_there_is(earth_search, tmp_path, qgis_iface):
    result = await _search(earth_search, tmp_path, qgis_iface)
    data = result.structured_content
    assert sorted(i["collection"] for i in data["items"]) == ["landsat-c2-l2", "sentinel-2-l2a"]
    assert data["number_matched"] == 2 and data["returned"] == 2 and data["more_available"] is False
    assert len(earth_search.searches()) == data["pages_fetched"] == 1  # the empty page after is not asked for
    assert "2 item(s) of 2 matched" in result.content[0].text and "more are available" not in result.content[0].text
