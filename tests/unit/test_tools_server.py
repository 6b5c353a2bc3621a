"""The embedded MCP server without QGIS: every tool declares its safety and describes itself;
memory, knowledge, discovery, resources, prompts and charts behave as the model relies on."""

from __future__ import annotations

import json
import struct

import httpx
import pytest
from mcp import Client

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.agent.safety import Safety, tool_policy_meta, tool_safety
from stacgis_agent.agent.stores.sqlite import SqliteMemoryStore
from stacgis_agent.tools.confirmation import ConfirmDestructiveMiddleware
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.llm.ollama_replies import embed_text
from testkit.servers.mcp_calls import OneShotClient

EXPECTED_TOOLS = {
    "list_catalogs", "search_collections", "get_collection_info", "search_items", "get_item", "get_raster_info",
    "get_raster_statistics", "query_raster_point", "query_multiple_rasters_point", "get_timeseries",
    "list_vector_layers", "query_vector_by_bbox", "get_vector_feature", "search_vector_features",
    "get_selected_features", "compute_zonal_stats", "detect_change", "generate_chart", "add_memory",
    "search_memories", "add_knowledge", "search_knowledge", "list_available_tools",
    "measure_area", "measure_length", "measure_distance", "count_within_distance", "select_within_distance"}
# search_vector_features: its expression may be code, judged by the gate (issue 40); select_within_distance selects
WRITE_TOOLS = {"detect_change", "generate_chart", "add_memory", "add_knowledge", "select_within_distance"}
JUDGED_READS = {"search_vector_features"}  # reads whose filter may be code: every call judged (agent.safety)


async def embed(texts):
    return [embed_text(t) for t in texts]


@pytest.fixture
def deps(tmp_path):
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"type": "Catalog", "id": "c", "description": "d", "stac_version": "1.0.0",
                                   "links": [{"rel": "child", "href": "./col.json"}]}))
    (tmp_path / "col.json").write_text(json.dumps({
        "type": "Collection", "id": "landcover", "title": "Land cover", "description": "Yearly land cover",
        "license": "CC-BY-4.0", "links": [], "extent": {"spatial": {"bbox": [[0, 0, 1, 1]]},
                                                       "temporal": {"interval": [["2020-01-01T00:00:00Z", None]]}}}))
    settings = Settings(catalogs=[CatalogConfig(name="disk", url=str(catalog), kind="static")], user="ana")
    return ToolDeps.from_settings(settings, http=httpx.AsyncClient(), work_dir=str(tmp_path / "out"),
                                  memory_store=SqliteMemoryStore(tmp_path / "m.db"),
                                  knowledge_store=SqliteMemoryStore(tmp_path / "m.db", table="knowledge"),
                                  embed=embed)


async def test_every_tool_declares_safety_policy_and_a_description(deps):
    async with Client(build_server(deps)) as client:
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} >= EXPECTED_TOOLS
    delete = next(t for t in tools if t.name == "delete_memory")
    assert tool_safety(delete) == Safety.DESTRUCTIVE and delete.annotations.read_only_hint is False
    for tool in tools:
        if tool.name not in EXPECTED_TOOLS:
            continue
        expected = Safety.WRITE if tool.name in WRITE_TOOLS else Safety.READ
        assert tool_safety(tool) == expected, tool.name
        assert bool(tool_policy_meta(tool).get("judged")) == (tool.name in JUDGED_READS), tool.name
        assert tool.annotations.destructive_hint is False
        assert "requires" in tool_policy_meta(tool)
        assert len(tool.description) > 30
        for name, prop in tool.input_schema.get("properties", {}).items():
            assert "type" in prop or "anyOf" in prop or "enum" in prop or "$ref" in prop, (tool.name, name)


async def test_delete_memory_is_judged_by_its_own_assessor_and_its_card_quotes_the_memory(deps):
    """The families without QGIS: a destructive tool is never left to the card that only names it (27.1);
    tests/qgis/test_confirmation_cards.py checks the same with the canvas family."""
    server = build_server(deps)
    destructive = {t.name for t in await server.list_tools() if tool_safety(t) is Safety.DESTRUCTIVE}
    assert destructive == {"delete_memory"} and destructive <= set(server._stacgis_assessors)
    memory_id = await deps.memory_store.add("ana", "Works in EPSG:2154", "preference", embed_text("EPSG:2154"))
    judged = await ConfirmDestructiveMiddleware(server).assess("delete_memory", {"memory_id": memory_id})
    assert judged.destructive and not judged.undoable
    assert judged.action == "Forget the remembered preference 'Works in EPSG:2154'"
    assert "'Works in EPSG:2154'" in judged.effects[0] and memory_id in judged.effects[0]


async def test_memory_round_trip_through_the_store_protocol(deps):
    client = OneShotClient(build_server(deps))
    added = await client.call_tool("add_memory", {"content": "The user's study area is the Rhone delta",
                                                  "kind": "place"})
    assert not added.is_error
    await client.call_tool("add_memory", {"content": "Prefers NDVI maps in green shades"})
    found = (await client.call_tool("search_memories", {"query": "where is the study area", "k": 1})).structured_content
    assert found["results"][0]["content"] == "The user's study area is the Rhone delta"
    assert found["results"][0]["kind"] == "place"
    assert (await deps.memory_store.recent("ana", 5))[0].user == "ana"
    recent = await build_server(deps).read_resource("memory://recent")
    assert len(json.loads(list(recent)[0].content)) == 2


