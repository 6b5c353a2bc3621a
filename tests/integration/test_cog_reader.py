"""Collection statistics read plain-HTTP(S) COGs with the COG reader (tools/engine/cog_reader.py) instead of GDAL's
network: no HEAD request, the header with one ranged GET, the tiles as ranged GETs; the same numbers as GDAL's
reads on a world over two UTM zones (same-zone tiles placed by numpy, the other zone's averaged from memory over
its cells' footprints); GDAL still reads what the reader does not decode; Stop closes the requests in flight; only
names the guard of GDAL's dataset names checked are fetched, so an outside client's host rules hold."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import httpx
import pytest

from stacgis_agent.tools.analysis.collection_stats import compute
from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine import cog_reader, stats_worker
from stacgis_agent.tools.engine.gdal_names import ReadRules, from_href
from stacgis_agent.tools.engine.grid_windows import Grid
from stacgis_agent.tools.engine.index_bands import resolve_bands
from testkit.worlds.zones_world import DATES, make_zones_world


@pytest.fixture(scope="module")
def zones(cog_server):
    return make_zones_world(cog_server.root / "zones", cog_server.url + "/zones")


@pytest.fixture(scope="module")
def zones_lzw(cog_server):
    return make_zones_world(cog_server.root / "zones-lzw", cog_server.url + "/zones-lzw", compress="LZW")


@pytest.fixture
def deps(make_deps, stac_api):
    return make_deps(httpx.AsyncClient(timeout=10), {"local": stac_api.url})


async def _stats(deps, world, exact: bool, reader: bool, monkeypatch) -> dict:
    monkeypatch.setattr(cog_reader, "ENABLED", reader)
    return await compute(deps, world.items, world.collection(), world.area, index="NDVI", asset=None,
                         group_by="date", exact=exact, mask_clouds=True)


@pytest.mark.parametrize("exact", [False, True])
async def test_the_cog_reader_gives_gdals_numbers_over_two_zones(deps, zones, cog_server, monkeypatch, exact):
    cog_server.reset_counts()
    mine = await _stats(deps, zones, exact, True, monkeypatch)
    assert sum(cog_server.head_requests.values()) == 0  # the reader asked no HEAD: its reads were the reads
    gdal = await _stats(deps, zones, exact, False, monkeypatch)
    assert ("overviews at" in mine["resolution"]) is not exact
    assert [r["period"] for r in mine["rows"]] == list(DATES)
    for a, b in zip(mine["rows"], gdal["rows"]):
        assert a["valid_pixels"] == b["valid_pixels"] and a["cloud_excluded_pixels"] == b["cloud_excluded_pixels"]
        assert a["items"] == b["items"] == 3
        # the other zone's cells: each the average of its footprint (warp_average.py), where GDAL's warp shifts the
        # footprint by up to a tenth of a pixel; the same cells counted, the same mean, the spread within 2e-5
        assert a["mean"] == pytest.approx(b["mean"], rel=1e-6, abs=1e-7), a["period"]
        for key in ("median", "min", "max", "std"):
            assert a[key] == pytest.approx(b[key], rel=5e-5, abs=1e-7), (a["period"], key)
    assert all(r["valid_pixels"] > 0 and r["cloud_excluded_pixels"] > 0 for r in mine["rows"])


async def test_no_head_request_and_one_ranged_get_a_file_once_the_asset_is_known(deps, zones, cog_server,
                                                                                  monkeypatch):
    """The first files of each asset teach how many first bytes hold its header and the tiles the question
    needs; after them every file of that asset is read with one ranged GET (GDAL sent a HEAD and 16 kB chunks
    for each). The other zone's tiles, a third here, need another overview: their tile may take a second GET."""
    cog_reader.HINTS._seen.clear()
    await _stats(deps, zones, False, True, monkeypatch)  # all nine items at once: they learn together
    cog_server.reset_counts()
    await _stats(deps, zones, False, True, monkeypatch)
    files = [p for p in cog_server.requests if p.startswith("/zones/")]
    assert len(files) == 3 * len(zones.items)
    assert sum(cog_server.head_requests.values()) == 0
    assert all(cog_server.range_requests[p] == cog_server.requests[p] for p in files)  # every GET ranged
    same_zone = [p for p in files if "/32T" in p]
    twice = [p for p in same_zone if cog_server.requests[p] != 1]
    assert len(twice) <= 1, twice  # the file the planner probed: its header for the grid, then the item's read
    assert all(cog_server.requests[p] == 2 for p in twice)
    assert sum(cog_server.requests[p] for p in files) <= len(files) + len(files) - len(same_zone)


async def test_an_items_bands_cross_the_network_together(deps, zones, cog_server, monkeypatch):
    """Once the cloud mask left something clear, the tiles of every band of an item are asked for at once: the
    second band's tiles come while the first's are decoded. One band after the other made each item wait one
    more round trip and transfer, and left a distant server's link idle half of a full-resolution month."""
    item = next(i for i in zones.items if i["id"].startswith("32TQT"))
    cog_reader.HINTS._seen.clear()  # nothing learnt: each file's header alone first, its tiles asked for after
    monkeypatch.setattr(cog_server, "latency_s", 0.15)
    cog_server.reset_counts()
    result = await compute(deps, [item], zones.collection(), zones.area, index="NDVI", asset=None,
                           group_by="date", exact=True, mask_clouds=True)
    monkeypatch.setattr(cog_server, "latency_s", 0.0)
    assert result["rows"][0]["valid_pixels"] > 0
    tiles = {band: [(start, end) for path, asked, start, end in cog_server.answered
                    if path.endswith(f"{item['id']}/{band}.tif") and not asked.startswith("bytes=0-")]
             for band in ("red", "nir")}
    assert tiles["red"] and tiles["nir"], cog_server.answered
    (red_asked, red_answered), (nir_asked, nir_answered) = tiles["red"][0], tiles["nir"][0]
    assert nir_asked < red_answered and red_asked < nir_answered  # in flight together


