"""The sink "URLs QGIS, a browser or the plugin fetches" (issue 40.5): a custom basemap made QGIS fetch tiles from
this machine's other hosts for an outside client, where every other tool refuses them. The one guard,
tools/engine/fetched_urls.py, applies the host rules of GDAL's dataset names to tile templates, links the dock
opens in the system browser and links a catalog gives (a child catalog, a next page). The scan finds every call
that hands such a URL over (QDesktopServices.openUrl, the catalog JSON fetcher `fetch_json`; an XYZ/WMS layer's
source is scanned with GDAL's names, checked_by `xyz_source`) and fails when one does not take it from the guard;
no widget opens links by itself (setOpenExternalLinks(True))."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from stacgis_agent.tools.common import ToolInputError
from stacgis_agent.tools.engine.fetched_urls import RefusedLink, catalog_link, link_to_open, xyz_source
from stacgis_agent.tools.engine.gdal_names import ReadRules
from testkit.sink_scan import ROOT, Sink, calls_in, product_files, reached_outside

FETCHED_URLS = Sink(
    "URLs that QGIS, a browser or the plugin's HTTP client fetch",
    calls=("openUrl", "fetch_json"),
    guards=("tools/engine/fetched_urls.py",),
    checked_by=("link_to_open", "catalog_link"),
    source_positions=(("fetch_json", 1),),
    # a file of the plugin's own outputs folder shown in the system's viewer (links resolved, checked by
    # output_file there): a local file the plugin wrote, not a URL from text (the sink of engineer "pages")
    allowed_in=("ui/untrusted_text.py::open_output",),
)
OUTSIDE = ReadRules(outside=True, catalog_hosts=frozenset({"stac.example"}))


def test_every_fetched_url_comes_from_the_guard():
    assert reached_outside(FETCHED_URLS) == []
    seen = calls_in(FETCHED_URLS)
    assert any(s.startswith("ui/untrusted_text.py:") for s in seen) and \
        any(s.startswith("tools/stac/api_catalog.py:") for s in seen), seen


def test_the_scan_finds_a_url_handed_over_unchecked(tmp_path):
    planted = tmp_path / "ui" / "planted.py"
    planted.parent.mkdir()
    planted.write_text("def ok(url, http):\n    QDesktopServices.openUrl(QUrl(link_to_open(url)))\n"
                       "    return fetch_json(http, catalog_link(url, 'https://s/'), catalog='c')\n"
                       "def bad(url, http):\n    QDesktopServices.openUrl(QUrl(url))\n"
                       "    return fetch_json(http, url, catalog='c')\n")
    assert reached_outside(FETCHED_URLS, tmp_path) == ["ui/planted.py:5 openUrl", "ui/planted.py:6 fetch_json"]


def test_no_widget_opens_links_by_itself():
    opened = []
    for path in product_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "setOpenExternalLinks" and not (
                    node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False):
                opened.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert opened == []


@pytest.mark.parametrize("template", ["http://127.0.0.2:8080/{z}/{x}/{y}.png", "http://192.168.1.10/{z}/{x}/{y}.png",
                                      "http://localhost/{z}/{x}/{y}.png", "http://2130706433/{z}/{x}/{y}.png"])
def test_an_outside_clients_basemap_reaches_no_host_of_this_machine_or_network(template):
    with pytest.raises(ToolInputError, match="not available to outside MCP clients"):
        xyz_source(template, 19, OUTSIDE)
    assert "type=xyz&url=" in xyz_source(template, 19, ReadRules())  # the analyst's own agent may


def test_a_basemap_is_an_http_template_mapped_by_the_guard():
    source = xyz_source("https://tile.openstreetmap.org/{z}/{x}/{y}.png?key=a&referer=b", 19, OUTSIDE)
    assert source == ("type=xyz&url=https://tile.openstreetmap.org/{z}/{x}/{y}.png%3Fkey%3Da%26referer%3Db"
                      "&zmax=19&zmin=0")  # the template's own & and = cannot add a parameter of QGIS's
    for bad in ("file:///home/analyst/{z}/{x}/{y}.png", "https://t.example/{z}/{x}.png",
                "https://t.example/{z}/{x}/{y}.png\nX: 1"):
        with pytest.raises(ToolInputError):
            xyz_source(bad, 19)


def test_links_the_browser_opens_are_web_addresses():
    assert link_to_open("https://stacspec.org/en") == "https://stacspec.org/en"
    for bad in ("file:///etc/passwd", "javascript:alert(1)", "https://"):
        with pytest.raises(ToolInputError):
            link_to_open(bad)


def test_a_catalog_links_only_to_public_hosts_or_its_own():
    assert catalog_link("https://stac.example/search?page=2", "https://stac.example/api") == \
        "https://stac.example/search?page=2"
    assert catalog_link("https://cdn.example.org/next", "https://stac.example/api")
    assert catalog_link("http://127.0.0.1:9000/items", "http://127.0.0.1:9000/api")  # its own host
    assert catalog_link("http://127.0.0.2/x", str(Path("/data/catalog.json")))  # the analyst's own folder
    for bad in ("http://127.0.0.2:9000/items", "http://10.0.0.7/admin", "file:///etc/passwd"):
        with pytest.raises(RefusedLink):
            catalog_link(bad, "https://stac.example/api")
    assert catalog_link("http://10.0.0.7/x", "https://stac.example/api", asset_hosts=["10.0.0.7"])
