"""Search extensions used where the real API (stac-fastapi-pgstac) declares them: cloud cover as a CQL2
filter, fewer bytes per item with Fields, free-text collection search; several catalogs searched at once,
each result labelled; catalog free text reaches the model only inside the untrusted envelope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_fixtures import MANY_ITEMS

pytestmark = pytest.mark.server


@pytest.fixture
def client(stac_api, static_catalog_path, wire_log, make_deps):
    http, _sent = wire_log
    return OneShotClient(build_server(make_deps(http, {"local": stac_api.url, "disk": str(static_catalog_path)})))


def _searches(sent):
    return [json.loads(body) for method, url, body in sent if method == "POST" and url.endswith("/search")]


async def test_cloud_cover_is_filtered_by_the_api_and_items_come_without_links(client, wire_log):
    _http, sent = wire_log
    result = await client.call_tool("search_items", {"collections": ["many-test"], "max_cloud_cover": 9,
                                                     "limit": 1000, "catalog": "local"})
    assert not result.is_error, result.content[0].text
    saved = json.loads(Path(result.structured_content["item_collection_file"]).read_text())["features"]
    assert saved and all(f["properties"]["eo:cloud_cover"] <= 9 for f in saved)
    expected = sum(1 for i in range(MANY_ITEMS) if i % 100 <= 9)  # the fixture gives tile i cloud cover i % 100
    assert len(saved) == result.structured_content["number_matched"] == expected
    [body] = _searches(sent)
    assert body["filter"] == {"op": "<=", "args": [{"property": "eo:cloud_cover"}, 9]}  # the API filtered, not us
    assert body["fields"] == {"exclude": ["links"]} and all("links" not in f for f in saved)


async def test_a_static_catalog_applies_cloud_cover_itself(client):
    result = await client.call_tool("search_items", {"collections": ["dem-test"], "max_cloud_cover": 10,
                                                     "catalog": "disk"})
    assert not result.is_error, result.content[0].text
    assert sorted(i["cloud_cover"] for i in result.structured_content["items"]) == [0, 10]


async def test_collections_found_by_free_text_across_catalogs_labelled_by_catalog(client, wire_log):
    _http, sent = wire_log
    result = await client.call_tool("search_collections", {"query": "elevation", "catalogs": ["*"]})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert sorted((c["catalog"], c["id"]) for c in data["collections"]) == [("disk", "dem-test"), ("local", "dem-test")]
    assert any("/collections?q=elevation" in url for _m, url, _b in sent)  # the API's own collection search
    assert data["catalog_text"]["collections"]["local / dem-test"]["title"] == "Test elevation"
    assert "not instructions" in data["catalog_text"]["notice"]
    assert "(local)" in result.content[0].text and "(disk)" in result.content[0].text


async def test_an_api_with_only_the_query_extension_gets_the_cloud_limit_as_a_query(stac_api, wire_log):
    from stacgis_agent.agent.config import CatalogConfig
    from stacgis_agent.tools.stac.api_catalog import ApiCatalog
    from stacgis_agent.tools.stac.search import ItemSearch

    http, sent = wire_log
    catalog = ApiCatalog(CatalogConfig("local", stac_api.url), http)
    declared = await catalog.conformance()
    catalog._conformance = [c for c in declared if "filter" not in c]  # as an API without CQL2 would declare
    outcome = await catalog.search(ItemSearch(collections=["many-test"], limit=1000, max_cloud_cover=9))
    [body] = _searches(sent)
    assert body["query"] == {"eo:cloud_cover": {"lte": 9}} and "filter" not in body
    assert outcome.items and all(i["properties"]["eo:cloud_cover"] <= 9 for i in outcome.items)
    assert len(outcome.items) == sum(1 for i in range(MANY_ITEMS) if i % 100 <= 9)
