"""How many match, and whether more exist, as real STAC APIs answered (recorded sessions of Spacebel's EMC
collection search and Earth Search v1, tests/data/stac_corpus/SOURCES.md) replayed on loopback and asked
through the MCP tools: the API's numberMatched is what the analyst is told, not the size of the page back."""

from __future__ import annotations

import httpx
import pytest

from stacgis_agent.tools.server import build_server
from testkit.servers.faulty_stac import FaultyStac
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_replay import StacReplay, load_session

pytestmark = pytest.mark.server

EMC = "https://emc.spacebel.be"


@pytest.fixture
def emc(tmp_path, make_deps):
    """Spacebel EMC (collection search with free text, area and dates) as recorded, asked by the tools."""
    servers = []

    async def ask(session: str, **arguments):
        server = StacReplay(tmp_path, load_session("spacebel-emc-landing.json", session), origin=EMC).start()
        servers.append(server)
        async with httpx.AsyncClient(timeout=10) as http:
            client = OneShotClient(build_server(make_deps(http, {"emc": server.url})))
            result = await client.call_tool("search_collections", arguments)
        assert not result.is_error, result.content[0].text
        collection_requests = [p for m, path, p, _h in server.requests if path.rstrip("/") == "/collections"]
        return result, collection_requests

    yield ask
    for server in servers:
        server.stop()


async def test_free_text_collection_search_reports_what_the_api_counted(emc):
    result, asked = await emc("spacebel-emc-collections-q-sentinel.json", query="sentinel", limit=10)
    data = result.structured_content
    assert asked == [{"q": "sentinel", "limit": "10"}]  # the API's own search, one page
    assert len(data["collections"]) == 10 and data["matched"] == 216 and data["more_available"] is True
    assert "216 collection(s)" in result.content[0].text and "(10 listed)" in result.content[0].text


async def test_everything_matched_is_back_so_nothing_more_is_available(emc):
    result, _ = await emc("spacebel-emc-collections-q-phrase.json", query='"monthly cloudless mosaics"', limit=10)
    data = result.structured_content
    assert [c["id"] for c in data["collections"]] and len(data["collections"]) == 1
    assert data["matched"] == 1 and data["more_available"] is False
    [text] = data["catalog_text"]["collections"].values()
    assert "monthly cloudless mosaics" in str(text).lower()


async def test_an_area_goes_to_the_apis_collection_search_and_its_count_is_reported(emc):
    bbox = [-159.893, 21.843, -159.176, 22.266]  # Kauai
    result, asked = await emc("spacebel-emc-collections-bbox.json", bbox=bbox, limit=10)
    data = result.structured_content
    assert [float(v) for v in asked[0]["bbox"].split(",")] == bbox
    assert data["matched"] == 2365 and data["more_available"] is True and len(data["collections"]) == 10


async def test_item_search_reports_the_apis_count_not_the_page_back(tmp_path, make_deps):
    server = StacReplay(tmp_path, load_session("earth-search-v1-matched.json",
                                               "earth-search-v1-collection-cop-dem-glo-30.json")).start()
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            client = OneShotClient(build_server(make_deps(http, {"earth-search": server.url})))
            result = await client.call_tool("search_items", {"collections": ["cop-dem-glo-30"], "limit": 1})
    finally:
        server.stop()
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["returned"] == 1 and data["number_matched"] == 26450 and data["more_available"] is True
    assert "1 item(s) of 26450 matched" in result.content[0].text


async def test_an_api_that_counts_more_than_it_links_is_said_to_have_more(tmp_path, make_deps):
    server = FaultyStac(tmp_path).start()  # one scene back, numberMatched 5, no next link
    server.faults.claimed_matched = 5
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            client = OneShotClient(build_server(make_deps(http, {"faulty": server.url})))
            result = await client.call_tool("search_items", {"collections": ["scenes"], "limit": 10})
    finally:
        server.stop()
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["returned"] == 1 and data["number_matched"] == 5 and data["more_available"] is True
    assert "counted 5 matching items but gave no link" in data["notes"][0]
