"""A malicious static STAC catalog, served over loopback HTTP: its collection ids and asset keys carry `../`,
`/`, `\\`, NUL, very long names and the names of existing files. collection_statistics (through the real mcp
client) writes its CSV and chart into the outputs folder and nowhere else, and replaces no existing file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest
from mcp import Client

from stacgis_agent.tools.server import build_server
from testkit.servers.cog_server import CogServer
from testkit.worlds.tiny_catalog import SIZE, tiny_bbox, write_tiny_catalog, write_tiny_cog

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


def _calls() -> list[tuple[str, str]]:
    """(collection id, asset key): the hostile text as the asset key (it comes first in the file name), then as
    the collection id."""
    return [(f"plain-{k}", text) for k, text in enumerate(HOSTILE)] + [(text, "data") for text in HOSTILE]


def _write_hostile_catalog(root: Path, base_url: str) -> str:
    """One COG; one collection (with one item) per call of _calls(), named and keyed by its hostile text."""
    write_tiny_cog(root / "data.tif")
    write_tiny_catalog(root / "catalog", [(c, a, f"{base_url}/data.tif") for c, a in _calls()])
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
                "collection": collection_id, "asset": asset, "datetime": "2024-06-01", "bbox": tiny_bbox(),
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
