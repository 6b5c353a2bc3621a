from __future__ import annotations

from stacgis_agent.agent.map_context import LayerInfo, MapContext
from stacgis_agent.agent.permissions import Policy
from stacgis_agent.agent.safety import Safety


def _tool(name, read=False, destructive=False, **stacgis):
    return {"name": name, "annotations": {"readOnlyHint": read, "destructiveHint": destructive},
            "meta": {"stacgis": stacgis}}


TOOLS = [
    _tool("search_items", read=True, discovery=True),
    _tool("load_item", provides=["raster_layer"]),
    _tool("raster_stats", read=True, requires=["raster_layer"]),
    _tool("remove_layer", destructive=True, requires=["layer"]),
    _tool("remember", always=True),
]


def test_allow_list_follows_the_state_and_refreshes_after_a_state_change():
    policy = Policy.from_tools(TOOLS)
    assert policy.rules["remove_layer"].safety is Safety.DESTRUCTIVE
    assert policy.allowed() == {"search_items", "load_item", "remember"}
    assert "needs raster layer" in policy.why_not_allowed("raster_stats")
    assert "First use one of: load_item" in policy.why_not_allowed("raster_stats")
    assert policy.after_call("load_item", ok=True) is True
    assert policy.allowed() == {n["name"] for n in TOOLS}  # layer is implied by raster_layer
    assert policy.after_call("load_item", ok=True) is False


def test_map_context_gives_the_starting_state():
    ctx = MapContext(layers=(LayerInfo("dem", kind="raster"),),
                     selected_features={"type": "FeatureCollection", "features": [{"type": "Feature"}]})
    policy = Policy.from_tools(TOOLS)
    policy.set_state(ctx.states())
    assert {"raster_stats", "remove_layer"} <= policy.allowed()
    assert ctx.states() == {"qgis", "layer", "raster_layer", "selection"}


def test_exploration_budget_counts_consecutive_discovery_calls_only():
    policy = Policy.from_tools(TOOLS, exploration_budget=3)
    for _ in range(2):
        policy.after_call("search_items", ok=True)
    assert not policy.exploration_exhausted()
    policy.after_call("load_item", ok=True)  # progress resets the streak
    for _ in range(3):
        policy.after_call("search_items", ok=True)
    assert policy.exploration_exhausted()
    policy.reset_exploration()
    assert not policy.exploration_exhausted()


def test_required_tools_are_the_always_ones_that_are_allowed():
    assert Policy.from_tools(TOOLS).required_tools() == ["remember"]


def test_layer_states_follow_the_project_after_a_change():
    policy = Policy.from_tools(TOOLS)
    policy.set_state({"qgis", "selection", "vector_layer", "layer"})
    assert policy.set_layer_states(["raster"]) is True
    assert policy.state == {"qgis", "selection", "layer", "raster_layer"}
    assert policy.set_layer_states(["raster"]) is False
    policy.set_layer_states([])
    assert policy.state == {"qgis", "selection"}
