"""A malicious static STAC catalog, served over loopback HTTP: its collection ids and asset keys carry `../`,
`/`, `\\`, NUL, very long names and the names of existing files. collection_statistics (through the real mcp
client) writes its CSV and chart into the outputs folder and nowhere else, and replaces no existing file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx
import numpy as np
import pytest
from mcp import Client

from stacgis_agent.tools.server import build_server
from testkit.cog_server import CogServer
from testkit.cogs import write_cog

ORIGIN, PIXEL, SIZE = (5.0, 46.0), 0.001, 64
HOSTILE = [
    "../../escaped",
    "../../../../../../../../tmp/escaped-abs",
    "sub/dir/name",
    "back\\slash\\..\\..\\name",
    "nul\x00byte",
    "L" * 400,
    "victim.csv",  # the name of a file that already exists next to the outputs folder and in it
    "..",
    "CON",
]


def _bbox() -> list[float]:
    return [ORIGIN[0], ORIGIN[1] - SIZE * PIXEL, ORIGIN[0] + SIZE * PIXEL, ORIGIN[1]]


def _calls() -> list[tuple[str, str]]:
    """(collection id, asset key): the hostile text as the asset key (it comes first in the file name), then as
    the collection id."""
    return [(f"plain-{k}", text) for k, text in enumerate(HOSTILE)] + [(text, "data") for text in HOSTILE]


def _write_hostile_catalog(root: Path, base_url: str) -> str:
    """One COG; one collection (with one item) per call of _calls(), named and keyed by its hostile text."""
    write_cog(root / "data.tif", np.arange(SIZE * SIZE, dtype=np.float32).reshape(SIZE, SIZE), origin=ORIGIN,
              pixel_size=PIXEL)
    b = _bbox()
    ring = [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]], [b[0], b[1]]]
    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "hostile", "description": "hostile", "links": []}
    for k, (collection_id, asset) in enumerate(_calls()):
        item = {"type": "Feature", "stac_version": "1.0.0", "id": f"item-{k}", "collection": collection_id,
                "bbox": b, "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": {"datetime": "2024-06-01T10:00:00Z"}, "links": [],
                "assets": {asset: {"href": f"{base_url}/data.tif", "type": "image/tiff; application=geotiff",
                                   "roles": ["data"]}}}
        collection = {"type": "Collection", "stac_version": "1.0.0", "id": collection_id, "description": "hostile",
                      "license": "CC0-1.0", "links": [{"rel": "item", "href": f"./item-{k}.json"}],
                      "extent": {"spatial": {"bbox": [b]}, "temporal": {"interval": [["2024-01-01T00:00:00Z", None]]}}}
        (root / "catalog" / f"c{k}").mkdir(parents=True)
        (root / "catalog" / f"c{k}" / f"item-{k}.json").write_text(json.dumps(item))
        (root / "catalog" / f"c{k}" / "collection.json").write_text(json.dumps(collection))
        catalog["links"].append({"rel": "child", "href": f"./c{k}/collection.json"})
    (root / "catalog" / "catalog.json").write_text(json.dumps(catalog))
    return f"{base_url}/catalog/catalog.json"


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def hostile_catalog(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    server = CogServer(served).start()
    try:
        yield _write_hostile_catalog(served, server.url)
    finally:
        server.stop()


async def test_catalog_text_in_file_names_never_leaves_or_overwrites_in_the_outputs_folder(tmp_path, make_deps,
                                                                                          hostile_catalog):
    outputs = tmp_path / "work" / "deep" / "outputs"
    outputs.mkdir(parents=True)
    for folder in (outputs, outputs.parent, tmp_path / "work"):
        (folder / "victim.csv").write_text("period,mean\nkeep me\n")
        (folder / "victim.png").write_bytes(b"keep me too")
    before_outside = _snapshot(tmp_path)
    deps = make_deps(httpx.AsyncClient(timeout=10), {"hostile": hostile_catalog})
    deps.work_dir = str(outputs)
    async with Client(build_server(deps)) as client:
        for collection_id, asset in _calls():
            result = await client.call_tool("collection_statistics", {
                "collection": collection_id, "asset": asset, "datetime": "2024-06-01", "bbox": _bbox(),
                "exact": True})
            text = collection_id + asset
            assert not result.is_error, (text, result.content[0].text)
            data = result.structured_content
            assert data["rows"][0]["valid_pixels"] == SIZE * SIZE
            for key in ("csv_file", "chart_file"):
                written = Path(data[key])
                assert written.parent == outputs.resolve() and written.is_file(), (text, written)
                assert len(written.name) < 160
    after = _snapshot(tmp_path)
    changed = {p for p in before_outside if after.get(p) != before_outside[p]}
    assert not changed  # no existing file was replaced, inside the outputs folder or out of it
    added = set(after) - set(before_outside)
    assert added and all(p.startswith("work/deep/outputs/") and p.count("/") == 3 for p in added), sorted(added)
    assert len(added) == 2 * len(_calls())  # a CSV and a chart per call, none shared
    assert not list(Path("/tmp").glob("escaped-abs*"))
