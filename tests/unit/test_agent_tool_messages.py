"""What the model reads back from a real tool (the embedded MCP server, in-process client):
the summary sentence the tool wrote and compact JSON; a failure as one sentence, then what to do."""

from __future__ import annotations

import json

import httpx
import pytest

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.agent.events import ToolError, ToolResult
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.llm.types import ChatOptions
from stacgis_agent.agent.loop import AgentLoop
from stacgis_agent.tools.deps import ToolDeps
from stacgis_agent.tools.server import build_server
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.servers.stac_api import collection_doc
from testkit.worlds import stac_fixtures


@pytest.fixture
async def chat(tmp_path):
    landcover = collection_doc("landcover", [0, 0, 1, 1], ["2020-01-01T00:00:00Z", None], title="Land cover",
                               item_assets={"map": {"title": "Land cover map", "roles": ["data"]}})
    catalog = stac_fixtures.write_static_catalog(tmp_path / "catalog",
                                                stac_fixtures.TestData(tmp_path, collections=[landcover]))
    settings = Settings(catalogs=[CatalogConfig(name="disk", url=str(catalog), kind="static")],
                        chat_model="qwen3:8b", ask_user_timeout_s=5.0)
    http = httpx.AsyncClient()
    deps = ToolDeps.from_settings(settings, http=http, work_dir=str(tmp_path / "out"))
    with OllamaEmulator() as emu:
        provider = OllamaProvider(emu.url, "qwen3:8b", options=ChatOptions.from_settings(settings), timeout_s=10)
        loop = AgentLoop(provider, build_server(deps), settings)
        yield emu, loop
        await loop.aclose()
        await provider.aclose()
    await http.aclose()


async def _run(loop: AgentLoop, message: str) -> list:
    return [event async for event in loop.run(message)]


async def test_the_model_reads_the_tools_summary_sentence_and_compact_json(chat):
    emu, loop = chat
    emu.script(Turn(tool_calls=[("get_collection_info", {"collection": "landcover"})]),
               Turn(content="Land cover, CC-BY-4.0."))
    events = await _run(loop, "What is the landcover collection?")

    result = next(e for e in events if isinstance(e, ToolResult))
    assert result.result["license"] == "CC-BY-4.0"  # the UI and the log keep the structured data
    observation = emu.chat_requests()[1]["messages"][-1]
    assert observation["role"] == "tool"
    summary, _, data = observation["content"].partition("\n")
    assert summary == "Collection 'landcover' (CC-BY-4.0); item assets: map"
    assert json.loads(data)["license"] == "CC-BY-4.0"
    assert '", "' not in data and '": ' not in data  # compact: no spaces after separators


async def test_a_failing_tool_reads_as_what_went_wrong_then_what_to_do(chat):
    emu, loop = chat
    emu.script(Turn(tool_calls=[("get_collection_info", {"collection": "sentinel-9"})]),
               Turn(content="There is no such collection."))
    events = await _run(loop, "Describe sentinel-9")

    error = next(e for e in events if isinstance(e, ToolError))
    assert error.error == ("Collection 'sentinel-9' is not in catalog 'disk'. Known collections: landcover. "
                           "Fix the arguments or try another tool.")
    observation = emu.chat_requests()[1]["messages"][-1]
    assert json.loads(observation["content"]) == {"error": error.error}  # the model reads the same sentence


def test_the_sdks_wrapping_and_pydantics_link_are_not_what_the_user_reads():
    from stacgis_agent.agent.tool_host import failed

    nested = failed("zoom_to_location", "Error executing tool zoom_to_location: Error executing tool geocode: "
                                        "no place named 'Lyonx'; did you mean 'Lyon'?")
    assert nested.text == "no place named 'Lyonx'; did you mean 'Lyon'? Fix the arguments or try another tool."
    pydantic = failed("search_items", "Error executing tool search_items: 1 validation error\nlimit\n  Input should "
                                      "be a valid integer [type=int_type]\n    For further information visit "
                                      "https://errors.pydantic.dev/2.11/v/int_type")
    assert "pydantic.dev" not in pydantic.text and pydantic.text.startswith("1 validation error\nlimit")
