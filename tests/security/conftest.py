"""The security tier: a real QGIS process (tests/testkit/qgis_drivers/security_host.py) with the plugin and its outside
MCP endpoint, real files on disk, and real outside clients on loopback. Judged by the files on disk,
the project's layers and what the clients are told."""

from __future__ import annotations

import pytest

from testkit.qgis_drivers.qgis_host import Running, start_host
from testkit.servers.loopback import free_port
from testkit.worlds.security_world import make_world


@pytest.fixture(scope="module")
def qgis(tmp_path_factory):
    """QGIS with the endpoint on, shared by a module's tests (each test uses its own files)."""
    world = make_world(tmp_path_factory.mktemp("security"))
    port = free_port()
    host = start_host(world, port)
    try:
        ready = host.expect("READY", "STATUS")
        assert ready == f"READY {port}", ready
        host.expect("TURN")
        token = (world.profile / "stacgis_mcp_token").read_text().strip()
        yield Running(host, port, token, world)
    finally:
        code = host.stop()
    assert code == 0, "".join(host.stderr[-40:])
