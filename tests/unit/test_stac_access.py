"""A catalog's access method reaches its own requests and asset reads, and nowhere else; the GDAL path a layer
keeps holds no secret; a refused read says which catalog, which method and what to do."""

from __future__ import annotations

import os
import stat

import httpx
import pytest

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.raster_io import gdal_options
from stacgis_agent.tools.raster_sources import resolve_raster
from stacgis_agent.tools.stac.access import CatalogAccess, CatalogSecrets, explain_read_failure
from stacgis_agent.tools.stac.catalogs import CatalogRegistry

SECRET = "Basic YW5hbHlzdDpzM2NyZXQ="


def _registry(*configs: CatalogConfig, secrets=None) -> CatalogRegistry:
    given = secrets or {}
    return CatalogRegistry(list(configs), httpx.AsyncClient(), secrets=lambda c: given.get(c.name, CatalogSecrets()))


def test_auth_headers_go_only_to_the_catalog_own_hosts():
    access = CatalogAccess(CatalogConfig("team", "https://stac.team.org/api", access="qgis_auth", auth_cfg="abc1234",
                                         asset_hosts=["data.team.org"]))
    secrets = CatalogSecrets(headers={"Authorization": SECRET})
    assert access.request_headers("https://stac.team.org/api/search", secrets) == {"Authorization": SECRET}
    assert access.request_headers("https://data.team.org/cogs/a.tif", secrets) == {"Authorization": SECRET}
    assert access.request_headers("https://evil.example.com/a.tif", secrets) == {}
    assert access.request_headers("https://stac.team.org.evil.com/a.tif", secrets) == {}


def test_header_credentials_reach_gdal_through_a_private_file_written_in_the_worker(tmp_path):
    registry = _registry(CatalogConfig("team", "https://stac.team.org/api", access="qgis_auth", auth_cfg="abc1234"),
                         secrets={"team": CatalogSecrets(headers={"Authorization": SECRET})})
    path, options = registry.plan_read("https://stac.team.org/cogs/a.tif", tmp_path)
    assert path.startswith("/vsicurl?header_file=") and path.endswith("&url=https://stac.team.org/cogs/a.tif")
    assert "s3cret" not in path and SECRET not in path  # the layer source (and the project) holds no secret
    header_file = path.split("header_file=")[1].split("&")[0]
    assert not os.path.exists(header_file)  # nothing written on the thread that planned the read
    with gdal_options(options):
        assert open(header_file).read() == f"Authorization: {SECRET}\n"
    assert stat.S_IMODE(os.stat(header_file).st_mode) == 0o600
    public_path, public = registry.plan_read("https://elsewhere.org/b.tif", tmp_path)
    assert public_path == "/vsicurl/https://elsewhere.org/b.tif" and not public.files


def test_planetary_computer_assets_are_read_through_gdal_signing_with_unsigned_hrefs(tmp_path):
    href = "https://sentinel2l2a01.blob.core.windows.net/sentinel2-l2/T31/B04.tif"
    registry = _registry(CatalogConfig("pc", "https://planetarycomputer.microsoft.com/api/stac/v1",
                                       access="planetary_computer"))
    path, options = registry.plan_read(href, tmp_path, "pc", "sentinel-2-l2a")
    assert path == f"/vsicurl?pc_url_signing=yes&pc_collection=sentinel-2-l2a&url={href}"
    assert dict(options) == {}  # the public token endpoint is GDAL's default
    custom = _registry(CatalogConfig("pc", "http://127.0.0.1:9/stac", access="planetary_computer",
                                     token_url="http://127.0.0.1:9/api/sas/v1/token", asset_hosts=["127.0.0.1:9"]))
    _, options = custom.plan_read("http://127.0.0.1:9/a.tif", tmp_path, "pc", "c")
    assert options["VSICURL_PC_SAS_TOKEN_URL"] == "http://127.0.0.1:9/api/sas/v1/token/"


