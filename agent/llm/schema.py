"""MCP tool definitions → the tool format Ollama (and OpenAI-compatible servers) understand.

Ollama keeps only `type`, `anyOf`, `items`, `description`, `enum`, `properties` and `required`
and silently drops the rest, so a `$ref` property would reach the model as "any". We inline
references, collapse `Optional[...]`, and fold what would be lost (defaults, formats, bounds)
into the description, so the model still sees every property's type and meaning.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any, Iterable, Mapping

from .types import ToolSpec

log = logging.getLogger(__name__)

_KEPT = ("type", "description", "enum", "properties", "required", "items", "anyOf")
_BOUNDS = (("minimum", ">= {}"), ("maximum", "<= {}"), ("exclusiveMinimum", "> {}"),
           ("exclusiveMaximum", "< {}"), ("minItems", "at least {} items"), ("maxItems", "at most {} items"),
           ("format", "format {}"), ("pattern", "pattern {}"))
_MAX_DEPTH = 12  # a self-referencing model stops here as a plain object


def format_tools(mcp_tools: Iterable[Any]) -> list[ToolSpec]:
    """Each mcp `Tool` (or its dict form) as {"type": "function", "function": {...}}."""
    return [format_tool(tool) for tool in mcp_tools]


def format_tool(tool: Any) -> ToolSpec:
    name = _field(tool, "name")
    # a docstring's line breaks and indentation are tokens the model reads for nothing
    description = " ".join((_field(tool, "description") or _field(tool, "title") or "").split())
    schema = _field(tool, "input_schema", "inputSchema") or {}
    return {"type": "function", "function": {
        "name": name, "description": description, "parameters": sanitize_schema(schema)}}


def _field(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
        elif getattr(obj, name, None) is not None:
            return getattr(obj, name)
    return None


def sanitize_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON schema reduced to what Ollama keeps, with `$ref`s inlined and null variants gone."""
    root = dict(schema or {})
    defs = {**(root.get("definitions") or {}), **(root.get("$defs") or {})}
    clean = _clean(root, defs, 0)
    clean["type"] = "object"
    clean.setdefault("properties", {})
    return clean


def _resolve(ref: str, defs: Mapping[str, Any]) -> dict[str, Any]:
    name = ref.rsplit("/", 1)[-1]
    if name not in defs:
        log.warning("schema reference %s has no definition; sent as a plain object", ref)
        return {"type": "object"}
    return copy.deepcopy(defs[name])


def _clean(node: Any, defs: Mapping[str, Any], depth: int) -> dict[str, Any]:
    if not isinstance(node, Mapping):
        return {}
    node = dict(node)
    if depth > _MAX_DEPTH:
        return {"type": node.get("type", "object"), **({"description": node["description"]}
                                                        if "description" in node else {})}
    if "$ref" in node:  # sibling keys (a field's description) win over the definition's
        target = _resolve(node.pop("$ref"), defs)
        node = {**target, **{k: v for k, v in node.items() if k not in ("title",)}}
        if "description" not in node and "description" in target:
            node["description"] = target["description"]
    for key in ("allOf",):
        if key in node and len(node[key]) == 1:  # pydantic wraps a described $ref in allOf
            inner = node.pop(key)[0]
            node = {**_clean(inner, defs, depth + 1), **{k: v for k, v in node.items() if k != "title"}}
    variants = node.pop("anyOf", None) or node.pop("oneOf", None)
    if variants:
        non_null = [v for v in variants if not (isinstance(v, Mapping) and v.get("type") == "null")]
        if len(non_null) == 1:
            merged = _clean(non_null[0], defs, depth + 1)
            node = {**merged, **{k: v for k, v in node.items() if k in ("description", "default")}}
        elif non_null:
            node["anyOf"] = [_clean(v, defs, depth + 1) for v in non_null]
    if isinstance(node.get("type"), list):
        types = [t for t in node["type"] if t != "null"]
        node["type"] = types[0] if len(types) == 1 else types
    if "const" in node and "enum" not in node:
        node["enum"] = [node["const"]]
    out: dict[str, Any] = {}
    for key in _KEPT:
        if key not in node:
            continue
        value = node[key]
        if key == "properties":
            value = {name: _clean(prop, defs, depth + 1) for name, prop in value.items()}
        elif key == "items":
            value = _clean(value, defs, depth + 1)
        elif key == "required":
            value = [name for name in value if name in node.get("properties", {})]
            if not value:
                continue
        out[key] = value
    if "enum" in out and "type" not in out:
        out["type"] = _enum_type(out["enum"])
    hints = _hints(node)
    if hints:
        out["description"] = (out.get("description", "").rstrip(". ") + " " + hints).lstrip()
    return out


def _enum_type(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    return "string"


def _hints(node: Mapping[str, Any]) -> str:
    """What Ollama would drop but the model needs to call correctly, in as few words as it takes."""
    parts = []
    if "minimum" in node and "maximum" in node:
        parts.append(f"{node['minimum']} to {node['maximum']}")
        node = {k: v for k, v in node.items() if k not in ("minimum", "maximum")}
    parts += [label.format(node[key]) for key, label in _BOUNDS if key in node]
    default = node.get("default")
    if default is not None and default is not False:  # an optional flag is off unless set: no need to say
        parts.append("default " + json.dumps(default, ensure_ascii=False))
    return ("(" + ", ".join(parts) + ")") if parts else ""
