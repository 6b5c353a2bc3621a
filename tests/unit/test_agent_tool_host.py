from __future__ import annotations

import json

from stacgis_agent.agent.tool_host import ToolHost
from testkit.llm.toy_tools import build_toy_server


async def test_one_long_lived_client_lists_validates_calls_and_reads_resources():
    server, world = build_toy_server()
    host = ToolHost(server)
    await host.start()
    owner = host._owner
    try:
        assert {"search_items", "load_item", "remove_layer"} <= set(host.tools)
        assert {"layers://project", "collections://list"} <= host.resources
        assert host.validate("search_items", {"collection": "x", "bbox": [1, 2, 3, 4]}) == []
        assert host.validate("search_items", {"bbox": "Lyon"}) == [
            "arguments: 'collection' is a required property", "bbox: 'Lyon' is not of type 'array'"]
        assert host.validate("search_items", ["not", "an", "object"]) == ["arguments must be a JSON object, got list"]

        loaded = await host.call("load_item", {"item_id": "a"})
        assert loaded.ok and loaded.value == {"layer": "a:visual", "kind": "raster"}
        assert json.loads(loaded.text) == loaded.value
        text = await host.call("wait_for_data", {"seconds": 0})
        assert text.ok and text.value == "data ready" and text.text == "data ready"
        failed = await host.call("search_items", {"collection": "nope", "bbox": [0, 0, 1, 1]})
        assert not failed.ok and "unknown collection 'nope'; call list_collections" in failed.text

        assert json.loads(await host.read_text("layers://project")) == [{"name": "a:visual", "type": "raster"}]
        assert await host.read_text("nothing://here") is None
        assert [name for name, _ in world.calls] == ["load_item", "wait_for_data", "search_items"]
    finally:
        await host.aclose()
    assert owner.done() and not host.started
