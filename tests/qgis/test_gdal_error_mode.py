"""The plugin's GDAL work leaves GDAL's Python error mode as QGIS and the other plugins set it.

Run in a fresh interpreter each: pytest's own process has already switched the mode (test helpers do),
and a module imported once cannot be imported "for the first time" again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from testkit.servers.mcp_calls import package_root

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import asyncio, json, sys, threading
from pathlib import Path
from osgeo import gdal, ogr, osr
if MODE:
    gdal.UseExceptions()
modes = lambda: [gdal.GetUseExceptions(), ogr.GetUseExceptions(), osr.GetUseExceptions()]
before = modes()
from stacgis_agent.tools.analysis import raster_tools
from stacgis_agent.tools.engine import gdal_scope, raster_reads
from stacgis_agent.tools.engine.gdal_names import local_file
from stacgis_agent.tools.canvas.layers import mosaic
from stacgis_agent.tools.canvas.layers.stac_assets import choose_assets
after_import = modes()

tif = str(Path(WORK) / "dem.tif")
mem = gdal.GetDriverByName("MEM").Create("", 64, 64, 1, gdal.GDT_Float32)
mem.SetGeoTransform((5.0, 0.01, 0, 46.0, 0, -0.01))
srs = osr.SpatialReference(); srs.ImportFromEPSG(4326); mem.SetProjection(srs.ExportToWkt())
mem.GetRasterBand(1).Fill(7.0)
gdal.GetDriverByName("GTiff").CreateCopy(tif, mem); mem = None

async def use_tools():
    info = await raster_tools.run_gdal(raster_reads.raster_info, {}, local_file(tif))
    stats = await raster_tools.run_gdal(raster_reads.statistics, {}, local_file(tif), 1, None, None, "EPSG:4326", True, 65536, [50])
    try:
        await raster_tools.run_gdal(raster_reads.raster_info, {}, local_file(str(Path(WORK) / "missing.tif")))
        missing = "no error"
    except Exception as exc:
        missing = type(exc).__name__
    item = {"id": "i", "properties": {"datetime": "2024-01-01T00:00:00Z", "proj:code": "EPSG:4326"},
            "assets": {"data": {"href": tif, "roles": ["data"], "type": "image/tiff",
                                "bands": [{"name": "height", "nodata": -1}]}}}
    results = await asyncio.gather(*(asyncio.to_thread(mosaic.build_mosaics, [choose_assets(item)], WORK, f"m{k}")
                                     for k in range(4)))
    return info["width"], stats["mean"], missing, results[0][0]["bands"][0]["name"]

used = asyncio.run(use_tools())
seen_by_others = []
def other_plugin():  # code outside the plugin, in another thread, after the tools ran
    seen_by_others.append(modes())
t = threading.Thread(target=other_plugin); t.start(); t.join()
print(json.dumps({"before": before, "after_import": after_import, "after_use": modes(),
                  "other_thread": seen_by_others[0], "used": used}))
"""


@pytest.mark.parametrize("host_mode", [0, 1], ids=["host-without-exceptions", "host-with-exceptions"])
def test_importing_and_using_the_raster_tools_leaves_gdal_error_mode_as_it_was(host_mode, tmp_path):
    code = f"import sys; sys.path[:0] = [{package_root()!r}]\nMODE = {host_mode}\nWORK = {str(tmp_path)!r}\n" + SCRIPT
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=str(REPO))
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    # GDAL 3.6 keeps one mode per module; newer GDAL (3.40's 3.10, 3.44's 3.13) switches ogr and osr with gdal
    expected = report["before"]
    assert expected[0] == host_mode
    assert report["after_import"] == expected
    assert report["after_use"] == expected
    assert report["other_thread"] == expected
    width, mean, missing, band_name = report["used"]
    assert width == 64 and mean == pytest.approx(7.0)  # the tools really ran GDAL
    assert missing == "ToolInputError"  # GDAL's error became the tool's message, whatever the host's mode
    assert band_name == "height"
