"""Published STAC items of several versions (0.8.1, 0.9.0, 1.1) as one static catalog on disk: an item with a
range and a datetime is found anywhere in its range and listed with it, and a STAC 0.8 item is read (its
bands put on its image) though the catalog holds no document for the collection it names."""

from __future__ import annotations

import httpx
import pytest

from stacgis_agent.tools.server import build_server
from testkit.servers.mcp_calls import OneShotClient
from testkit.worlds.stac_corpus import corpus_item, static_catalog

ITEMS = ("pystac-0.9.0-datetimerange.json", "pystac-0.8.1-digitalglobe-sample.json",
         "stac-spec-collectionless-item.json", "stac-spec-core-item.json")


@pytest.fixture
async def client(tmp_path, make_deps):
    catalog = static_catalog(tmp_path / "corpus", [corpus_item(name) for name in ITEMS])
    async with httpx.AsyncClient(timeout=5) as http:
        yield OneShotClient(build_server(make_deps(http, {"corpus": str(catalog)})))


async def test_an_item_with_a_range_and_a_datetime_is_found_inside_its_range_and_listed_with_it(client):
    # pystac's 0.9.0 example: datetime 13:21:30, start_datetime 13:21:30, end_datetime 13:31:30
    result = await client.call_tool("search_items", {"datetime": "2018-01-01T13:25:00Z/2018-01-01T13:26:00Z"})
    assert not result.is_error, result.content[0].text
    [found] = result.structured_content["items"]
    assert found["id"] == corpus_item(ITEMS[0])["id"]
    assert (found["start_datetime"], found["end_datetime"]) == ("2018-01-01T13:21:30Z", "2018-01-01T13:31:30Z")


async def test_a_stac_0_8_item_is_read_with_its_bands_on_its_image(client):
    published = corpus_item(ITEMS[1])
    result = await client.call_tool("get_item", {"collection": published["collection"], "item_id": published["id"]})
    assert not result.is_error, result.content[0].text
    detail = result.structured_content
    assert detail["stac_version"] == "0.8.1"
    [image] = [a for a in detail["assets"] if a["key"] == "multispectral_image"]
    assert [b["common_name"] for b in image["bands"]][:5] == ["coastal", "blue", "green", "yellow", "red"]

