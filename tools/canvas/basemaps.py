"""set_map_style: a basemap (XYZ tiles, or none when offline), the canvas background, the project CRS."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import QgsCoordinateReferenceSystem, QgsRasterLayer
from qgis.PyQt.QtGui import QColor

from ..common import WRITE, ToolInputError, ok, policy
from ..declare import deps_of, tool
from ..deps import ToolDeps
from ..engine.fetched_urls import xyz_source
from ..engine.gdal_names import rules_for
from .project_access import canvas_of, history_of, project_of

BASEMAP_PROPERTY = "stacgis/basemap"
BASEMAPS = {
    "openstreetmap": ("OpenStreetMap", "https://tile.openstreetmap.org/{z}/{x}/{y}.png", 19),
    "opentopomap": ("OpenTopoMap", "https://tile.opentopomap.org/{z}/{x}/{y}.png", 17),
    "esri world imagery": ("Esri World Imagery",
                           "https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}", 19),
    "carto light": ("CARTO Light", "https://basemaps.cartocdn.com/light_all/{z}/{x}/{y}.png", 20),
}


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def set_map_style(
    ctx: Context,
    basemap: Annotated[str | None, Field(
        description="'OpenStreetMap', 'OpenTopoMap', 'Esri World Imagery', 'CARTO Light', 'none' (offline)")] = None,
    basemap_url: Annotated[str | None, Field(description="A custom XYZ tile URL with {x} {y} {z}")] = None,
    background: Annotated[str | None, Field(description="Canvas background colour, '#rrggbb' or a name")] = None,
    crs: Annotated[str | None, Field(description="Project/map CRS, e.g. 'EPSG:3857' or 'EPSG:2154'")] = None,
) -> CallToolResult:
    """Change the map itself: basemap (or none), canvas background colour, project CRS. E.g. 'switch the project to Lambert-93'."""
    deps = deps_of(ctx)
    project = project_of(deps)
    canvas = canvas_of(deps)
    history = history_of(deps)
    done = []
    if basemap is not None or basemap_url:
        done.append(_set_basemap(deps, basemap or "custom", basemap_url))
    if background:
        colour = QColor(background)
        if not colour.isValid():
            raise ToolInputError(f"'{background}' is not a colour; use '#rrggbb' or a name like 'white'.")
        history.background_changing(canvas)
        canvas.setCanvasColor(colour)
        project.setBackgroundColor(colour)
        done.append(f"background {colour.name()}")
    if crs:
        target = QgsCoordinateReferenceSystem(crs)
        if not target.isValid():
            raise ToolInputError(f"Unknown CRS '{crs}'; give it like 'EPSG:3857'.")
        history.view_changing(canvas)
        centre_extent = canvas.extent()
        old = canvas.mapSettings().destinationCrs()
        project.setCrs(target)
        canvas.setDestinationCrs(target)
        from qgis.core import QgsCoordinateTransform

        if not centre_extent.isEmpty():
            canvas.setExtent(QgsCoordinateTransform(old, target, project.transformContext())
                             .transformBoundingBox(centre_extent))
        done.append(f"CRS {target.authid()}")
    if not done:
        raise ToolInputError("Nothing to change: give basemap, basemap_url, background or crs.")
    canvas.refresh()
    return ok({"changes": done, "crs": canvas.mapSettings().destinationCrs().authid()},
              "Map style: " + ", ".join(done))


def _set_basemap(deps: ToolDeps, choice: str, url: str | None) -> str:
    project = project_of(deps)
    history = history_of(deps)
    off = choice.strip().lower() in ("none", "off", "no") and not url
    title, rules = "", rules_for(deps)
    if url:
        title, zmax = "Custom basemap", 19
    elif not off:
        key = choice.strip().lower()
        if key not in BASEMAPS:
            raise ToolInputError(f"Unknown basemap '{choice}'. Choose one of: "
                                 + ", ".join(v[0] for v in BASEMAPS.values()) + ", or none.")
        title, url, zmax = BASEMAPS[key]
    if url:  # the one guard of URLs QGIS fetches: http(s); an outside client reaches public or catalog hosts only
        xyz_source(url, zmax, rules)  # judged before the old basemap goes
    for layer in list(project.mapLayers().values()):
        if layer.customProperty(BASEMAP_PROPERTY):
            history.take_layer(layer)
    if off:
        return "no basemap"
    layer = QgsRasterLayer(xyz_source(url, zmax, rules), title, "wms")
    if not layer.isValid():
        raise ToolInputError(f"QGIS could not create the {title} tile layer.")
    layer.setCustomProperty(BASEMAP_PROPERTY, True)
    project.addMapLayer(layer, False)
    project.layerTreeRoot().addLayer(layer)  # at the bottom, under the data
    history.layer_added(layer)
    return f"basemap {title}"