async def test_knowledge_is_a_separate_store(deps):
    client = OneShotClient(build_server(deps))
    await client.call_tool("add_knowledge", {"content": "Sentinel-2 L2A reflectance scale is 0.0001",
                                             "source": "ESA"})
    hits = (await client.call_tool("search_knowledge", {"query": "Sentinel-2 scale"})).structured_content["results"]
    assert hits[0]["metadata"] == {"source": "ESA"}
    assert (await client.call_tool("search_memories", {"query": "Sentinel-2 scale"})).structured_content["results"] == []


async def test_memory_without_embeddings_says_what_to_do(deps):
    deps.embed = None
    result = await OneShotClient(build_server(deps)).call_tool("add_memory", {"content": "x"})
    assert result.is_error and "embedding model" in result.content[0].text


async def test_list_available_tools_filters_by_keyword_and_shows_safety(deps):
    result = await OneShotClient(build_server(deps)).call_tool("list_available_tools", {"keyword": "memor"})
    rows = result.structured_content["tools"]
    assert {r["name"]: r["safety"] for r in rows} == {"add_memory": "write", "search_memories": "read",
                                                      "delete_memory": "destructive"}


async def test_resources_and_session_statistics(deps):
    server = build_server(deps)
    client = OneShotClient(server)
    await client.call_tool("search_collections", {"query": "land"})
    await client.call_tool("search_items", {"bbox": [3, 2, 1, 0]})
    async with Client(server) as session:
        uris = {str(r.uri) for r in (await session.list_resources()).resources}
        assert uris == {"collections://list", "layers://project", "memory://recent", "analytics://summary"}
        collections = json.loads((await session.read_resource("collections://list")).contents[0].text)
        layers = json.loads((await session.read_resource("layers://project")).contents[0].text)
        summary = json.loads((await session.read_resource("analytics://summary")).contents[0].text)
    assert [(c["catalog"], c["kind"], c["collections"]) for c in collections] == [
        ("disk", "static", [{"id": "landcover"}])]
    assert collections[0]["catalog_text"]["titles"] == {"landcover": "Land cover"}  # inside the untrusted envelope
    assert layers == []
    assert summary["tool_calls"] == 2 and summary["tool_errors"] == 1
    assert summary["by_tool"]["search_items"]["errors"] == 1


async def test_prompts_fill_in_the_question(deps):
    async with Client(build_server(deps)) as session:
        names = {p.name for p in (await session.list_prompts()).prompts}
        prompt = await session.get_prompt("analysis_prompt", {"question": "mean NDVI in June", "area": "Lyon"})
    assert names == {"analysis_prompt", "query_prompt"}
    assert prompt.messages[0].content.text.startswith("Analyse Lyon: mean NDVI in June")


async def test_generate_chart_writes_a_png_and_returns_the_data(deps):
    client = OneShotClient(build_server(deps))
    result = await client.call_tool("generate_chart", {"chart_type": "bar", "x": ["June", "July"],
                                                       "series": {"NDVI": [0.41, 0.52], "EVI": [0.3, 0.35]},
                                                       "title": "Mean index"})
    data = result.structured_content
    with open(data["chart_file"], "rb") as f:
        header = f.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (640, 400)
    assert data["series"] == {"NDVI": [0.41, 0.52], "EVI": [0.3, 0.35]}
    bad = await client.call_tool("generate_chart", {"chart_type": "line", "x": [1, 2, 3], "series": {"a": [1]}})
    assert bad.is_error and "make them equal" in bad.content[0].text
    bad = await client.call_tool("generate_chart", {"chart_type": "pie", "x": ["a", "b"], "series": {"a": [1, -1]}})
    assert bad.is_error and "non-negative" in bad.content[0].text


async def test_tools_needing_qgis_say_so_without_a_project(deps):
    result = await OneShotClient(build_server(deps)).call_tool("list_vector_layers", {})
    assert result.is_error and "inside QGIS" in result.content[0].text


def test_href_to_gdal_path_and_options():
    from stacgis_agent.tools.engine.gdal_names import from_href

    assert from_href("https://x.org/a/B04.tif") == "/vsicurl/https://x.org/a/B04.tif"
    assert from_href("s3://bucket/key/B04.tif") == "/vsis3/bucket/key/B04.tif"
    assert from_href("gs://bucket/key.tif") == "/vsigs/bucket/key.tif"
    assert from_href("file:///data/a%20b.tif") == "/data/a b.tif"
    # credentials for these paths: tests/unit/test_stac_access.py; what is refused: test_sinks_gdal_names.py


def test_bands_from_stac_1_0_and_1_1_fields():
    from stacgis_agent.tools.engine.stac_bands import asset_bands

    v10 = {"eo:bands": [{"name": "B04", "common_name": "red"}],
           "raster:bands": [{"nodata": 0, "scale": 0.0001, "offset": -0.1, "data_type": "uint16"}]}
    v11 = {"bands": [{"name": "B04", "eo:common_name": "red", "nodata": 0, "raster:scale": 0.0001,
                      "raster:offset": -0.1, "data_type": "uint16"}]}
    assert asset_bands(v10) == asset_bands(v11) == [{"name": "B04", "common_name": "red", "nodata": 0,
                                                     "scale": 0.0001, "offset": -0.1, "data_type": "uint16"}]


def test_datetime_intervals():
    from stacgis_agent.tools.common import ToolInputError
    from stacgis_agent.tools.stac.timeutil import normalise_interval

    assert normalise_interval("2024-06-01") == "2024-06-01T00:00:00Z/2024-06-01T23:59:59Z"
    assert normalise_interval("../2024-06-30") == "../2024-06-30T23:59:59Z"
    assert normalise_interval("2024-06-01T10:00:00+02:00/..") == "2024-06-01T08:00:00Z/.."
    for bad in ("../..", "June", "2024-06-30/2024-06-01"):
        with pytest.raises(ToolInputError):
            normalise_interval(bad)

