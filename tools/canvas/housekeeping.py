"""Layer housekeeping tools: remove_layer (destructive, waits for the OK) and undo_last_turn.

remove_layer's card says which layer goes, in words read from the project at that moment
(`assess_removal`): its name, what it holds, where its data lives, and that the chat's Undo brings it back.
"""

from __future__ import annotations

import logging
import re
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import QgsMapLayer, QgsProject, QgsRasterLayer, QgsVectorLayer

from ...agent.dock_text import translatable
from ..common import DESTRUCTIVE, WRITE, ToolInputError, ok, policy
from ..confirmation import Assessment
from ..declare import assesses, deps_of, tool
from ..deps import ToolDeps
from .project_access import find_layer, history_of, project_of
from .undo.owners import CALLER

log = logging.getLogger(__name__)
NAMES_SHOWN = 10  # layers named when the one asked for is not in the project
COUNTED_HERE = {"memory", "ogr", "spatialite", "delimitedtext", "gpx"}  # providers that know their count locally
# What "don't ask again" covers for remove_layer (agent/trust.py): taking layers off the map, which the chat's
# Undo brings back; their files are never touched
REMOVAL_KIND = translatable("take layers off the map (their files are not touched; Undo in the chat brings them back)")


@tool(annotations=DESTRUCTIVE, meta=policy(requires=["qgis"], undoable=True))
async def remove_layer(
    ctx: Context,
    layer: Annotated[str, Field(description="Layer name (or id) to remove from the project")],
) -> CallToolResult:
    """Remove a layer from the project (the user confirms first; undo_last_turn brings it back)."""
    deps = deps_of(ctx)
    project = project_of(deps)
    target = find_layer(project, layer)
    name = target.name()
    history_of(deps).take_layer(target)
    return ok({"removed": name}, f"Removed layer '{name}'")


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def undo_last_turn(ctx: Context) -> CallToolResult:
    """Undo every map change (layers, styles, extent, CRS, basemap) made by the previous request, going back to the map as it was before. E.g. 'undo that'."""
    deps = deps_of(ctx)
    history, owner = history_of(deps), CALLER.get()  # the caller, as the server knows it (undo/owners.py)
    turn = history.undo_last_turn(owner, skip_open=True)
    if turn is None and history.others_have_turns(owner):
        raise ToolInputError("There is no earlier change of yours to undo: the changes in the project's history "
                             "were made by someone else (the analyst or another client), and only they can undo them.")
    if turn is None:
        raise ToolInputError("There is no earlier change of the agent to undo.")
    undone = [c.description for c in turn.changes if c.undone]  # files it wrote stay (the History tab moves them)
    return ok({"turn": turn.turn_id, "undone": undone,
               "kept": [c.description for c in turn.changes if not c.undone]},
              f"Undid {len(undone)} change(s) of the earlier request")


@assesses("remove_layer")
async def assess(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    # an async def on the plugin's loop, like the tool itself: the project is read on the GUI thread
    return assess_removal(project_of(deps), str(arguments.get("layer", "")))


def assess_removal(project: QgsProject, wanted: str) -> Assessment:
    """What remove_layer(wanted) would do to this project; never raises (unknown state is said as such)."""
    try:
        try:
            layer = find_layer(project, wanted)
        except ToolInputError:
            names = sorted(lyr.name() for lyr in project.mapLayers().values())
            listed = ", ".join(repr(n) for n in names[:NAMES_SHOWN]) + (" …" if len(names) > NAMES_SHOWN else "")
            return Assessment(True, (f"no layer named {wanted!r} is in the project now (it holds {listed or 'no layers'}), "
                                     "so nothing would be removed",),
                              undoable=True, action=f"Remove {wanted!r}, a layer that is no longer in the project")
        words = layer_words(layer)
        return Assessment(True, (f"takes layer {words} off the map and out of the Layers panel", _data_words(layer)),
                          undoable=True, action=f"Remove layer {words} from the project", kind=REMOVAL_KIND)
    except Exception as exc:  # noqa: BLE001 - a card that says too little beats a call that cannot be judged
        log.warning("could not read layer %r for the confirmation card: %s", wanted, exc)
        return Assessment(True, (f"removes layer {wanted!r} from the project; its current state could not be read ({exc})",),
                          undoable=True, action=f"Remove layer {wanted!r} from the project")


def layer_words(layer: QgsMapLayer) -> str:
    """"'parcels' (4 features)", "'dem' (raster)": the layer as the analyst sees it in the Layers panel."""
    if isinstance(layer, QgsVectorLayer) and layer.providerType() not in COUNTED_HERE:
        held = f"{layer.providerType()} layer"  # its count would be a query to a server, on the GUI thread
    elif isinstance(layer, QgsVectorLayer):
        count = layer.featureCount()  # the count the provider took when it opened the layer
        held = f"{count} feature{'s' if count != 1 else ''}" if count >= 0 else "an unknown number of features"
    elif isinstance(layer, QgsRasterLayer):
        held = "raster"
    else:  # QgsMeshLayer → "mesh", QgsVectorTileLayer → "vector tile"
        held = re.sub(r"(?<!^)(?=[A-Z])", " ", type(layer).__name__.removeprefix("Qgs").removesuffix("Layer")).lower()
    return f"'{layer.name()}' ({held})"


def _data_words(layer: QgsMapLayer) -> str:
    if layer.providerType() == "memory":
        return (f"'{layer.name()}' is a memory layer: its features are in no file, so only the chat's Undo can "
                "bring them back")
    # publicSource: a database password or token in the URI stays off the card
    return f"its data ({layer.publicSource()}) is not changed or deleted"