def test_s3_settings_apply_to_the_bucket_prefix_per_catalog(tmp_path):
    landsat = CatalogConfig("landsat", "https://landsatlook.usgs.gov/stac-server", access="s3",
                            s3_requester_pays=True, s3_region="us-west-2", asset_hosts=["usgs-landsat"], auth_cfg="k1")
    store = CatalogConfig("minio", "http://127.0.0.1:9000/stac", access="s3", s3_endpoint="http://127.0.0.1:9000",
                          asset_hosts=["team-bucket"], auth_cfg="k2")
    registry = _registry(landsat, store, secrets={"landsat": CatalogSecrets(s3_key_id="AKIA1", s3_secret="x1"),
                                                  "minio": CatalogSecrets(s3_key_id="AKIA2", s3_secret="x2")})
    path, options = registry.plan_read("s3://usgs-landsat/c2/B4.TIF", tmp_path)
    assert path == "/vsis3/usgs-landsat/c2/B4.TIF" and options.prefix == "/vsis3/usgs-landsat/"
    assert options.prefix_options == {"AWS_REQUEST_PAYER": "requester", "AWS_ACCESS_KEY_ID": "AKIA1",
                                      "AWS_SECRET_ACCESS_KEY": "x1", "AWS_REGION": "us-west-2"}
    _, options = registry.plan_read("s3://team-bucket/a.tif", tmp_path)
    assert options.prefix_options == {"AWS_ACCESS_KEY_ID": "AKIA2", "AWS_SECRET_ACCESS_KEY": "x2",
                                      "AWS_S3_ENDPOINT": "127.0.0.1:9000", "AWS_HTTPS": "NO",
                                      "AWS_VIRTUAL_HOSTING": "FALSE"}
    public = _registry(CatalogConfig("earth", "https://earth-search.aws.element84.com/v1"))
    _, options = public.plan_read("s3://sentinel-cogs/a.tif", tmp_path)
    assert options.prefix == "/vsis3/sentinel-cogs/" and options.prefix_options == {"AWS_NO_SIGN_REQUEST": "YES"}


def test_raster_tools_resolve_hrefs_with_the_owning_catalog(tmp_path):
    settings = Settings(catalogs=[CatalogConfig(name="private", url="https://data.example.org/stac",
                                                headers={"X-Api-Key": "k"})])
    deps = ToolDeps.from_settings(settings, http=httpx.AsyncClient(), work_dir=str(tmp_path))
    path, options = resolve_raster(deps, "https://data.example.org/cogs/a.tif")
    assert path.startswith("/vsicurl?header_file=") and "X-Api-Key" not in path
    assert list(options.files.values()) == ["X-Api-Key: k\n"]
    assert resolve_raster(deps, "https://elsewhere.org/a.tif")[0] == "/vsicurl/https://elsewhere.org/a.tif"


@pytest.mark.parametrize("config, href, gdal_says, expected", [
    (CatalogConfig("pc", "https://pc/api", access="planetary_computer"), "https://x.blob.core.windows.net/a.tif",
     "HTTP response code: 403", ["'pc'", "Planetary Computer", "expired", "offline"]),
    (CatalogConfig("landsat", "https://l", access="s3"), "s3://usgs-landsat/a.tif",
     "HTTP response code: 403 - AccessDenied", ["'landsat'", "requester-pays", "Requester pays"]),
    (CatalogConfig("landsat", "https://l", access="s3", s3_requester_pays=True), "s3://usgs-landsat/a.tif",
     "InvalidAccessKeyId", ["'landsat'", "access key and secret"]),
    (CatalogConfig("team", "https://t", access="qgis_auth"), "https://t/a.tif",
     "HTTP response code: 401", ["'team'", "QGIS authentication", "user name and password"]),
    (CatalogConfig("nasa", "https://cmr", access="bearer"), "https://cmr/a.tif",
     "HTTP response code: 401", ["'nasa'", "Bearer token", "paste a new one"]),
])
def test_a_refused_read_names_catalog_method_and_remedy(config, href, gdal_says, expected):
    message = explain_read_failure(CatalogAccess(config), href, gdal_says)
    for words in expected:
        assert words in message, message


def test_a_failure_that_is_not_about_access_keeps_the_original_message():
    assert explain_read_failure(CatalogAccess(CatalogConfig("x", "https://x")), "https://x/a.tif",
                                "not a supported file format") == ""
