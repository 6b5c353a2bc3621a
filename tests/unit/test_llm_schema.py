"""format_tools on the schemas mcp 2.x really generates, sent to the emulator over HTTP."""
# ruff: noqa: UP045  - tools written with Optional[...] on purpose: that is what the schemas come from

from __future__ import annotations

from typing import Literal, Optional

import jsonschema
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.llm.schema import format_tools, sanitize_schema
from testkit.llm.ollama_emulator import OllamaEmulator, Turn

OLLAMA_KEEPS = {"type", "description", "enum", "properties", "required", "items", "anyOf"}


class BBox(BaseModel):
    """A lon/lat bounding box in degrees."""

    west: float
    south: float
    east: float
    north: float


class Window(BaseModel):
    start: str = Field(description="ISO 8601 start date")
    end: Optional[str] = Field(None, description="ISO 8601 end date; open-ended when absent")


class Search(BaseModel):
    collection: str = Field(description="STAC collection id, e.g. sentinel-2-l2a")
    bbox: Optional[BBox] = None
    window: Window
    max_cloud: float = Field(20, ge=0, le=100, description="Highest cloud cover in percent")


def build_server() -> MCPServer:
    server = MCPServer("schema-check")

    @server.tool()
    def search_items(search: Search, limit: int = 10, sort: Literal["asc", "desc"] = "desc",
                     assets: Optional[list[str]] = None, band: Literal["red"] = "red",
                     boxes: list[BBox] | None = None) -> dict:
        """Search a STAC catalog."""
        return {}

    @server.tool()
    async def zoom_to(layer_id: str, scale: Optional[int] = Field(None, description="map scale 1:N")) -> str:
        """Zoom the map to a layer."""
        return layer_id

    @server.tool()
    def refresh() -> str:
        """Refresh the canvas."""
        return "ok"

    return server


@pytest.fixture
async def mcp_tools():
    async with Client(build_server()) as client:
        return (await client.list_tools()).tools


def walk(schema):
    """Every schema node, skipping the names inside `properties`."""
    yield schema
    for sub in (schema.get("properties") or {}).values():
        yield from walk(sub)
    if isinstance(schema.get("items"), dict):
        yield from walk(schema["items"])
    for sub in schema.get("anyOf") or ():
        yield from walk(sub)


async def test_formatted_tools_keep_only_what_ollama_reads(mcp_tools):
    specs = {s["function"]["name"]: s for s in format_tools(mcp_tools)}
    assert set(specs) == {"search_items", "zoom_to", "refresh"}
    for spec in specs.values():
        assert spec["type"] == "function"
        for node in walk(spec["function"]["parameters"]):
            assert set(node) <= OLLAMA_KEEPS, node
            assert node.get("required", ["x"]), "empty required lists are dropped"
    assert specs["refresh"]["function"] == {"name": "refresh", "description": "Refresh the canvas.",
                                            "parameters": {"type": "object", "properties": {}}}


async def test_every_property_keeps_its_type_and_description(mcp_tools):
    specs = {s["function"]["name"]: s["function"] for s in format_tools(mcp_tools)}
    params = specs["search_items"]["parameters"]
    props = params["properties"]
    assert params["required"] == ["search"]
    search = props["search"]  # was a $ref into $defs
    assert search["type"] == "object" and search["required"] == ["collection", "window"]
    assert search["properties"]["collection"] == {"type": "string",
                                                  "description": "STAC collection id, e.g. sentinel-2-l2a"}
    bbox = search["properties"]["bbox"]  # Optional[model]: anyOf [$ref, null]
    assert bbox["type"] == "object" and bbox["description"] == "A lon/lat bounding box in degrees."
    assert {k: v["type"] for k, v in bbox["properties"].items()} == dict.fromkeys(
        ("west", "south", "east", "north"), "number")
    window = search["properties"]["window"]
    assert window["properties"]["end"] == {"type": "string",
                                           "description": "ISO 8601 end date; open-ended when absent"}
    cloud = search["properties"]["max_cloud"]
    assert cloud["type"] == "number"
    assert cloud["description"] == "Highest cloud cover in percent (0 to 100, default 20)"
    assert props["limit"] == {"type": "integer", "description": "(default 10)"}
    assert props["sort"]["enum"] == ["asc", "desc"] and props["sort"]["type"] == "string"
    assert props["band"]["enum"] == ["red"] and props["band"]["type"] == "string"  # single Literal → const
    assert props["assets"] == {"type": "array", "items": {"type": "string"}}
    assert props["boxes"]["type"] == "array" and props["boxes"]["items"]["required"] == [
        "west", "south", "east", "north"]
    assert specs["zoom_to"]["parameters"]["properties"]["scale"] == {"type": "integer",
                                                                     "description": "map scale 1:N"}


async def test_arguments_valid_for_the_sanitised_schema_are_valid_for_the_tool(mcp_tools):
    tool = next(t for t in mcp_tools if t.name == "search_items")
    clean = sanitize_schema(tool.input_schema)
    good = {"search": {"collection": "sentinel-2-l2a", "bbox": {"west": 4.7, "south": 45.6, "east": 5.0,
                                                                "north": 45.9},
                       "window": {"start": "2025-06-01"}}, "sort": "asc", "assets": ["red", "nir"]}
    jsonschema.validate(good, clean)
    jsonschema.validate(good, tool.input_schema)
    bad = {"search": {"bbox": {"west": "x"}}, "sort": "sideways"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, clean)


def test_self_referencing_models_and_unknown_refs_do_not_loop():
    schema = {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}, "x": {"$ref": "#/$defs/Gone"}},
              "$defs": {"Node": {"type": "object", "title": "Node",
                                 "properties": {"child": {"$ref": "#/$defs/Node"}}}}}
    clean = sanitize_schema(schema)
    depth, node = 0, clean["properties"]["node"]
    while "properties" in node:
        node, depth = node["properties"]["child"], depth + 1
    assert node["type"] == "object" and 5 < depth < 20
    assert clean["properties"]["x"] == {"type": "object"}


async def test_the_sanitised_tools_are_what_goes_over_the_wire(mcp_tools):
    specs = format_tools(mcp_tools)
    with OllamaEmulator() as emu:
        emu.script(Turn(tool_calls=[("zoom_to", {"layer_id": "roads"})]))
        provider = OllamaProvider(emu.url, "qwen3:8b")
        answer = await provider.chat([{"role": "user", "content": "zoom to roads"}], specs)
        await provider.aclose()
        sent = emu.chat_requests()[0]["tools"]
    assert sent == specs
    assert "$defs" not in str(sent) and "$ref" not in str(sent) and "title" not in str(sent)
    assert answer.tool_calls[0].name == "zoom_to"
