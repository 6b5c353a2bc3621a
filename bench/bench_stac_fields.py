"""Bytes a 100-item search page costs with and without the Fields extension (`search_items` asks the API to
leave out item links, which nothing in the plugin reads), against a local stac-fastapi-pgstac; also the
cloud-cover limit sent as a CQL2 filter vs items fetched then dropped locally. Ratios side by side.
Needs `make setup-test` (PostgreSQL 15 + PostGIS, .build/stac-venv).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import CatalogConfig  # noqa: E402
from stacgis_agent.tools.stac.api_catalog import ApiCatalog  # noqa: E402
from stacgis_agent.tools.stac.search import ItemSearch  # noqa: E402
from testkit.servers.stac_api import StacApi, collection_doc  # noqa: E402

sys.path.insert(0, str(HERE))
from bench_stac_search import items  # noqa: E402


async def measure(api: StacApi, search: ItemSearch, conformance_override: list[str] | None = None) -> tuple[int, int]:
    received: list[int] = []

    async def count(response: httpx.Response) -> None:
        if response.request.url.path.endswith("/search"):
            await response.aread()
            received.append(len(response.content))

    async with httpx.AsyncClient(timeout=60, event_hooks={"response": [count]}) as http:
        catalog = ApiCatalog(CatalogConfig("local", api.url), http)
        conformance = await catalog.conformance()
        if conformance_override is not None:  # what an API without the extension would declare
            catalog._conformance = [c for c in conformance if not any(x in c for x in conformance_override)]
        outcome = await catalog.search(search)
    return sum(received), len(outcome.items)


async def run(api: StacApi) -> None:
    print("one search on stac-fastapi-pgstac, 1200 items loaded, bytes received from /search")
    plain, n_plain = await measure(api, ItemSearch(collections=["bench"], limit=100, fields={}))
    slim, n_slim = await measure(api, ItemSearch(collections=["bench"], limit=100))
    print(f"{'100 items':<34} {'bytes':>10} {'bytes/item':>11} {'x with Fields':>14}")
    print(f"{'without Fields':<34} {plain:>10} {plain / n_plain:>11.0f} {plain / slim:>14.2f}")
    print(f"{'with Fields (links left out)':<34} {slim:>10} {slim / n_slim:>11.0f} {1.0:>14.2f}")
    local, n_local = await measure(api, ItemSearch(collections=["bench"], limit=1000, max_cloud_cover=9, fields={}),
                                   conformance_override=["filter", "#query"])
    server, n_server = await measure(api, ItemSearch(collections=["bench"], limit=1000, max_cloud_cover=9, fields={}))
    print(f"{'cloud cover <= 9 %':<34} {'bytes':>10} {'items':>11} {'x CQL2 filter':>14}")
    print(f"{'dropped locally (no filter ext.)':<34} {local:>10} {n_local:>11} {local / server:>14.2f}")
    print(f"{'CQL2 filter sent to the API':<34} {server:>10} {n_server:>11} {1.0:>14.2f}")


def main() -> None:
    api = StacApi().start()
    try:
        api.load([collection_doc("bench", [2, 44, 2.8, 44.6], ["2024-01-01T00:00:00Z", None])], items())
        api.sql("INSERT INTO pgstac.queryables (name, definition, property_wrapper) VALUES "
                "('eo:cloud_cover', '{\"type\": \"number\"}', 'to_float') ON CONFLICT DO NOTHING")
        asyncio.run(run(api))
    finally:
        api.stop()


if __name__ == "__main__":
    main()
