"""set_measurement_ellipsoid: the ellipsoid QGIS's own measurements use ($area, the Measure tool, Processing), kept in
the project (Project Properties ▸ General ▸ Measurements) and put back by Undo. With none, QGIS measures planar in
each layer's units: a Web Mercator area at 42° N comes out almost twice its size."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from ..analysis.measure_method import NO_ELLIPSOID, ellipsoid_name, known_ellipsoid
from ..common import WRITE, ToolInputError, ok, policy
from ..declare import deps_of, tool
from .project_access import history_of, project_of


@tool(annotations=WRITE, meta=policy(requires=["qgis"], undoable=True))
async def set_measurement_ellipsoid(
    ctx: Context,
    ellipsoid: Annotated[str, Field(description="'WGS 84', 'GRS 1980', an id such as 'EPSG:7030', or 'none' (planar)")],
) -> CallToolResult:
    """Set the project's measurement ellipsoid, used by QGIS's own $area and $length: 'WGS 84', 'GRS 1980', 'EPSG:7030' or 'none' (planar). E.g. 'measure on the GRS 1980 ellipsoid'."""
    deps = deps_of(ctx)
    project = project_of(deps)
    if not project.crs().isValid():
        raise ToolInputError("The project has no CRS yet, and QGIS keeps no ellipsoid without one; add a layer or "
                             "set the project's CRS (set_map_style with crs) first.")
    wanted = "NONE" if ellipsoid.strip().upper() in (*NO_ELLIPSOID, "PLANAR") else known_ellipsoid(ellipsoid)
    if wanted is None:
        raise ToolInputError(f"Unknown ellipsoid '{ellipsoid}'; give a name such as 'WGS 84' or 'GRS 1980', an id "
                             "such as 'EPSG:7030', or 'none' for planar measurements.")
    before = project.ellipsoid()
    if wanted != before:
        history_of(deps).ellipsoid_changing()
        project.setEllipsoid(wanted)
    words = ellipsoid_name(wanted)
    return ok({"ellipsoid": wanted, "name": words, "before": before, "before_name": ellipsoid_name(before)},
              f"Measurement ellipsoid: {words} (was {ellipsoid_name(before)}).")
