"""The STAC tools against a real stac-fastapi-pgstac loaded with test collections and items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_fixtures import DATES, MANY_ITEMS

pytestmark = pytest.mark.server


@pytest.fixture
def client(stac_api, wire_log, make_deps):
    http, _sent = wire_log
    return OneShotClient(build_server(make_deps(http, {"local": stac_api.url})))


async def test_search_pages_through_every_item_exactly_once_fetching_each_page_once(client, wire_log):
    _http, sent = wire_log
    result = await client.call_tool("search_items", {"collections": ["many-test"], "limit": 1000})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["number_matched"] == MANY_ITEMS
    assert data["returned"] == MANY_ITEMS
    saved = json.loads(Path(data["item_collection_file"]).read_text())
    ids = [f["id"] for f in saved["features"]]
    assert sorted(ids) == [f"tile-{i:04d}" for i in range(MANY_ITEMS)]  # each exactly once
    searches = [(m, u, b) for m, u, b in sent if "/search" in u]
    assert len(searches) == data["pages_fetched"] == 2  # 100 per page: linear, no page fetched twice
    assert len({(u, b) for _m, u, b in searches}) == len(searches)
    assert len(data["items"]) == 50 and data["left_out"] == MANY_ITEMS - 50  # the model sees a capped list


async def test_search_stops_at_the_limit_without_fetching_more_pages(client, wire_log):
    _http, sent = wire_log
    result = await client.call_tool("search_items", {"collections": ["many-test"], "limit": 7})
    data = result.structured_content
    assert data["returned"] == 7 and data["more_available"] is True and data["number_matched"] == MANY_ITEMS
    assert sum("/search" in u for _m, u, _b in sent) == 1
    assert json.loads(sent[-1][2])["limit"] == 7


async def test_search_by_bbox_and_open_ended_datetime(client):
    result = await client.call_tool("search_items", {"collections": ["dem-test"], "bbox": [5.1, 45.1, 5.2, 45.2],
                                                     "datetime": "2024-06-05/.."})
    ids = sorted(i["id"] for i in result.structured_content["items"])
    assert ids == [f"dem-{d}" for d in DATES[1:]]
    result = await client.call_tool("search_items", {"collections": ["dem-test"], "datetime": "../2024-06-01"})
    assert [i["id"] for i in result.structured_content["items"]] == ["dem-2024-06-01"]
    result = await client.call_tool("search_items", {"collections": ["many-test"], "bbox": [5.0, 45.0, 5.03, 45.03],
                                                     "limit": 100})
    assert [i["id"] for i in result.structured_content["items"]] == ["tile-0000"]


async def test_items_with_only_start_and_end_datetime_are_found(client):
    result = await client.call_tool("search_items", {"collections": ["rgb-test"], "datetime": "2024-05-10"})
    items = result.structured_content["items"]
    assert [i["id"] for i in items] == ["rgb-1"]
    assert items[0]["start_datetime"] == "2024-05-01T00:00:00Z"


async def test_cql2_filter_on_a_queryable_and_sortby(client, wire_log):
    _http, sent = wire_log
    result = await client.call_tool("search_items", {
        "collections": ["dem-test"], "sortby": "-datetime",
        "filter": {"op": "<=", "args": [{"property": "eo:cloud_cover"}, 10]}})
    assert not result.is_error, result.content[0].text
    assert [i["id"] for i in result.structured_content["items"]] == ["dem-2024-06-11", "dem-2024-06-01"]
    body = json.loads([b for _m, u, b in sent if u.endswith("/search")][-1])
    assert body["filter-lang"] == "cql2-json" and body["sortby"] == [{"field": "datetime", "direction": "desc"}]


async def test_a_filter_on_an_unlisted_property_reaches_an_api_whose_queryables_allow_any(client, wire_log):
    _http, sent = wire_log  # pgstac's queryables say additionalProperties: true
    result = await client.call_tool("search_items", {
        "collections": ["dem-test"], "filter": {"op": "=", "args": [{"property": "platform"}, "x"]}})
    assert not result.is_error, result.content[0].text
    assert result.structured_content["returned"] == 0
    [body] = [json.loads(b) for _m, u, b in sent if u.endswith("/search")]
    assert body["filter"] == {"op": "=", "args": [{"property": "platform"}, "x"]}


async def test_unknown_collection_and_invalid_bbox_are_clear_errors(client):
    result = await client.call_tool("search_items", {"collections": ["nope"]})
    assert result.is_error and "'nope' is not in catalog 'local'" in result.content[0].text
    assert "dem-test" in result.content[0].text
    result = await client.call_tool("search_items", {"bbox": [5, 46, 6, 45]})
    assert result.is_error and "south" in result.content[0].text
    result = await client.call_tool("search_items", {"bbox": [500, 0, 501, 1]})
    assert result.is_error and "out of range" in result.content[0].text
    result = await client.call_tool("search_items", {"datetime": "2024-06-30/2024-06-01"})
    assert result.is_error and "swap" in result.content[0].text


async def test_collections_search_and_info(client):
    result = await client.call_tool("search_collections", {"query": "elevation"})
    assert [c["id"] for c in result.structured_content["collections"]] == ["dem-test"]
    result = await client.call_tool("search_collections", {"datetime": "2023-03-01/2023-04-01"})
    assert [c["id"] for c in result.structured_content["collections"]] == ["many-test"]
    result = await client.call_tool("search_collections", {"bbox": [5.5, 45.2, 5.6, 45.3]})
    assert sorted(c["id"] for c in result.structured_content["collections"]) == ["dem-test", "many-test", "rgb-test"]
    info = (await client.call_tool("get_collection_info", {"collection": "rgb-test"})).structured_content
    assert info["license"] == "proprietary"
    assert [b["common_name"] for b in info["item_assets"][0]["bands"]] == ["red", "green", "blue"]
    info = (await client.call_tool("get_collection_info", {"collection": "dem-test"})).structured_content
    assert info["item_assets"][0]["bands"][0] == {"name": "elevation", "nodata": -9999.0, "scale": 0.5,
                                                  "offset": 10.0, "data_type": "float32"}


async def test_get_item_lists_assets_with_gdal_paths_and_guessed_types(client, cog_server):
    result = await client.call_tool("get_item", {"collection": "rgb-test", "item_id": "rgb-1"})
    assets = {a["key"]: a for a in result.structured_content["assets"]}
    assert assets["visual"]["gdal_path"] == "/vsicurl/" + cog_server.href("rgb.tif")
    assert assets["visual"]["type"].startswith("image/tiff")  # guessed from the extension
    assert [b["common_name"] for b in assets["visual"]["bands"]] == ["red", "green", "blue"]
    result = await client.call_tool("get_item", {"collection": "rgb-test", "item_id": "nope"})
    assert result.is_error and "search_items" in result.content[0].text


async def test_list_catalogs_reports_filter_and_sort_support(client):
    result = await client.call_tool("list_catalogs", {})
    assert result.structured_content["catalogs"][0] == {"name": "local", "kind": "api",
                                                       "url": result.structured_content["catalogs"][0]["url"],
                                                       "access": "Public (no credentials)",
                                                       "source": "plugin settings", "filter": True, "sort": True}
