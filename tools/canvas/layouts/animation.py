"""A time series on the map as an animation: QGIS's temporal controller set over the loaded layers, one
frame per date the layers hold (a STAC item's date or range), each frame stamped with its date, a GIF when
an encoder is there (Pillow, else ffmpeg) and an MP4 (H.264) when ffmpeg is installed; otherwise the frames
alone, and the answer says which files could not be made and why. Encoding runs in a worker thread.

Frames render on QGIS's main thread, like QGIS's own animation export: a layer's renderer is made
where the job starts, and a layer the map also draws must not be read from another thread.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    QgsDateTimeRange,
    QgsInterval,
    QgsMapRendererSequentialJob,
    QgsMapSettings,
    QgsTemporalNavigationObject,
    QgsUnitTypes,
)
from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QColor, QFont, QPainter

from ...common import WRITE, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ..project_access import canvas_of, find_layer, project_of
from .export import new_output_folder, new_output_path

MAX_FRAMES = 60
FRAME_WIDTH = 960


@tool(annotations=WRITE, meta=policy(requires=["layer"]))
async def export_animation(
    ctx: Context,
    layers: Annotated[list[str] | None, Field(
        description="Layers to animate; default: the visible layers that have dates")] = None,
    seconds_per_frame: Annotated[float, Field(ge=0.1, le=10)] = 1.0,
    name: Annotated[str, Field(description="File name for the GIF and the frames' folder")] = "animation",
    mp4: Annotated[bool, Field(description="Also an MP4 video (needs ffmpeg on this machine)")] = True,
) -> CallToolResult:
    """Animate dated layers (scenes of several days) as a GIF: sets QGIS's Temporal Controller over them and writes one dated frame per date into the output folder. E.g. 'make an animation of these scenes'."""
    deps = deps_of(ctx)
    project = project_of(deps)
    canvas = canvas_of(deps)
    chosen = _temporal_layers(project, layers)
    ranges = _frames(chosen)
    _set_controller(canvas, ranges)
    folder = new_output_folder(deps.output_dir(), f"{name} frames")
    frames = [_render(canvas, chosen, span, folder / f"frame{i:03d}.png", i, len(ranges))
              for i, span in enumerate(ranges, start=1)]
    gif, encoder = await asyncio.to_thread(encode_gif, frames, new_output_path(deps.output_dir(), name, ".gif"),
                                           seconds_per_frame)
    video, video_note = None, ""
    if mp4:
        video, video_note = await asyncio.to_thread(
            encode_mp4, frames, new_output_path(deps.output_dir(), name, ".mp4"), seconds_per_frame)
    dates = [_date_text(span) for span in ranges]
    said = f"GIF {gif} (encoded with {encoder})" if gif else \
        "no GIF: neither Pillow nor ffmpeg is installed (the frames are there)"
    said += f"; MP4 {video}" if video else (f"; {video_note}" if video_note else "")
    return ok({"frames": [str(f) for f in frames], "thumbnail_file": str(frames[0]), "dates": dates,
               "gif": str(gif) if gif else None, "mp4": str(video) if video else None,
               "mp4_note": video_note or None,
               "encoder": encoder, "layers": [lyr.name() for lyr in chosen]},
              f"{len(frames)} frame(s), {dates[0]} to {dates[-1]}, in {folder}; {said}. The Temporal "
              "Controller is set to the same dates (View ▸ Panels ▸ Temporal Controller to play them).")


def _temporal_layers(project: Any, names: list[str] | None) -> list[Any]:
    if names:
        layers = [find_layer(project, n) for n in names]
    else:
        layers = [node.layer() for node in project.layerTreeRoot().findLayers()
                  if node.isVisible() and node.layer() is not None]
    dated = [lyr for lyr in layers if lyr.temporalProperties() is not None and lyr.temporalProperties().isActive()]
    if not dated:
        raise ToolInputError("None of these layers has dates; load STAC items of several dates first "
                             "(load_stac_items), or name layers whose time is set.")
    return layers if names else dated


def _frames(layers: list[Any]) -> list[QgsDateTimeRange]:
    """One frame per distinct date range the layers hold, in time order."""
    spans: dict[tuple[str, str], QgsDateTimeRange] = {}
    for layer in layers:
        props = layer.temporalProperties()
        if props is None or not props.isActive() or not hasattr(props, "fixedTemporalRange"):
            continue
        span = props.fixedTemporalRange()
        if span.begin().isValid() and span.begin() == span.end():  # an instant: a frame needs a width
            span = QgsDateTimeRange(span.begin(), span.end().addSecs(1))
        if span.begin().isValid():
            spans[(span.begin().toString(Qt.DateFormat.ISODate), span.end().toString(Qt.DateFormat.ISODate))] = span
    if len(spans) > MAX_FRAMES:
        raise ToolInputError(f"The layers hold {len(spans)} dates; at most {MAX_FRAMES} frames are made. "
                             "Name fewer layers.")
    return [spans[key] for key in sorted(spans)]


