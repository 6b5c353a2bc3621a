"""A desktop MCP client that only launches stdio servers reaches a real QGIS through the stdio bridge, by
its current address and by the old one that existing client configs name. The bridge cannot ask its user
for an OK, so what destroys data stays refused, with a sentence saying why, and the Processing
algorithms that evaluate code are never run: the marker file their payload would create never appears,
the files on disk keep their rows and the project keeps its layers."""

from __future__ import annotations

import os
import sys

import pytest
from mcp import Client, StdioServerParameters

from testkit.servers.mcp_calls import package_root
from testkit.worlds.gpkg_files import digest, rows_on_disk

BRIDGES = ["stacgis_agent.tools.outside.stdio_bridge", "stacgis_agent.tools.stdio_bridge"]


def text(result) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def desktop_client(qgis, module: str) -> Client:
    """The official client launching the bridge as a desktop app would (no elicitation support)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", module, "--port", str(qgis.port), "--token-file", str(qgis.world.profile / "stacgis_mcp_token")],
        env={**os.environ, "PYTHONPATH": package_root()})
    return Client(params)


@pytest.mark.parametrize("module", BRIDGES)
async def test_destructive_calls_through_the_bridge_are_refused_and_the_rows_stay(qgis, module):
    victims = qgis.world.gpkg("victims")
    async with desktop_client(qgis, module) as desktop:
        truncate = await desktop.call_tool("run_processing_algorithm", {
            "algorithm_id": "native:truncatetable", "parameters": {"INPUT": "victims"}})
        remove = await desktop.call_tool("remove_layer", {"layer": "victims"})
        layers = await desktop.call_tool("list_vector_layers", {})
    for refused in (truncate, remove):
        assert refused.is_error and "cannot ask its user" in text(refused), text(refused)
    assert f"empties table 'victims' in file {victims}" in text(truncate)
    assert rows_on_disk(victims, "victims") == 3
    assert not layers.is_error and "victims" in text(layers)
    assert "victims" in " ".join(qgis.host.layers())


@pytest.mark.parametrize("module", BRIDGES)
async def test_algorithms_that_evaluate_code_never_run_through_the_bridge(qgis, module, tmp_path):
    marker = tmp_path / "PWNED"
    dem = qgis.world.data / "dem.tif"
    before = digest(dem)
    async with desktop_client(qgis, module) as desktop:
        python = await desktop.call_tool("run_processing_algorithm", {
            "algorithm_id": "qgis:advancedpythonfieldcalculator",
            "parameters": {"INPUT": "roads", "FIELD_NAME": "x", "GLOBAL": f"open({str(marker)!r}, 'w')",
                           "FORMULA": "value = 1", "OUTPUT": str(tmp_path / "roads_x.gpkg")}})
        calc = await desktop.call_tool("run_processing_algorithm", {
            "algorithm_id": "gdal:rastercalculator",
            "parameters": {"INPUT_A": "dem", "BAND_A": 1,
                           "FORMULA": f"A*0+__import__('os').system('touch {marker}')",
                           "OUTPUT": str(tmp_path / "calc.tif")}})
    assert python.is_error and "it runs Python code" in text(python), text(python)
    assert calc.is_error and "use qgis:rastercalculator" in text(calc), text(calc)
    assert not marker.exists()
    assert not (tmp_path / "roads_x.gpkg").exists() and not (tmp_path / "calc.tif").exists()
    assert rows_on_disk(qgis.world.gpkg("roads"), "roads") == 3 and digest(dem) == before
