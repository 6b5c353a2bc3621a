"""The catalog Test in Settings asks the server every time: once the asset is gone (or access withdrawn), the
next Test says reading failed, never what GDAL remembers from the previous Test."""

from __future__ import annotations

from stacgis_agent.agent.config import CatalogConfig
from stacgis_agent.tools.stac.access import CatalogSecrets
from stacgis_agent.tools.stac.catalog_check import check_catalog_access
from testkit.qgis_drivers.canvas_fixtures import make_canvas_data
from testkit.servers.cog_server import CogServer
from testkit.worlds.stac_fixtures import write_static_catalog


async def test_the_catalog_test_never_answers_from_gdal_cache(tmp_path):
    root = tmp_path / "served"
    root.mkdir()
    server = CogServer(root).start()
    try:
        write_static_catalog(root, make_canvas_data(root, server.url, mosaic_tiles=1))
        config = CatalogConfig("team", f"{server.url}/catalog.json", kind="static", access="none")
        first = await check_catalog_access(config, secrets=lambda c: CatalogSecrets(), work_dir=str(tmp_path))
        assert first.ok, first.message
        for cog in root.glob("*.tif"):  # the assets the Test reads are gone from the server
            cog.unlink()
        again = await check_catalog_access(config, secrets=lambda c: CatalogSecrets(), work_dir=str(tmp_path))
    finally:
        server.stop()
    assert not again.ok and "failed" in again.message, again.message
