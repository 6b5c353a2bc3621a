"""What an outside MCP client may read (issue 14 item 6), decided before GDAL opens anything: project
layers, remote catalog assets, and files inside the folders the user allowed — symlinks followed — while
the chat dock's own agent is not limited."""

from __future__ import annotations

import dataclasses

import pytest

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.analysis.raster_inputs import check_outside_source
from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.deps import ToolDeps


@pytest.fixture
def folders(tmp_path):
    allowed, catalog, outputs, elsewhere = (tmp_path / n for n in ("allowed", "catalog", "outputs", "elsewhere"))
    for folder in (allowed, catalog, outputs, elsewhere):
        folder.mkdir()
    (catalog / "catalog.json").write_text("{}")
    (allowed / "escape").symlink_to(elsewhere, target_is_directory=True)
    settings = Settings(mcp_allowed_folders=f"{allowed}\n", catalogs=[
        CatalogConfig("local", str(catalog / "catalog.json"), "static"),
        CatalogConfig("lab", "http://10.0.0.5:8080/stac", "api")])
    deps = ToolDeps.from_settings(settings, work_dir=str(outputs), outside_client=True)
    return deps, allowed, catalog, outputs, elsewhere


def allowed(deps, source: str) -> bool:
    try:
        check_outside_source(deps, source)
        return True
    except ToolInputError as exc:
        assert "not available to outside MCP clients" in str(exc)
        return False


def test_files_inside_allowed_catalog_and_output_folders_only(folders):
    deps, allowed_dir, catalog, outputs, elsewhere = folders
    assert allowed(deps, str(allowed_dir / "a.tif"))
    assert allowed(deps, f"file://{allowed_dir}/a.tif")
    assert allowed(deps, str(catalog / "items" / "b.tif"))
    assert allowed(deps, str(outputs / "change-1.tif"))
    assert not allowed(deps, str(elsewhere / "c.tif"))
    assert not allowed(deps, str(allowed_dir / "escape" / "c.tif"))  # a symlink out of the allowed folder
    assert not allowed(deps, f"{allowed_dir}/../elsewhere/c.tif")
    assert not allowed(deps, "/etc/shadow") and not allowed(deps, "file:///etc/shadow")
    assert not allowed(deps, f"/vsizip/{allowed_dir}/../elsewhere/x.zip/y.tif")


def test_remote_assets_yes_this_machines_or_the_lans_services_no_unless_a_catalog_lives_there(folders):
    deps, *_ = folders
    assert allowed(deps, "https://sentinel-cogs.s3.us-west-2.amazonaws.com/a/B04.tif")
    assert allowed(deps, "s3://bucket/key.tif") and allowed(deps, "/vsis3/bucket/key.tif")
    assert allowed(deps, "/vsicurl/https://example.org/a.tif")
    assert allowed(deps, "http://10.0.0.5:8080/assets/a.tif")  # the configured catalog's own host
    for inside in ("http://127.0.0.1:5432/x.tif", "http://localhost:6379/x.tif", "/vsicurl/http://169.254.169.254/x",
                   "http://10.0.0.6/x.tif", "http://[::1]:8080/x.tif", "http://localhost./x.tif",
                   "http://127.1/x.tif", "http://2130706433/x.tif", "http://0x7f000001/x.tif", "http://0.0.0.0/x"):
        assert not allowed(deps, inside), inside


def test_the_dock_agent_is_not_limited(folders):
    deps, *_ = folders
    assert allowed(dataclasses.replace(deps, outside_client=False), "/etc/hosts")
