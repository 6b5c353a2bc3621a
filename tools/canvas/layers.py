"""Layer housekeeping tools: remove_layer (destructive, waits for the OK) and undo_last_turn."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from ..common import DESTRUCTIVE, WRITE, ToolInputError, ok, policy
from ..deps import ToolDeps
from .project_access import find_layer, history_of, project_of


def register(server: MCPServer, deps: ToolDeps) -> None:
    @server.tool(annotations=DESTRUCTIVE, meta=policy(requires=["qgis"], undoable=True))
    async def remove_layer(
        layer: Annotated[str, Field(description="Layer name (or id) to remove from the project")],
    ) -> CallToolResult:
        """Remove a layer from the project (the user confirms first; undo_last_turn brings it back)."""
        project = project_of(deps)
        target = find_layer(project, layer)
        name = target.name()
        history_of(deps).take_layer(target)
        return ok({"removed": name}, f"Removed layer '{name}'")

    @server.tool(annotations=WRITE, meta=policy(requires=["qgis"]))
    async def undo_last_turn() -> CallToolResult:
        """Undo every map change (layers, styles, extent, CRS, basemap) made by the previous request. E.g. 'undo that'."""
        turn = history_of(deps).undo_last_turn(skip_open=True)
        if turn is None:
            raise ToolInputError("There is no earlier change of the agent to undo.")
        undone = [c.description for c in turn.changes if c.undone]  # files it wrote stay (the History tab moves them)
        return ok({"turn": turn.turn_id, "undone": undone,
                   "kept": [c.description for c in turn.changes if not c.undone]},
                  f"Undid {len(undone)} change(s) of the earlier request")
