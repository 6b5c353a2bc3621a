"""A real QGIS with the endpoint on, driven by the official Python MCP client (with and without
elicitation) and by raw HTTP probes: nothing is destroyed or read without the right, and what a
client is told never reveals files outside what the user allowed."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitResult

from testkit.worlds.gpkg_files import digest, rows_on_disk

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


class Client_:
    """The official SDK over streamable HTTP; `answer` None = a client without elicitation support."""

    def __init__(self, qgis, answer: str | None = None):
        self.qgis, self.answer, self.asked = qgis, answer, []

    async def _elicit(self, _context, params):
        self.asked.append(params.message)
        if self.answer == "accept":
            return ElicitResult(action="accept", content={"confirm": True})
        return ElicitResult(action="decline")

    async def call(self, tool: str, arguments: dict):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.qgis.token}"}, timeout=60)
        kwargs = {"elicitation_callback": self._elicit} if self.answer else {}
        async with Client(streamable_http_client(self.qgis.url, http_client=http), **kwargs) as client:
            return await client.call_tool(tool, arguments)

    async def processing(self, algorithm_id: str, parameters: dict):
        return await self.call("run_processing_algorithm", {"algorithm_id": algorithm_id, "parameters": parameters})


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


# -- item 1: destructive Processing ---------------------------------------------------------------

async def test_truncate_table_waits_for_the_ok_and_the_rows_stay_on_disk_until_then(qgis):
    victims = qgis.world.gpkg("victims")
    refused = await Client_(qgis).processing("native:truncatetable", {"INPUT": "victims"})
    assert refused.is_error and "cannot ask its user" in text(refused)
    assert f"empties table 'victims' in file {victims}" in text(refused)
    declining = Client_(qgis, "decline")
    declined = await declining.processing("native:truncatetable", {"INPUT": "victims"})
    assert declined.is_error and "declined" in text(declined)
    assert f"• empties table 'victims' in file {victims}" in declining.asked[0]
    assert rows_on_disk(victims, "victims") == 3
    done = await Client_(qgis, "accept").processing("native:truncatetable", {"INPUT": "victims"})
    assert not done.is_error, text(done)
    assert rows_on_disk(victims, "victims") == 0


async def test_in_place_algorithms_on_real_files_are_refused_without_an_ok(qgis):
    world = qgis.world
    sql = await Client_(qgis).processing("native:spatialiteexecutesql",
                                         {"DATABASE": "sqlvictims", "SQL": "DELETE FROM sqlvictims"})
    index = await Client_(qgis).processing("native:createspatialindex", {"INPUT": "indexed"})
    tif = world.data / "dem.tif"
    before = digest(tif)
    overviews = await Client_(qgis).processing("gdal:overviews", {"INPUT": "dem", "LEVELS": "2 4"})
    crs = await Client_(qgis).processing("gdal:assignprojection", {"INPUT": "dem", "CRS": "EPSG:3857"})
    for result in (sql, index, overviews, crs):
        assert result.is_error and "cannot ask its user" in text(result)
    assert rows_on_disk(world.gpkg("sqlvictims"), "sqlvictims") == 3
    assert digest(tif) == before and not Path(f"{tif}.ovr").exists()


# -- items 2–4: outputs ---------------------------------------------------------------------------

async def test_an_existing_file_in_the_temp_folder_is_not_overwritten_without_an_ok(qgis, tmp_path):
    precious = tmp_path / "precious.gpkg"
    precious.write_bytes(qgis.world.gpkg("roads").read_bytes())
    before = digest(precious)
    asking = Client_(qgis, "decline")
    result = await asking.processing("native:buffer", {"INPUT": "roads", "DISTANCE": "0.01 deg", "OUTPUT": str(precious)})
    assert result.is_error and f"writes output OUTPUT to {precious}, outside the plugin's output folder" in asking.asked[0]
    assert digest(precious) == before


async def test_a_symlink_in_the_output_folder_does_not_carry_an_output_elsewhere(qgis):
    given = qgis.world.outputs / "shortcut" / "escape.gpkg"
    asking = Client_(qgis, "decline")
    await asking.processing("native:buffer", {"INPUT": "roads", "DISTANCE": "0.01 deg", "OUTPUT": str(given)})
    assert f"{qgis.world.elsewhere / 'escape.gpkg'} (given as {given})" in asking.asked[0]
    assert not (qgis.world.elsewhere / "escape.gpkg").exists()


async def test_a_new_output_in_the_plugins_folder_runs_without_a_question(qgis):
    target = qgis.world.outputs / "roads-buffer.gpkg"
    result = await Client_(qgis).processing("native:buffer", {"INPUT": "roads", "DISTANCE": "0.01 deg",
                                                              "OUTPUT": str(target)})
    assert not result.is_error, text(result)
    assert rows_on_disk(target, "roads-buffer") == 3
    assert "Buffer Buffered" in qgis.host.layers()


async def test_a_long_formula_does_not_hide_the_output_path_in_the_question(qgis, tmp_path):
    target = tmp_path / ("deep-folder-name-" * 8) / "scored.gpkg"
    target.parent.mkdir()
    formula = " + ".join(f"length(\"name\") * {i}" for i in range(80))
    asking = Client_(qgis, "decline")
    await asking.processing("native:fieldcalculator", {"INPUT": "roads", "FIELD_NAME": "score", "FORMULA": formula,
                                                       "OUTPUT": str(target)})
    assert str(target) in asking.asked[0] and not target.exists()


# -- item 6: what outside clients may read --------------------------------------------------------

async def test_outside_clients_read_project_layers_and_allowed_folders_only(qgis):
    client = Client_(qgis)
    layer = await client.call("get_raster_info", {"source": "dem"})
    allowed = await client.call("get_raster_info", {"source": str(qgis.world.allowed / "allowed.tif")})
    assert not layer.is_error and not allowed.is_error, (text(layer), text(allowed))
    refusals = {}
    for source in ("/etc/shadow", "/etc/no-such-file.tif", str(qgis.world.elsewhere / "secret.tif"),
                   str(qgis.world.outputs / "shortcut" / "secret.tif"), "/vsizip//etc/passwd.zip/x.tif",
                   "file:///etc/shadow", "http://127.0.0.1:22/x.tif"):
        result = await client.call("get_raster_info", {"source": source})
        assert result.is_error, source
        refusals[source] = text(result).replace(source, "<source>")
    # one and the same sentence whatever the path: nothing tells an existing file from a missing one
    assert len(set(refusals.values())) == 1, refusals
    assert "not available to outside MCP clients" in next(iter(refusals.values()))
    for source in ("/etc/passwd", "/etc/no-such-file.json"):  # an item collection is a file read too
        result = await client.call("load_stac_items", {"item_collection_file": source})
        assert result.is_error and "not available to outside MCP clients" in text(result), text(result)


# -- items 9, 10 and the probes that already held -------------------------------------------------

def test_the_token_file_is_private_after_start_and_keeps_a_good_token(qgis):
    token_file = qgis.world.profile / "stacgis_mcp_token"
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600  # it was 0644 before QGIS started
    assert qgis.token == qgis.world.old_token


def _probe(qgis, headers: dict, body=None, content: bytes | None = None) -> httpx.Response:
    with httpx.Client(timeout=60) as http:
        if content is not None:
            return http.post(qgis.url, content=content, headers={**MCP_HEADERS, **headers})
        return http.post(qgis.url, json=body or INIT, headers={**MCP_HEADERS, **headers})


def test_token_scheme_host_and_origin_are_checked(qgis):
    token = qgis.token
    statuses = [_probe(qgis, h).status_code for h in (
        {}, {"authorization": "Bearer wrong"}, {"authorization": f"Basic {token}"},
        {"authorization": f"bearer {token}"}, {"authorization": f"BEARER {token}"},
        {"authorization": f"Bearer {token}", "host": "evil.example"},
        {"authorization": f"Bearer {token}", "origin": "http://evil.example"},
        {"authorization": f"Bearer {token}"})]
    assert statuses == [401, 401, 401, 200, 200, 403, 403, 200]


def _listening(port: int) -> set[str]:
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if int(hex_port, 16) == port and state == "0A":
                found.add(address)
    return found


def test_the_endpoint_listens_on_loopback_only(qgis):
    assert _listening(qgis.port) == {"0100007F"}
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            ip = s.getsockname()[0]
        except OSError:
            ip = "127.0.0.1"
    if not ip.startswith("127."):
        with pytest.raises(OSError):
            socket.create_connection((ip, qgis.port), timeout=1).close()


def test_a_huge_body_and_malformed_json_rpc_are_refused_and_qgis_keeps_serving(qgis):
    auth = {"authorization": f"Bearer {qgis.token}"}
    huge = _probe(qgis, auth, content=b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (50 << 20)
                  + b'"}}')
    assert 400 <= huge.status_code < 500
    garbage = _probe(qgis, auth, content=b"{this is not json")
    not_rpc = _probe(qgis, auth, body={"hello": "world"})
    assert 400 <= garbage.status_code < 500 and 400 <= not_rpc.status_code < 500
    assert _probe(qgis, auth).status_code == 200
    assert "roads" in qgis.host.layers()
