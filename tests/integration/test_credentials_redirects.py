"""Credentials never leave the catalog's hosts: an attacker on another loopback host (127.0.0.2) records every
request's headers while the catalog redirects API requests and asset reads to it (301/302/307/308, directly and
through a chain), and while an item names a bucket the catalog does not list. It records nothing secret."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from osgeo import gdal

from stacgis_agent.agent.config import CatalogConfig
from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine.raster_reads import gdal_options, open_raster
from stacgis_agent.tools.stac.access import CatalogSecrets
from stacgis_agent.tools.stac.catalogs import CatalogRegistry
from stacgis_agent.tools.stac.search import ItemSearch
from testkit.servers.redirect_attacker import AttackerHost, RedirectingCatalog
from testkit.worlds.cogs import write_cog

API_KEY = "team-api-key-7f3a"
S3_KEY_ID, S3_SECRET = "AKIATEAMKEY0001", "team-s3-secret-9b2c"


@pytest.fixture
def hosts(tmp_path):
    loot = tmp_path / "loot"
    (loot / "loot").mkdir(parents=True)
    for folder in (loot, loot / "loot", tmp_path):
        write_cog(folder / "a.tif", np.full((64, 64), 7, np.uint8), origin=(10.0, 50.0), pixel_size=0.01)
    attacker = AttackerHost(loot).start()
    catalog = RedirectingCatalog(tmp_path, attacker, "X-Api-Key", API_KEY).start()
    allowed = gdal.GetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS")
    gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", None)  # GDAL 3.6 refuses /vsicurl?… paths with it
    gdal.VSICurlClearCache()
    yield catalog, attacker
    gdal.SetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", allowed)
    catalog.stop()
    attacker.stop()


def _registry(http, catalog, **fields):
    config = CatalogConfig("team", catalog.url, kind="api", access="headers", headers={"X-Api-Key": API_KEY},
                           **fields)
    return CatalogRegistry([config], http, secrets=lambda c: CatalogSecrets(s3_key_id=S3_KEY_ID, s3_secret=S3_SECRET))


@pytest.mark.parametrize("status", [301, 302, 307, 308])
@pytest.mark.parametrize("hops", [1, 3])
async def test_an_api_key_never_follows_an_api_redirect_to_another_host(hosts, status, hops):
    catalog, attacker = hosts
    async with httpx.AsyncClient(follow_redirects=True) as http:  # as the plugin's client is made
        api = _registry(http, catalog).get("team")
        doc = await api._get(f"/go/{status}/{hops}/collections/loot")  # an item or collection link, redirected
        with pytest.raises(ToolInputError):  # a search POSTed to a host that redirects it away
            await api._get(f"/go/{status}/{hops}/search", method="POST", body=ItemSearch(limit=1).body(1))
    assert doc["id"] == "loot"  # the redirect was followed, to a host that needs no key
    assert attacker.seen and attacker.carried(API_KEY) == []


async def test_a_redirect_loop_stops_with_a_sentence(hosts):
    catalog, _ = hosts
    async with httpx.AsyncClient() as http:
        api = _registry(http, catalog).get("team")
        with pytest.raises(ToolInputError, match="redirected .* more than 5 times"):
            await api._get("/go/302/9/collections/loot")


@pytest.mark.parametrize("status", [302, 307])
@pytest.mark.parametrize("hops", [1, 2])
def test_gdal_never_carries_the_key_off_the_catalog_hosts_and_says_why(hosts, tmp_path, status, hops):
    catalog, attacker = hosts
    registry = _registry(httpx.AsyncClient(), catalog)
    path, options = registry.plan_read(f"{catalog.url}/go/{status}/{hops}/a.tif", tmp_path / "work", "team")
    with pytest.raises(ToolInputError) as refused, gdal_options(options):
        open_raster(path)
    assert attacker.carried(API_KEY) == []
    text = str(refused.value)
    assert "'team'" in text and f"127.0.0.2:{attacker.port}" in text and "Asset hosts" in text


def test_gdal_reads_with_the_key_where_the_catalog_keeps_its_assets(hosts, tmp_path):
    catalog, attacker = hosts
    registry = _registry(httpx.AsyncClient(), catalog, asset_hosts=[f"127.0.0.2:{attacker.port}"])
    path, options = registry.plan_read(f"{catalog.url}/go/302/1/a.tif", tmp_path / "work", "team")
    with gdal_options(options):
        assert open_raster(path).GetRasterBand(1).ReadAsArray().max() == 7
    assert attacker.carried(API_KEY)  # 127.0.0.2 is one of its hosts here: it gets the key, as configured


def test_s3_keys_and_payment_go_only_to_the_buckets_the_catalog_lists(hosts, tmp_path):
    _, attacker = hosts
    registry = _registry(httpx.AsyncClient(), hosts[0], s3_requester_pays=True, s3_region="us-west-2",
                         s3_endpoint=attacker.url, asset_hosts=["team-bucket"])
    registry.access("team").method = "s3"
    path, options = registry.plan_read("s3://loot/a.tif", tmp_path / "work", "team")  # an item names any bucket
    try:
        with gdal_options(options):
            assert open_raster(path).GetRasterBand(1).ReadAsArray().max() == 7  # read anonymously
        _, listed = registry.plan_read("s3://team-bucket/a.tif", tmp_path / "work", "team")
        assert listed.prefix_options["AWS_ACCESS_KEY_ID"] == S3_KEY_ID and listed.prefix_options["AWS_REQUEST_PAYER"]
    finally:
        gdal.ClearPathSpecificOptions("/vsis3/loot/")
    assert attacker.seen and attacker.carried(S3_KEY_ID, S3_SECRET, "requester") == []
