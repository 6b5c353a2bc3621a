"""How a tool declares its safety, read from the MCP tool definition.

Convention for every tool module: MCP ToolAnnotations carry the safety —
readOnlyHint=True → read; destructiveHint=True → destructive; otherwise write.
Extra policy facts go in the tool's meta under "stacgis": {"requires": [state, ...],
"discovery": bool} (the states the tool needs, e.g. "raster_layer"; discovery tools
count toward the exploration budget).
"""

from __future__ import annotations

import enum
from typing import Any, Iterable


class Safety(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"


def _get(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def tool_safety(tool: Any) -> Safety:
    """Safety of an mcp Tool (or its dict form); tools that say nothing count as write."""
    annotations = _get(tool, "annotations")
    if annotations is None:
        return Safety.WRITE
    if _get(annotations, "destructiveHint", "destructive_hint"):
        return Safety.DESTRUCTIVE
    if _get(annotations, "readOnlyHint", "read_only_hint"):
        return Safety.READ
    return Safety.WRITE


def tool_policy_meta(tool: Any) -> dict[str, Any]:
    meta = _get(tool, "meta", "_meta") or {}
    return dict(meta.get("stacgis", {})) if isinstance(meta, dict) else {}


def map_changing_tools(tools: Iterable[Any]) -> set[str]:
    """Names of the tools (mcp Tool objects) that are not read-only, from their safety annotation."""
    return {_get(tool, "name") for tool in tools if tool_safety(tool) is not Safety.READ}
