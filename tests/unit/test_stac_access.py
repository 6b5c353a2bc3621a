"""A catalog's access method reaches its own requests and asset reads, and nowhere else; the GDAL path a layer
keeps holds no secret; a refused read says which catalog, which method and what to do."""

from __future__ import annotations

import os
import stat

import httpx
import pytest

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.tools.analysis.raster_inputs import resolve_raster
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.engine.raster_reads import gdal_options
from stacgis_agent.tools.stac.access import CatalogAccess, CatalogSecrets, explain_read_failure
from stacgis_agent.tools.stac.catalogs import CatalogRegistry
from testkit.servers.cog_server import CogServer

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
    (tmp_path / "a.tif").write_bytes(b"II*\x00")
    server = CogServer(tmp_path).start()  # the worker asks the asset's host where it leads before writing the file
    try:
        _header_file_written_in_the_worker(tmp_path, server.url)
    finally:
        server.stop()


def _header_file_written_in_the_worker(tmp_path, root):
    registry = _registry(CatalogConfig("team", f"{root}/api", access="qgis_auth", auth_cfg="abc1234"),
                         secrets={"team": CatalogSecrets(headers={"Authorization": SECRET})})
    path, options = registry.plan_read(f"{root}/a.tif", tmp_path)
    assert path.startswith("/vsicurl?header_file=") and path.endswith(f"&url={root}/a.tif")
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
    assert options["VSICURL_PC_SAS_SIGN_HREF_URL"] == "http://127.0.0.1:9/api/sas/v1/sign?href="


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
    (CatalogConfig("landsat", "https://l", access="s3", asset_hosts=["usgs-landsat"]), "s3://usgs-landsat/a.tif",
     "HTTP response code: 403 - AccessDenied", ["'landsat'", "requester-pays", "Requester pays"]),
    (CatalogConfig("landsat", "https://l", access="s3", asset_hosts=["usgs-landsat"]), "s3://usgs-landsat/a.tif",  # GDAL 3.13 (QGIS 3.44)
     "GDAL cannot open '/vsis3/usgs-landsat/a.tif': InvalidCredentials: No valid AWS credentials found.",
     ["'landsat'", "requester-pays", "Requester pays"]),
    (CatalogConfig("landsat", "https://l", access="s3", s3_requester_pays=True, asset_hosts=["usgs-landsat"]), "s3://usgs-landsat/a.tif",
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


def test_s3_catalogs_prime_their_buckets_so_a_reopened_project_reads():
    from osgeo import gdal

    registry = _registry(CatalogConfig("landsat", "https://landsatlook.usgs.gov/stac-server", access="s3",
                                       s3_requester_pays=True, asset_hosts=["usgs-landsat-prime", "data.host.org"]),
                         CatalogConfig("earth", "https://earth-search.aws.element84.com/v1"),
                         secrets={"landsat": CatalogSecrets(s3_key_id="AKIA9", s3_secret="z9")})
    try:
        assert registry.prime_buckets() == ["/vsis3/usgs-landsat-prime/"]
        path = "/vsis3/usgs-landsat-prime/c2/B4.TIF"
        assert gdal.GetPathSpecificOption(path, "AWS_REQUEST_PAYER") == "requester"
        assert gdal.GetPathSpecificOption(path, "AWS_ACCESS_KEY_ID") == "AKIA9"
        assert gdal.GetPathSpecificOption("/vsis3/other-bucket/a.tif", "AWS_ACCESS_KEY_ID") is None  # scoped
    finally:
        gdal.ClearPathSpecificOptions("/vsis3/usgs-landsat-prime/")


def test_an_asset_host_the_catalog_does_not_list_gets_no_credentials_and_the_message_says_so(tmp_path):
    registry = _registry(CatalogConfig("nasa", "https://cmr.earthdata.nasa.gov/stac/LPCLOUD", access="bearer",
                                       auth_cfg="t1"),
                         secrets={"nasa": CatalogSecrets(headers={"Authorization": "Bearer edl"})})
    href = "https://data.lpdaac.earthdatacloud.nasa.gov/hls/B04.tif"
    path, options = registry.plan_read(href, tmp_path, "nasa")
    assert path == "/vsicurl/" + href and not options.files  # the token stays home
    message = options.explain("HTTP response code: 401")
    assert "'nasa'" in message and "data.lpdaac.earthdatacloud.nasa.gov is not one of them" in message
    assert "Asset hosts" in message


def test_public_google_cloud_storage_is_read_unsigned(tmp_path):
    path, options = _registry(CatalogConfig("gcs", "https://stac.example.org")).plan_read(
        "gs://gcp-public-data-landsat/a.tif", tmp_path, "gcs")
    assert path == "/vsigs/gcp-public-data-landsat/a.tif"
    assert (options.prefix, options.prefix_options) == ("/vsigs/gcp-public-data-landsat/", {"GS_NO_SIGN_REQUEST": "YES"})


def test_settings_refuse_an_access_method_that_cannot_work():
    from stacgis_agent.agent.settings_validation import validate_settings

    problems = validate_settings(Settings(catalogs=[
        CatalogConfig("nasa", "https://cmr.earthdata.nasa.gov/stac/LPCLOUD", access="bearer"),
        CatalogConfig("cdse", "https://stac.dataspace.copernicus.eu/v1", access="s3",
                      s3_endpoint="https://eodata.dataspace.copernicus.eu/bucket/path"),
        CatalogConfig("ok", "https://planetarycomputer.microsoft.com/api/stac/v1", access="planetary_computer")]))
    catalog_problems = [p for p in problems if p.startswith("Catalog")]
    assert catalog_problems == [
        "Catalog 1 (nasa): “Bearer token (e.g. NASA Earthdata)” needs an auth config; choose one below the table.",
        "Catalog 2 (cdse): the S3 endpoint is a host (and port), like “https://eodata.example.org”."]


def test_s3_region_and_missing_keys_are_told_apart(tmp_path):
    landsat = CatalogConfig("landsat", "https://l", access="s3", s3_requester_pays=True, asset_hosts=["usgs-landsat"])
    message = explain_read_failure(CatalogAccess(landsat), "s3://usgs-landsat/a.tif",
                                   "AuthorizationHeaderMalformed: the region 'us-east-1' is wrong; expecting 'us-west-2'")
    assert "region" in message and "'landsat'" in message
    _, options = _registry(landsat).plan_read("s3://usgs-landsat/a.tif", tmp_path, "landsat")  # keys: AWS profile
    message = options.explain("AWS_SECRET_ACCESS_KEY and AWS_NO_SIGN_REQUEST configuration options not defined, "
                              "and /root/.aws/credentials not filled")
    assert message.startswith("No AWS credentials") and "AWS profile" in message


def test_an_s3_catalog_reads_the_s3_alternate_of_an_asset():
    asset = {"href": "https://landsatlook.usgs.gov/data/collection02/B4.TIF",
             "alternate": {"s3": {"href": "s3://usgs-landsat/collection02/B4.TIF"}}}
    registry = _registry(CatalogConfig("landsat", "https://landsatlook.usgs.gov/stac-server", access="s3"),
                         CatalogConfig("public", "https://earth-search.aws.element84.com/v1"))
    assert registry.asset_href("landsat", asset, asset["href"]) == "s3://usgs-landsat/collection02/B4.TIF"
    assert registry.asset_href("public", asset, asset["href"]) == asset["href"]


def test_a_changed_secret_replaces_the_old_header_file(tmp_path):
    config = CatalogConfig("team", "https://stac.team.org/api", access="qgis_auth", auth_cfg="abc1234")
    files = []
    for password_header in ("Basic b2xk", "Basic bmV3"):
        registry = _registry(config, secrets={"team": CatalogSecrets(headers={"Authorization": password_header})})
        path, options = registry.plan_read("https://stac.team.org/a.tif", tmp_path)
        options.prepare()
        files.append(path.split("header_file=")[1].split("&")[0])
    assert files[0] != files[1]
    assert sorted(p.name for p in (tmp_path / "credentials").iterdir()) == [os.path.basename(files[1])]


def test_an_unticked_bucket_setting_does_not_linger(tmp_path):
    from osgeo import gdal

    config = CatalogConfig("landsat", "https://l", access="s3", s3_requester_pays=True, asset_hosts=["rp-linger"])
    try:
        _registry(config).plan_read("s3://rp-linger/a.tif", tmp_path, "landsat")[1].prepare()
        assert gdal.GetPathSpecificOption("/vsis3/rp-linger/a.tif", "AWS_REQUEST_PAYER") == "requester"
        config.s3_requester_pays = False
        _registry(config).plan_read("s3://rp-linger/a.tif", tmp_path, "landsat")[1].prepare()
        assert gdal.GetPathSpecificOption("/vsis3/rp-linger/a.tif", "AWS_REQUEST_PAYER") is None
    finally:
        gdal.ClearPathSpecificOptions("/vsis3/rp-linger/")


@pytest.mark.parametrize("gdal_says", [
    "'/vsicurl/http://127.0.0.1:40305/tile-2.tif' does not exist in the file system",  # a port is not a status
    "HTTP response code on https://data.example.org:4013/cogs/401.tif: 404",
])
def test_digits_in_an_address_are_not_taken_for_a_refusal(gdal_says):
    assert explain_read_failure(None, "http://127.0.0.1:40305/tile-0.tif", gdal_says) == ""
    assert "refused" in explain_read_failure(None, "https://x/a.tif", gdal_says + " (HTTP response code: 403)")
