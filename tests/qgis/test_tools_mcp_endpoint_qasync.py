"""The opt-in MCP endpoint on the qasync loop the plugin uses: an outside client's call is served
while Qt keeps processing events (QGIS is not blocked)."""

from __future__ import annotations

import httpx2
import numpy as np
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from qgis.PyQt.QtCore import QTimer

from stacgis_agent.agent.config import Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.outside.http_endpoint import McpHttpEndpoint, load_or_create_token
from testkit.servers.stac_api import free_port
from testkit.worlds.cogs import write_cog


def test_outside_client_is_served_on_the_qt_loop_without_blocking_it(qloop, tmp_path):
    values = np.random.default_rng(0).normal(50, 5, (1500, 1500)).astype(np.float32)
    cog = write_cog(tmp_path / "big.tif", values, origin=(4.0, 46.0), pixel_size=0.0001)
    deps = ToolDeps.from_settings(Settings(), work_dir=str(tmp_path))
    token = load_or_create_token(tmp_path)
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1))

    async def scenario():
        endpoint = McpHttpEndpoint(deps, token, free_port())
        await endpoint.start()
        try:
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
            async with Client(streamable_http_client(endpoint.url, http_client=http)) as client:
                timer.start()
                result = await client.call_tool("get_raster_statistics", {"source": str(cog), "exact": True})
                timer.stop()
        finally:
            await endpoint.stop()
        return result

    result = qloop.run_until_complete(scenario())
    assert not result.is_error, result.content[0].text
    assert result.structured_content["mean"] == pytest.approx(float(values.astype(np.float64).mean()), rel=1e-9)
    assert len(ticks) >= 2  # Qt timers fired while the statistics were computed for the outside client