async def test_a_compression_the_reader_does_not_decode_is_read_by_gdal(deps, zones, zones_lzw, cog_server,
                                                                        monkeypatch):
    cog_server.reset_counts()
    lzw = await _stats(deps, zones_lzw, False, True, monkeypatch)
    assert sum(cog_server.head_requests.values()) > 0  # GDAL read those files
    deflate = await _stats(deps, zones, False, True, monkeypatch)
    for a, b in zip(lzw["rows"], deflate["rows"]):
        assert a["valid_pixels"] == b["valid_pixels"]
        assert a["mean"] == pytest.approx(b["mean"], rel=1e-6)
    name = from_href(zones_lzw.items[0]["assets"]["red"]["href"])
    assert cog_reader.open_many([name]) == {name: None}


class _Silent:
    """A server that accepts range requests and never answers; it notes when a client closes its connection."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests = 0
        self.closed = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._hold, args=(connection,), daemon=True).start()

    def _hold(self, connection: socket.socket) -> None:
        connection.settimeout(15)  # a reader that never stops is let go at last (GDAL's had no end)
        with connection:
            while True:
                try:
                    data = connection.recv(4096)
                except OSError:
                    return
                if not data:  # the client closed it
                    self.closed.set()
                    return
                self.requests += data.count(b"GET ")


async def test_stop_closes_the_range_requests_in_flight(zones):
    silent = _Silent()
    item = dict(zones.items[0])
    item["assets"] = {k: {**a, "href": a["href"].replace(zones.base_url, f"http://127.0.0.1:{silent.port}/zones")}
                      for k, a in item["assets"].items()}
    bands = resolve_bands(item, {}, index="NDVI", asset=None)
    grid = Grid("", (0, 0, 1, 1), 1, 1)
    task = stats_worker.ItemTask(item["id"], DATES[0], grid, bands.bands, "NDVI", bands.mask, (9,), {}, "")
    stop = threading.Event()
    started = time.perf_counter()
    reading = asyncio.get_running_loop().run_in_executor(None, stats_worker.read_item, task, stop)
    while silent.requests == 0 and time.perf_counter() - started < 5:
        await asyncio.sleep(0.02)
    assert silent.requests > 0  # the header's range request is in flight, unanswered
    stop.set()
    with pytest.raises(stats_worker.Cancelled):
        await asyncio.wait_for(reading, 5)
    assert await asyncio.to_thread(silent.closed.wait, 5)  # the request was closed, not left to the server
    assert time.perf_counter() - started < 8


def test_only_checked_names_are_fetched_and_an_outside_clients_host_rules_hold(zones):
    with pytest.raises(TypeError, match="not a checked dataset name"):
        cog_reader.open_many([zones.items[0]["assets"]["red"]["href"]])  # a plain string: never fetched
    outside = ReadRules(outside=True, catalog_hosts=frozenset({"127.0.0.1"}))
    href = zones.items[0]["assets"]["red"]["href"]
    other_host = href.replace("127.0.0.1", "localhost")
    with pytest.raises(ToolInputError, match="not available to outside MCP clients"):
        from_href(other_host, outside)  # the guard refuses before any reader sees it
    allowed = from_href(href, outside)
    assert cog_reader.open_many([allowed])[allowed] is not None  # the catalog's own host: read, by the reader


def test_a_server_closing_a_kept_alive_connection_is_no_error(caplog):
    """Object stores close idle keep-alive connections: the reader takes it as the end of that connection, with
    no "Fatal error: protocol.get_buffer() call failed" in the log (it offered an empty buffer for the EOF)."""
    from stacgis_agent.tools.engine import cog_http

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer_once_then_close() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(4096)
            connection.sendall(b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-3/10\r\n"
                               b"Content-Length: 4\r\n\r\nabcd")
            time.sleep(0.2)  # the connection now waits idle in the reader's pool; then the server drops it

    server = threading.Thread(target=answer_once_then_close, daemon=True)
    server.start()
    client = cog_http.client()
    with caplog.at_level("ERROR", logger="asyncio"):
        body, size = cog_http.submit(client.get_range(f"http://127.0.0.1:{port}/a.tif", 0, 4)).result(5)
        server.join(5)
        idle = client._idle[("http", "127.0.0.1", port)]
        deadline = time.monotonic() + 5
        while idle and not idle[0].closed and time.monotonic() < deadline:
            time.sleep(0.02)
    listener.close()
    assert (bytes(body), size) == (b"abcd", 10)
    assert idle and idle[0].closed  # the reader saw the server close it
    assert not [r for r in caplog.records if "get_buffer" in r.getMessage()]
