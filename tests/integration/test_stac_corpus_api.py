"""Recorded sessions of real STAC APIs (Planetary Computer, Earth Search v1; tests/data/stac_corpus/SOURCES.md)
replayed on loopback: item search by GET where POST is not offered or refused, next links that page by a
header, a stop in paging that is said, and a cloud limit the collection cannot filter applied here."""

from __future__ import annotations

import httpx
import pytest

from stacgis_agent.agent.config import CatalogConfig
from stacgis_agent.tools.server import build_server
from stacgis_agent.tools.stac import api_catalog
from stacgis_agent.tools.stac.api_catalog import ApiCatalog
from stacgis_agent.tools.stac.search import ItemSearch
from testkit.servers.mcp_calls import OneShotClient
from testkit.servers.stac_replay import StacReplay, load_session

pytestmark = pytest.mark.server

PC = "https://planetarycomputer.microsoft.com/api/stac/v1"
NAIP_VERMONT = dict(collections=["naip"], bbox=[-73.21, 43.99, -73.12, 44.05])


@pytest.fixture
def replay(tmp_path):
    started = []

    def start(*sessions: str, **switches) -> StacReplay:
        server = StacReplay(tmp_path, load_session(*sessions), **switches).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def recorded_page_size(monkeypatch):
    """The Planetary Computer session was recorded with pages of 10 items: ask for pages of that size."""
    monkeypatch.setattr(api_catalog, "PAGE_SIZE", 10)


def _naip(replay, **switches) -> StacReplay:
    return replay("planetary-computer-landing.json", "planetary-computer-naip-paging.json", origin=PC, **switches)


async def _search(server: StacReplay, limit: int = 20):
    async with httpx.AsyncClient(timeout=10) as http:
        catalog = ApiCatalog(CatalogConfig("pc", server.url), http)
        return await catalog.search(ItemSearch(**NAIP_VERMONT, limit=limit))


async def test_an_api_that_offers_only_get_search_is_searched_with_get_and_paged(replay, recorded_page_size):
    server = _naip(replay, post=False)
    outcome = await _search(server)
    assert len({i["id"] for i in outcome.items}) == 20 and outcome.pages_fetched == 2
    assert {method for method, _params, _headers in server.searches()} == {"GET"}


async def test_a_post_search_answered_405_is_sent_again_as_get(replay, recorded_page_size):
    server = _naip(replay, refuse_post=True)
    outcome = await _search(server)
    assert len({i["id"] for i in outcome.items}) == 20
    methods = [method for method, _params, _headers in server.searches()]
    assert methods[0] == "POST" and set(methods[1:]) == {"GET"}


async def test_a_next_link_that_differs_only_by_a_header_is_followed(replay, recorded_page_size):
    server = _naip(replay, token_in_header="X-Page-Token")
    outcome = await _search(server)
    assert len({i["id"] for i in outcome.items}) == 20 and outcome.pages_fetched == 2
    second = server.searches()[1]
    assert second[2]["x-page-token"].startswith("next:") and "token" not in second[1]


async def test_a_stop_in_paging_is_said_and_keeps_the_pages_before(replay, recorded_page_size):
    server = _naip(replay)  # the third page was never recorded: the replay answers it 404
    outcome = await _search(server, limit=30)
    assert len(outcome.items) == 20 and outcome.more_available is True
    assert outcome.notes and "Paging stopped after page 2" in outcome.notes[0]


async def test_a_cloud_limit_the_collection_cannot_filter_is_applied_here_and_said(replay, make_deps):
    server = replay("earth-search-v1-matched.json", "earth-search-v1-collection-cop-dem-glo-30.json")
    async with httpx.AsyncClient(timeout=10) as http:
        client = OneShotClient(build_server(make_deps(http, {"earth-search": server.url})))
        result = await client.call_tool("search_items", {"collections": ["cop-dem-glo-30"], "limit": 1,
                                                         "max_cloud_cover": 10})
    assert not result.is_error, result.content[0].text
    [(method, body, _headers)] = server.searches()
    assert method == "POST" and "query" not in body and "filter" not in body  # not queryable: not sent
    data = result.structured_content
    assert data["returned"] == 1 and "applied here" in data["notes"][0]
    assert "applied here" in result.content[0].text


async def test_a_cloud_limit_is_sent_to_an_api_that_declares_the_extension_but_serves_no_queryables(replay):
    """Earth Search's landing page declares the Query extension; its queryables were never served (a SHOULD).
    eo:cloud_cover is standard: the limit is asked of the API, so one page holds ten clear scenes, where filtering
    the unfiltered pages here could keep only some of each page and come back short."""
    server = replay("earth-search-v1-filter.json")
    async with httpx.AsyncClient(timeout=10) as http:
        catalog = ApiCatalog(CatalogConfig("earth-search", server.url), http)
        outcome = await catalog.search(ItemSearch(limit=10, max_cloud_cover=40))
    method, body, _headers = server.searches()[0]
    assert method == "POST" and body.get("query") == {"eo:cloud_cover": {"lte": 40}}
    assert len(outcome.items) == 10 and outcome.pages_fetched == 1 and not outcome.notes
    assert outcome.number_matched == 115912757  # the API's count of the clear scenes, not hidden by a local filter


async def test_a_cloud_limit_the_api_refuses_is_applied_here_and_said(replay, recorded_page_size):
    server = _naip(replay, refuse_filters=True)  # the landing page declares the Filter extension
    async with httpx.AsyncClient(timeout=10) as http:
        catalog = ApiCatalog(CatalogConfig("pc", server.url), http)
        outcome = await catalog.search(ItemSearch(**NAIP_VERMONT, limit=20, max_cloud_cover=20))
    sent = [body for _method, body, _headers in server.searches()]
    assert "filter" in sent[0] and all("filter" not in body for body in sent[1:])
    assert len(outcome.items) == 20  # NAIP has no cloud cover: every item kept, the limit said
    assert "refused the cloud-cover filter" in outcome.notes[0] and "applied here" in outcome.notes[0]
