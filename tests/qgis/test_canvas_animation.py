"""A time series as an animation: the shipped demo catalog's NDVI of June and September on the map, one
dated frame per scene, a looping GIF, and QGIS's Temporal Controller set over the same dates."""

from __future__ import annotations

import httpx
import pytest
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsDateTimeRange,
    QgsProject,
    QgsRectangle,
    QgsTemporalNavigationObject,
)
from qgis.PyQt.QtCore import QDateTime
from qgis.PyQt.QtGui import QImage

from stacgis_agent.agent.config import DEMO_CATALOG
from stacgis_agent.tools.server import build_server
from testkit.servers.canvas_servers import canvas_deps
from testkit.servers.mcp_calls import OneShotClient


@pytest.fixture
async def client(qgis_iface, qgis_new_project, tmp_path):
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas = qgis_iface.mapCanvas()
    canvas.resize(800, 600)
    navigation = QgsTemporalNavigationObject()  # what QGIS's Temporal Controller panel gives its canvas
    canvas.setTemporalController(navigation)
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, str(DEMO_CATALOG), str(tmp_path / "out"), qgis_iface)
        yield OneShotClient(build_server(deps, canvas=True)), deps, canvas
    canvas.setTemporalController(None)
    canvas.setTemporalRange(QgsDateTimeRange(QDateTime(), QDateTime()))  # the controller left the canvas on a frame: later tests start undated
    QgsProject.instance().removeAllMapLayers()


async def test_two_dated_scenes_make_two_dated_frames_a_gif_and_a_temporal_controller(client):
    one, deps, canvas = client
    for item in ("demo-ndvi-2025-06-15", "demo-ndvi-2025-09-15"):
        loaded = await one.call_tool("load_stac_items", {"collection": "demo-ndvi", "item_ids": [item]})
        assert not loaded.is_error, loaded.content[0].text
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(4.79, 45.73, 4.88, 45.79))
    result = await one.call_tool("export_animation", {"name": "ndvi summer"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert [d[:10] for d in data["dates"]] == ["2025-06-15", "2025-09-15"]
    frames = [QImage(path) for path in data["frames"]]
    assert len(frames) == 2 and all(not f.isNull() for f in frames)
    assert all(path.startswith(str(deps.output_dir() / "ndvi summer frames")) for path in data["frames"])
    # each frame shows its own scene: the two NDVI dates differ on the map
    w, h = frames[0].width(), frames[0].height()
    differ = sum(1 for x in range(w // 4, 3 * w // 4, 8) for y in range(h // 4, 3 * h // 4, 8)
                 if frames[0].pixelColor(x, y) != frames[1].pixelColor(x, y))
    assert differ > 20, "the two frames show the same picture"
    assert data["gif"] and data["gif"].endswith("ndvi summer.gif") and data["encoder"] in ("Pillow", "ffmpeg")
    from PIL import Image

    with Image.open(data["gif"]) as gif:
        assert gif.n_frames == 2
    controller = canvas.temporalController()
    assert isinstance(controller, QgsTemporalNavigationObject)
    extent = controller.temporalExtents()
    assert extent.begin().toString("yyyy-MM-dd") == "2025-06-15" and extent.end().toString("yyyy-MM-dd") >= "2025-09-15"


async def test_layers_without_dates_are_named_and_nothing_is_written(client):
    one, deps, _canvas = client
    loaded = await one.call_tool("load_stac_asset", {"collection": "demo-elevation", "item_id": "demo-elevation-lyon"})
    assert not loaded.is_error
    QgsProject.instance().mapLayers()  # the DEM has no date
    for layer in QgsProject.instance().mapLayers().values():
        layer.temporalProperties().setIsActive(False)
    result = await one.call_tool("export_animation", {})
    assert result.is_error and "has dates" in result.content[0].text
    assert not any(p.suffix == ".gif" for p in deps.output_dir().rglob("*"))


async def _two_dates(one, canvas):
    for item in ("demo-ndvi-2025-06-15", "demo-ndvi-2025-09-15"):
        loaded = await one.call_tool("load_stac_items", {"collection": "demo-ndvi", "item_ids": [item]})
        assert not loaded.is_error, loaded.content[0].text
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(4.79, 45.73, 4.88, 45.79))


async def test_an_mp4_plays_the_frames_at_their_pace_when_ffmpeg_is_installed(client):
    import json
    import shutil
    import subprocess

    assert shutil.which("ffmpeg") and shutil.which("ffprobe"), "ffmpeg is missing: `make setup-servers` installs it"
    one, deps, canvas = client
    await _two_dates(one, canvas)
    result = await one.call_tool("export_animation", {"name": "ndvi video", "seconds_per_frame": 1.5})
    assert not result.is_error, result.content[0].text
    video = result.structured_content["mp4"]
    assert video and video.startswith(str(deps.output_dir())) and video.endswith("ndvi video.mp4")
    assert "MP4" in result.content[0].text
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json",
                                       video], capture_output=True, text=True, check=True).stdout)
    [stream] = probe["streams"]
    assert stream["codec_name"] in ("h264", "mpeg4") and stream["pix_fmt"] == "yuv420p"
    assert stream["width"] % 2 == 0 and stream["height"] % 2 == 0
    assert float(probe["format"]["duration"]) == pytest.approx(3.0, abs=0.6)  # two frames, 1.5 s each


async def test_without_ffmpeg_the_answer_says_there_is_no_mp4_and_why(client, monkeypatch):
    one, _deps, canvas = client
    await _two_dates(one, canvas)
    monkeypatch.setenv("PATH", "/nonexistent")  # this machine as one without ffmpeg
    result = await one.call_tool("export_animation", {"name": "ndvi no video"})
    assert not result.is_error, result.content[0].text
    assert result.structured_content["mp4"] is None
    assert "no MP4: ffmpeg is not installed" in result.content[0].text
    assert result.structured_content["gif"]  # the GIF is still made (Pillow)
