"""A static catalog on disk searched locally, and catalogs that are down, slow, failing or not JSON."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from stacgis_agent.tools.server import build_server
from testkit.servers.cog_server import CogServer
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_api import free_port
from testkit.worlds.stac_fixtures import DATES, MANY_ITEMS


@pytest.fixture
def static_client(static_catalog_path, make_deps):
    http = httpx.AsyncClient(timeout=5)
    return OneShotClient(build_server(make_deps(http, {"disk": str(static_catalog_path)})))


async def test_static_catalog_walks_collections_and_items(static_client):
    result = await static_client.call_tool("search_collections", {"query": "visual"})
    assert [c["id"] for c in result.structured_content["collections"]] == ["rgb-test"]
    result = await static_client.call_tool("search_items", {"collections": ["many-test"], "limit": 1000})
    assert result.structured_content["returned"] == result.structured_content["number_matched"] == MANY_ITEMS


async def test_static_catalog_filters_by_bbox_datetime_and_sorts(static_client):
    result = await static_client.call_tool("search_items", {
        "collections": ["dem-test"], "bbox": [5.1, 45.1, 5.2, 45.2], "datetime": "2024-06-05/..", "sortby": "-datetime"})
    assert [i["id"] for i in result.structured_content["items"]] == [f"dem-{d}" for d in reversed(DATES[1:])]
    result = await static_client.call_tool("search_items", {"collections": ["many-test"],
                                                            "bbox": [5.0, 45.0, 5.03, 45.03]})
    assert [i["id"] for i in result.structured_content["items"]] == ["tile-0000"]
    result = await static_client.call_tool("search_items", {"datetime": "2024-05-15/2024-05-16"})
    assert [i["id"] for i in result.structured_content["items"]] == ["rgb-1"]  # start/end_datetime only


async def test_static_catalog_refuses_cql2_and_unknown_collection(static_client):
    result = await static_client.call_tool("search_items", {"filter": {"op": "=", "args": [{"property": "x"}, 1]}})
    assert result.is_error and "cannot run CQL2" in result.content[0].text
    result = await static_client.call_tool("get_collection_info", {"collection": "nope"})
    assert result.is_error and "Known collections" in result.content[0].text


async def test_static_catalog_item_hrefs_resolve_to_gdal_paths(static_client, cog_server):
    result = await static_client.call_tool("get_item", {"collection": "dem-test", "item_id": f"dem-{DATES[0]}"})
    assert result.structured_content["assets"][0]["gdal_path"] == "/vsicurl/" + cog_server.href(f"dem-{DATES[0]}.tif")


async def _slow(request):
    await asyncio.sleep(3)
    return PlainTextResponse("{}")


@pytest.fixture(scope="module")
def bad_catalogs(tmp_path_factory):
    routes = [Route("/down5xx/{rest:path}", lambda r: PlainTextResponse("boom", status_code=503)),
              Route("/notjson/{rest:path}", lambda r: Response("<html>hello</html>", media_type="text/html")),
              Route("/slow/{rest:path}", _slow)]
    server = CogServer(tmp_path_factory.mktemp("bad"), routes=routes).start()
    yield server
    server.stop()


@pytest.mark.parametrize("path, expected", [
    ("down5xx", "HTTP 503"), ("notjson", "not JSON"), ("slow", "did not answer in time")])
async def test_misbehaving_catalog_gives_a_clear_error(bad_catalogs, make_deps, path, expected):
    http = httpx.AsyncClient(timeout=0.5)
    client = OneShotClient(build_server(make_deps(http, {"bad": f"{bad_catalogs.url}/{path}"})))
    result = await client.call_tool("search_collections", {})
    assert result.is_error and expected in result.content[0].text
    await http.aclose()


async def test_catalog_that_is_down_says_to_check_the_url(make_deps):
    http = httpx.AsyncClient(timeout=2)
    client = OneShotClient(build_server(make_deps(http, {"gone": f"http://127.0.0.1:{free_port()}"})))
    result = await client.call_tool("search_items", {"collections": ["x"]})
    assert result.is_error and "unreachable" in result.content[0].text and "settings" in result.content[0].text
    await http.aclose()


async def test_static_catalog_by_url_resolves_relative_links_over_http(cog_server, test_data, make_deps):
    from testkit.worlds.stac_fixtures import write_static_catalog

    write_static_catalog(cog_server.root / "static-web", test_data)
    http = httpx.AsyncClient(timeout=5)
    client = OneShotClient(build_server(make_deps(http, {"web": cog_server.href("static-web/catalog.json")})))
    result = await client.call_tool("search_items", {"collections": ["dem-test"], "datetime": "2024-06-21"})
    assert [i["id"] for i in result.structured_content["items"]] == [f"dem-{DATES[2]}"]
    item = await client.call_tool("get_item", {"collection": "dem-test", "item_id": f"dem-{DATES[2]}", "catalog": "web"})
    assert item.structured_content["assets"][0]["href"] == cog_server.href(f"dem-{DATES[2]}.tif")
    await http.aclose()