def _set_controller(canvas: Any, ranges: list[QgsDateTimeRange]) -> None:
    """QGIS's own Temporal Controller over the same dates (what the analyst plays in the panel)."""
    controller = canvas.temporalController()
    if not isinstance(controller, QgsTemporalNavigationObject):
        return
    controller.setTemporalExtents(QgsDateTimeRange(ranges[0].begin(), ranges[-1].end()))
    if hasattr(controller, "setAvailableTemporalRanges"):
        controller.setAvailableTemporalRanges(ranges)
    controller.setFrameDuration(QgsInterval(1, QgsUnitTypes.TemporalDays))
    controller.setNavigationMode(QgsTemporalNavigationObject.Animated)


def _render(canvas: Any, layers: list[Any], span: QgsDateTimeRange, target: Path, number: int, total: int) -> Path:
    settings = QgsMapSettings(canvas.mapSettings())
    size = canvas.mapSettings().outputSize()
    height = max(1, round(FRAME_WIDTH * size.height() / max(1, size.width())))
    settings.setOutputSize(QSize(FRAME_WIDTH, height))
    settings.setLayers(layers)
    settings.setIsTemporal(True)
    settings.setTemporalRange(span)
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    image = job.renderedImage()
    _stamp(image, f"{_date_text(span)}  ({number}/{total})")
    if not image.save(str(target), "PNG"):
        raise ToolInputError(f"Could not write the frame {target}; check the output folder's free space.")
    return target


def _stamp(image: Any, text: str) -> None:
    painter = QPainter(image)
    font = QFont()
    font.setPointSize(16)
    font.setBold(True)
    painter.setFont(font)
    box = painter.fontMetrics().boundingRect(text).adjusted(-8, -4, 8, 4)
    box.moveTopLeft(image.rect().topLeft())
    box.translate(10, 10)
    painter.fillRect(box, QColor(255, 255, 255, 210))
    painter.setPen(QColor("#202020"))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.end()


def _date_text(span: QgsDateTimeRange) -> str:
    first, last = span.begin().toString("yyyy-MM-dd"), span.end().toString("yyyy-MM-dd")
    return first if not span.end().isValid() or last == first else f"{first} – {last}"


def encode_gif(frames: list[Path], target: Path, seconds_per_frame: float) -> tuple[Path | None, str]:
    """A looping GIF of the frames with Pillow, else ffmpeg; (None, "none") when neither is installed."""
    try:
        from PIL import Image
    except ImportError:
        Image = None  # noqa: N806 - the module's own name
    if Image is not None:
        pictures = [Image.open(f).convert("RGB") for f in frames]
        pictures[0].save(target, save_all=True, append_images=pictures[1:], loop=0,
                         duration=int(seconds_per_frame * 1000))
        return target, "Pillow"
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        target.unlink(missing_ok=True)  # the empty file reserved for it
        return None, "none"
    subprocess.run(  # nosec B603 # argv, no shell: ffmpeg from PATH, our fixed options, absolute paths
        [ffmpeg, "-loglevel", "error", "-y", "-framerate", f"{1 / seconds_per_frame:g}",
         "-i", str(frames[0].parent.absolute() / "frame%03d.png"), str(target.absolute())], check=True, timeout=300)
    return target, "ffmpeg"


def encode_mp4(frames: list[Path], target: Path, seconds_per_frame: float) -> tuple[Path | None, str]:
    """An H.264 MP4 of the frames with ffmpeg (MPEG-4 Part 2 when this ffmpeg has no H.264 encoder), played at
    `seconds_per_frame`; (None, why) when ffmpeg is not installed or fails."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        target.unlink(missing_ok=True)  # the empty file reserved for it
        return None, ("no MP4: ffmpeg is not installed on this machine (install ffmpeg for videos; the GIF "
                      "and the frames are there)")
    source = ["-framerate", f"{1 / seconds_per_frame:g}", "-i", str(frames[0].parent.absolute() / "frame%03d.png")]
    # 25 fps made by the fps filter (which holds the last frame for its own time, as `-r` does not), even
    # sizes and yuv420p: what players accept
    even = ["-vf", "fps=25,scale=trunc(iw/2)*2:trunc(ih/2)*2", "-pix_fmt", "yuv420p"]
    error = ""
    for codec in ("libx264", "mpeg4"):
        # -y: the target is the empty file reserved for it here (export.reserve_paths), nobody else's
        done = subprocess.run(  # nosec B603 # argv, no shell: ffmpeg from PATH, our fixed options, absolute paths
            [ffmpeg, "-loglevel", "error", "-y", *source, *even, "-c:v", codec, str(target.absolute())],
            capture_output=True, text=True, timeout=300)
        if done.returncode == 0 and target.exists() and target.stat().st_size > 0:
            return target, ""
        error = (done.stderr or "").strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        error = error[0][:200]
        target.unlink(missing_ok=True)
    return None, f"no MP4: ffmpeg could not encode the frames ({error})"
