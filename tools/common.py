"""Shared conventions of every tool module: safety marks, result shape, input checks.

A tool family is a module whose tools are module-level functions marked
`@tool(annotations=READ|WRITE|DESTRUCTIVE, meta=policy(...))` (tools/declare.py), reaching the shared
dependencies with `deps_of(ctx)`; they return results built by `ok(data, summary)`, and anticipated
failures raise `ToolInputError` with a message saying what to do.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Sequence

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True)

MAX_TEXT_CHARS = 6000  # what a small model's context can afford per tool result


class ToolInputError(ToolError):
    """A failure the model can act on; the message says what to do next."""


def policy(requires: Sequence[str] = (), discovery: bool = False, undoable: bool = False,
           heavy: bool = False, judged: bool = False) -> dict[str, Any]:
    """`heavy`: a long analysis over many items; each client runs one at a time (tools.heavy_calls).
    `judged`: a READ tool whose arguments may be code (an expression calling env(), file_*…): its assessor judges
    every call, so read-only chats and clients are offered it and a call that is code still asks (agent/safety.py)."""
    meta = {"requires": list(requires), "discovery": discovery, "undoable": undoable}
    if heavy:
        meta["heavy"] = True
    if judged:
        meta["judged"] = True
    return {"stacgis": meta}


def ok(data: dict[str, Any], summary: str) -> CallToolResult:
    """Structured content for programs, plus a short summary and compact JSON for the model."""
    data = _json_safe(data)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS] + "…(truncated; narrow the request for more)"
    return CallToolResult(content=[TextContent(type="text", text=f"{summary}\n{text}")], structured_content=data)


def capped(items: Iterable[Any], limit: int) -> tuple[list[Any], int]:
    """The first `limit` items and how many were left out."""
    items = list(items)
    return items[:limit], max(0, len(items) - limit)


def _json_safe(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _json_safe(value.item())
    return value


def check_bbox(bbox: Sequence[float] | None, geographic: bool = True) -> list[float] | None:
    """A bbox [west, south, east, north]; in lon/lat unless `geographic` is False."""
    if bbox is None:
        return None
    if len(bbox) != 4 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in bbox):
        raise ToolInputError("bbox must be four numbers [west, south, east, north]")
    west, south, east, north = (float(v) for v in bbox)
    if south > north:
        raise ToolInputError(f"bbox south ({south}) is greater than north ({north}); swap them")
    if geographic:
        if not (-180 <= west <= 180 and -180 <= east <= 180 and -90 <= south <= 90 and -90 <= north <= 90):
            raise ToolInputError(
                "bbox is out of range for longitude/latitude (-180..180, -90..90); "
                "give it in degrees (EPSG:4326) as [west, south, east, north]")
        if west > east:
            raise ToolInputError(f"bbox west ({west}) is greater than east ({east}); "
                                 "give [west, south, east, north] (crossing the antimeridian is not supported)")
    elif west > east:
        raise ToolInputError(f"bbox minx ({west}) is greater than maxx ({east}); swap them")
    return [west, south, east, north]
