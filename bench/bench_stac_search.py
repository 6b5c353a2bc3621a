"""Search-to-result time of `search_items` against a local stac-fastapi-pgstac, for 10/100/1,000 items.

Prints time, pages fetched and requests per run, and each size's time as a ratio of the 10-item time.
Needs `make setup-test` (PostgreSQL 15 + PostGIS, .build/stac-venv).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
from mcp import Client  # noqa: E402

import conftest  # noqa: E402,F401 - makes `stacgis_agent` and `testkit` importable
from stacgis_agent.agent.config import CatalogConfig, Settings  # noqa: E402
from stacgis_agent.tools.deps import ToolDeps  # noqa: E402
from stacgis_agent.tools.server import build_server  # noqa: E402
from testkit.servers.stac_api import StacApi, collection_doc  # noqa: E402

TOTAL = 1200
SIZES = (10, 100, 1000)
REPEATS = 5


def items() -> list[dict]:
    out = []
    for i in range(TOTAL):
        x, y = 2.0 + (i % 40) * 0.02, 44.0 + (i // 40) * 0.02
        bbox = [x, y, x + 0.018, y + 0.018]
        out.append({"type": "Feature", "stac_version": "1.0.0", "id": f"scene-{i:05d}", "collection": "bench",
                    "bbox": bbox, "geometry": {"type": "Polygon", "coordinates": [[[x, y], [bbox[2], y],
                                                                                     [bbox[2], bbox[3]], [x, bbox[3]],
                                                                                     [x, y]]]},
                    "properties": {"datetime": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z",
                                   "eo:cloud_cover": i % 100},
                    "assets": {"B04": {"href": f"https://example.org/{i}/B04.tif", "type": "image/tiff",
                                       "roles": ["data"]}}, "links": []})
    return out


async def run(api: StacApi) -> None:
    requests: list[str] = []

    async def count(request: httpx.Request) -> None:
        requests.append(str(request.url))

    async with httpx.AsyncClient(timeout=60, event_hooks={"request": [count]}) as http:
        deps = ToolDeps.from_settings(Settings(catalogs=[CatalogConfig(name="local", url=api.url)]), http=http,
                                      work_dir=tempfile.mkdtemp())
        async with Client(build_server(deps)) as client:
            await client.call_tool("search_items", {"collections": ["bench"], "limit": 1})  # conformance, warm-up
            rows = []
            for size in SIZES:
                times = []
                for _ in range(REPEATS):
                    requests.clear()
                    start = time.perf_counter()
                    result = await client.call_tool("search_items", {"collections": ["bench"], "limit": size})
                    times.append(time.perf_counter() - start)
                    assert result.structured_content["returned"] == size, result.content[0].text
                rows.append((size, statistics.median(times), result.structured_content["pages_fetched"],
                             len(requests)))
    base = rows[0][1]
    print(f"search_items on stac-fastapi-pgstac ({TOTAL} items loaded), median of {REPEATS} runs")
    print(f"{'items':>6} {'seconds':>9} {'pages':>6} {'HTTP requests':>14} {'x 10-item time':>15} {'ms/item':>8}")
    for size, seconds, pages, reqs in rows:
        print(f"{size:>6} {seconds:>9.3f} {pages:>6} {reqs:>14} {seconds / base:>15.1f} {1000 * seconds / size:>8.2f}")


def main() -> None:
    api = StacApi().start()
    try:
        api.load([collection_doc("bench", [2, 44, 2.8, 44.6], ["2024-01-01T00:00:00Z", None])], items())
        asyncio.run(run(api))
    finally:
        api.stop()


if __name__ == "__main__":
    main()
