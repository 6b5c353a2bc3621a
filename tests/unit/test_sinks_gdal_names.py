"""The sink "GDAL dataset names" (issue 40.3, 40.4): text from a catalog, the model or an outside client reaches GDAL
or QGIS's layer constructors only as a name tools/engine/gdal_names.py made. The scan finds every call that opens a
source (gdal.Open/OpenEx, ogr.Open, gdal.BuildVRT, QgsRasterLayer/QgsVectorLayer/…(source), setDataSource,
"STACIT:" names) and fails when one does not hand it `dataset(name)`; `dataset` refuses a plain string at run
time. The guard refuses GDAL options and special files in any text, keeps an outside client to public hosts,
catalog hosts and allowed folders, and keeps a catalog's hrefs where that catalog may point."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine.gdal_names import (
    GdalName,
    ReadRules,
    dataset,
    from_href,
    own_file,
    pc_signed,
    with_header_file,
    within_catalog,
)
from testkit.sink_scan import Sink, calls_in, reached_outside

GDAL_NAMES = Sink(
    "GDAL dataset names",
    calls=("Open", "OpenEx", "BuildVRT", "QgsRasterLayer", "QgsVectorLayer", "QgsMeshLayer", "QgsPointCloudLayer",
           "QgsVectorTileLayer", "setDataSource", "addRasterLayer", "addVectorLayer", "addMeshLayer"),
    guards=("tools/engine/gdal_names.py",),
    # a tile layer's source is a URL QGIS fetches: its guard is tools/engine/fetched_urls.py (xyz_source)
    checked_by=("dataset", "datasets", "xyz_source"),
    source_positions=(("BuildVRT", 1),),
    literals=("STACIT:",),
)
INI = "/home/analyst/.local/share/QGIS/QGIS3/profiles/default/QGIS/QGIS3.ini"
OUTSIDE = ReadRules(outside=True, allowed_folders=(Path("/srv/allowed"),), catalog_hosts=frozenset({"stac.example"}))


def test_every_source_reaches_gdal_or_qgis_as_a_checked_name():
    assert reached_outside(GDAL_NAMES) == []
    seen = calls_in(GDAL_NAMES)  # the scan reads the tree: the opens it lets through are there
    assert any(s.startswith("tools/engine/gdal_env.py:") and s.endswith(" Open") for s in seen), seen
    assert any(s.startswith("tools/canvas/layers/stac_layers.py:") and s.endswith("QgsRasterLayer") for s in seen)


def test_the_scan_finds_a_source_handed_over_unchecked(tmp_path):
    planted = tmp_path / "tools" / "planted.py"
    planted.parent.mkdir()
    planted.write_text("from osgeo import gdal\n"
                       "def ok(name):\n    return gdal.Open(dataset(name)), QgsRasterLayer(dataset(name), 'x', 'gdal')\n"
                       "def empty():\n    return QgsVectorLayer()\n"
                       "def bad(href):\n    return gdal.Open(href)\n"
                       "def bad_layer(href):\n    return QgsRasterLayer(f'/vsicurl/{href}', 'x', 'gdal')\n"
                       "def bad_vrt(out, paths):\n    return gdal.BuildVRT(out, paths)\n"
                       "STAC = f'STACIT:\"{1}\":asset=red'\n")
    assert reached_outside(GDAL_NAMES, tmp_path) == [
        "tools/planted.py:11 BuildVRT", "tools/planted.py:12 'STACIT'", "tools/planted.py:7 Open",
        "tools/planted.py:9 QgsRasterLayer"]


def test_dataset_refuses_a_name_nobody_checked():
    with pytest.raises(TypeError):
        dataset("/vsicurl?header_file=/etc/passwd&url=http://127.0.0.2/x.tif")
    assert dataset(from_href("https://x.org/B04.tif")) == "/vsicurl/https://x.org/B04.tif"


@pytest.mark.parametrize("href", [
    f"/vsicurl?header_file={INI}&url=http://127.0.0.2:8000/x.tif",
    "/vsicurl?url=http://127.0.0.2/x.tif&header.X-Leak=1",
    "/vsistdin/",
    "/vsisubfile/0_100,/home/analyst/secret.tif",
    "/vsizip//home/analyst/secrets.zip/a.tif",
    "/vsimem/anything",
    "/vsis3/bucket//vsicurl?header_file=/x&url=http://h/",
    "/vsicurl/file:///etc/passwd",
    "https://x.org/B04.tif\nX-Injected: 1",
    "ftp://x.org/B04.tif",
    "STACIT:\"https://x.org/search\":asset=red",
    "relative/B04.tif",
])
def test_gdal_syntax_in_an_href_is_refused_with_a_sentence(href):
    with pytest.raises(ToolInputError) as refused:
        from_href(href)
    assert "is not a dataset the plugin opens" in str(refused.value)
    if href.startswith(("/vsi", "STACIT")):
        assert "GDAL's own syntax" in str(refused.value)


def test_urls_and_paths_are_mapped_by_the_plugin():
    assert from_href("https://x.org/a/B04.tif?token=t") == "/vsicurl/https://x.org/a/B04.tif?token=t"
    assert from_href("/vsicurl/https://x.org/a/B04.tif") == "/vsicurl/https://x.org/a/B04.tif"
    assert from_href("s3://bucket/key/B04.tif") == from_href("/vsis3/bucket/key/B04.tif") == "/vsis3/bucket/key/B04.tif"
    assert from_href("az://container/B04.tif") == "/vsiaz/container/B04.tif"
    assert from_href("file:///data/a%20b.tif") == "/data/a b.tif"
    assert isinstance(from_href("/data/b.tif"), GdalName)


def test_an_outside_client_reaches_public_and_catalog_hosts_and_allowed_folders_only():
    for refused in ("http://127.0.0.2/x.tif", "http://10.1.2.3/x.tif", "http://localhost:8080/x.tif",
                    "http://0x7f000001/x.tif", "http://[::1]/x.tif", "/home/analyst/secret.tif",
                    "file:///srv/allowed/../secret.tif"):
        with pytest.raises(ToolInputError) as told:
            from_href(refused, OUTSIDE)
        assert "not available to outside MCP clients" in str(told.value), refused
    for allowed in ("https://x.org/B04.tif", "http://stac.example:8080/B04.tif", "/srv/allowed/B04.tif"):
        assert from_href(allowed, OUTSIDE)
    assert from_href("http://127.0.0.2/x.tif") == "/vsicurl/http://127.0.0.2/x.tif"  # the analyst's own agent may


def test_a_remote_catalog_never_names_a_local_file(tmp_path):
    catalog = "https://stac.example/catalog/catalog.json"
    # a path in a catalog read over HTTP is a path on its server
    assert within_catalog(catalog, "/home/analyst/secret.tif") == "https://stac.example/home/analyst/secret.tif"
    assert within_catalog(catalog, "items/a.json") == "https://stac.example/catalog/items/a.json"
    with pytest.raises(ToolInputError, match="read over HTTP never names a file"):
        within_catalog(catalog, "file:///home/analyst/secret.tif")
    rules = ReadRules(catalogs={"remote": "https://stac.example/api/v1"})
    for local in ("/home/analyst/secret.tif", "file:///home/analyst/secret.tif"):  # an API item's href
        with pytest.raises(ToolInputError, match="read over HTTP never names a file"):
            from_href(local, rules, catalog="remote")


def test_a_local_catalog_names_only_files_under_its_folder(tmp_path):
    root = tmp_path / "catalog"
    (root / "items").mkdir(parents=True)
    (root / "items" / "a.tif").write_bytes(b"")
    (tmp_path / "secret.tif").write_bytes(b"")
    os.symlink(tmp_path / "secret.tif", root / "items" / "link.tif")
    location = str(root / "catalog.json")
    assert within_catalog(str(root / "items" / "item.json"), "a.tif", root=location) == str(root / "items" / "a.tif")
    for outside in ("../../secret.tif", str(tmp_path / "secret.tif"), f"file://{tmp_path}/secret.tif", "link.tif"):
        with pytest.raises(ToolInputError, match="names only files under its own folder"):
            within_catalog(str(root / "items" / "item.json"), outside, root=location)
    rules = ReadRules(catalogs={"mine": location})
    assert from_href(str(root / "items" / "a.tif"), rules, catalog="mine")
    with pytest.raises(ToolInputError, match="names only files under its own folder"):
        from_href(str(root / "items" / "link.tif"), rules, catalog="mine")


def test_names_the_plugin_makes_name_only_its_own_files_and_checked_urls(tmp_path):
    name = from_href("https://x.org/B04.tif")
    assert with_header_file(name, tmp_path / "h.headers") == \
        f"/vsicurl?header_file={tmp_path}/h.headers&url=https://x.org/B04.tif"
    assert pc_signed(name, "s2") == "/vsicurl?pc_url_signing=yes&pc_collection=s2&url=https://x.org/B04.tif"
    with pytest.raises(TypeError):
        with_header_file("/vsicurl/http://127.0.0.2/x.tif", tmp_path / "h.headers")  # type: ignore[arg-type]
    assert own_file(tmp_path / "out" / "m.vrt", tmp_path / "out") == str(tmp_path / "out" / "m.vrt")
    with pytest.raises(ValueError):
        own_file(tmp_path / "elsewhere.vrt", tmp_path / "out")  # a bug of the plugin, not an input error
