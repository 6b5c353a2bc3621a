"""A session as Markdown (with its tool calls), and its map actions as a PyQGIS script.

The script is text for the user to read and run; nothing here ever executes it.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Sequence

from ..agent import events as ev
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def session_to_markdown(record: SessionRecord) -> str:
    title = record.info.title or record.info.session_id
    lines = [f"# {title}", ""]
    answer: list[str] = []

    def close_answer() -> None:
        if answer:
            lines.extend(["**Assistant:**", "", "".join(answer).strip(), ""])
            answer.clear()

    for item in history_items(record):
        if isinstance(item, ev.UserMessage):
            close_answer()
            lines.extend(["**You:**", "", item.text, ""])
        elif isinstance(item, ev.Content):
            if item.is_complete:
                answer[:] = [item.text]
            else:
                answer.append(item.text)
        elif isinstance(item, ev.Done):
            if not answer and item.content:
                answer.append(item.content)
            close_answer()
            if item.stopped:
                lines.extend(["_Stopped by the user._", ""])
        else:
            close_answer()
            lines.extend(_activity_lines(item))
    close_answer()
    return "\n".join(lines).rstrip() + "\n"


def _activity_lines(item: ev.Event) -> list[str]:
    if isinstance(item, ev.ToolStart):
        return [f"> Called `{item.tool_name}`", "", "```json", _json(item.tool_args), "```", ""]
    if isinstance(item, ev.ToolResult):
        return [f"> `{item.tool_name}` completed in {item.duration_ms:.0f} ms", ""]
    if isinstance(item, ev.ToolError):
        return [f"> `{item.tool_name}` failed: {item.error}", ""]
    if isinstance(item, ev.AskUser):
        return [f"> Asked: {item.question} ({' / '.join(item.options)})", ""]
    if isinstance(item, ev.Error):
        return [f"> Error: {item.message}", ""]
    if isinstance(item, ev.Notice):
        return [f"> {item.text}", ""]
    return []


# -- PyQGIS script -------------------------------------------------------------------------
# A map-changing tool reports what it did in its result: a layer it added ({"layer": {"name",
# "source", "provider", "kind"}} or {"layers": [...]}) and/or the view it set ({"extent",
# "crs"}). Those facts, not the tool names, are what the script replays.

SCRIPT_HEADER = '''"""Map actions of the STAC GIS Agent session "{title}".

Run in the QGIS Python console. Layers open from their original sources (URLs, files).
"""
from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsRasterLayer,
                       QgsRectangle, QgsVectorLayer)
from qgis.utils import iface

project = QgsProject.instance()
canvas = iface.mapCanvas()
'''


def session_to_pyqgis(record: SessionRecord, changes_map: Callable[[str], bool] | None = None) -> str:
    """`changes_map(tool_name)` says which tools act on the map (see `map_changing_tools`);
    without it every result that names a layer source or a view is replayed."""
    blocks = [SCRIPT_HEADER.format(title=(record.info.title or record.info.session_id).replace('"', "'"))]
    starts: dict[str, ev.ToolStart] = {}
    for item in history_items(record):
        if isinstance(item, ev.ToolStart):
            starts[item.call_id] = item
        elif isinstance(item, ev.ToolResult) and (changes_map is None or changes_map(item.tool_name)):
            start = starts.get(item.call_id)
            block = _action_block(item.tool_name, start.tool_args if start else {}, item.result,
                                  keep_empty=changes_map is not None)
            if block:
                blocks.append(block)
    if len(blocks) == 1:
        blocks.append("# This session did not change the map.\n")
    return "\n".join(blocks)


def _action_block(tool: str, args: dict[str, Any], result: Any, keep_empty: bool) -> str:
    call = f"{tool}({', '.join(f'{k}={v!r}' for k, v in args.items())})"
    lines = ["# " + " ".join(call.split())]  # one comment line whatever the arguments hold
    data = _as_dict(result)
    layers = list(_layers(data))
    for layer in layers:
        lines.extend(_layer_lines(layer))
    if data.get("extent") and data.get("crs"):
        lines.extend(_extent_lines(data["extent"], str(data["crs"])))
    if not layers and not data.get("extent"):
        if not keep_empty:
            return ""
        lines.append("# (no layer or view in the result: not reproducible as a script)")
    return "\n".join(lines) + "\n"


def _as_dict(result: Any) -> dict[str, Any]:
    if isinstance(result, str):
        try:
            result = json.loads(result)
        except ValueError:
            return {}
    return result if isinstance(result, dict) else {}


def _layers(data: dict[str, Any]) -> Iterable[dict[str, Any]]:
    candidates: Sequence[Any] = [data["layer"]] if isinstance(data.get("layer"), dict) else data.get("layers") or []
    for layer in candidates:
        if isinstance(layer, dict) and (layer.get("source") or layer.get("uri")):
            yield layer


def _layer_lines(layer: dict[str, Any]) -> list[str]:
    source = str(layer.get("source") or layer.get("uri"))
    name = str(layer.get("name") or "layer")
    raster = layer.get("kind", "raster") == "raster"
    cls, provider = ("QgsRasterLayer", layer.get("provider") or "gdal") if raster else \
        ("QgsVectorLayer", layer.get("provider") or "ogr")
    return [
        f"layer = {cls}({source!r}, {name!r}, {str(provider)!r})",
        "if layer.isValid():",
        "    project.addMapLayer(layer)",
        "else:",
        f"    print('Could not open', {source!r})",
    ]


def _extent_lines(extent: Sequence[float], crs: str) -> list[str]:
    xmin, ymin, xmax, ymax = (float(v) for v in extent)
    return [
        f"to_canvas = QgsCoordinateTransform(QgsCoordinateReferenceSystem({crs!r}),",
        "                                   canvas.mapSettings().destinationCrs(), project)",
        f"canvas.setExtent(to_canvas.transformBoundingBox(QgsRectangle({xmin!r}, {ymin!r}, {xmax!r}, {ymax!r})))",
        "canvas.refresh()",
    ]
