"""Exports a user can keep: the conversation as Markdown (the map as a script: test_ui_project_script.py)."""

from __future__ import annotations

from stacgis_agent.agent.events import AskUser, Content, Done, ToolResult, ToolStart, event_to_dict
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.ui.exports import session_to_markdown

SOURCE = "/vsicurl/https://example.org/S2B_31TFL_20230612/B04.tif"


def _record() -> SessionRecord:
    events = [{"type": "user", "text": "Show Sentinel-2 red band over Lyon"}] + [event_to_dict(e) for e in (
        ToolStart(1, "c1", "search_items", {"bbox": [4.7, 45.6, 5.0, 45.9]}),
        ToolResult(1, "c1", "search_items", {"count": 1}, 80.0),
        ToolStart(2, "c2", "add_asset_layer", {"item": "S2B_31TFL", "asset": "B04"}),
        ToolResult(2, "c2", "add_asset_layer",  # the shape the canvas tools report (tools/canvas/layers/stac_layers.py)
                   {"group": None, "items": 1, "layers": [{"name": "B04 'red'", "id": "b04_1", "source": SOURCE,
                                                            "crs": "EPSG:32631", "renderer": "singlebandgray"}]},
                   300.0),
        ToolStart(3, "c3", "zoom_to", {"place": "Lyon\nnow"}),
        ToolResult(3, "c3", "zoom_to", {"extent": [4.7, 45.6, 5.0, 45.9], "crs": "EPSG:4326"}, 5.0),
        AskUser("r1", "Style it?", ("Yes", "No")),
        Content("Added the red band "), Content("and zoomed to **Lyon**."),
        Done("s1", "m1", "Added the red band and zoomed to **Lyon**.", 1.0),
    )]
    return SessionRecord(SessionInfo("s1", "default", "Lyon red band", 0.0, 1.0, 2), {}, events)


def test_markdown_export_has_the_conversation_and_the_tool_calls_in_order():
    text = session_to_markdown(_record())
    assert text.startswith("# Lyon red band\n")
    order = ["**You:**", "Show Sentinel-2 red band over Lyon", "> Called `search_items`", '"bbox": [',
             "> `search_items` completed in 80 ms", "> Called `add_asset_layer`", "> Called `zoom_to`",
             "> Asked: Style it? (Yes / No)", "**Assistant:**", "Added the red band and zoomed to **Lyon**."]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
