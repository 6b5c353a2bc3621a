"""compute_index: a spectral index (NDVI, NDWI, …) of one STAC item, or a mosaic over an area and dates, put on
the map with a diverging ramp centred on 0; the layer's name and legend say the formula and the bands used."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import QgsRasterLayer

from ...analysis.collection_stats import area_of
from ...analysis.selected_features import selected_sources
from ...common import WRITE, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ...engine import collection_plan as plan
from ...engine.gdal_names import dataset, own_file
from ...engine.index_formulas import INDICES
from ...engine.index_geotiff import index_raster
from ...engine.provenance import analysis_record
from ...output_names import new_output_file
from ...stac.search import MAX_ITEMS, ItemSearch
from ...stac.timeutil import normalise_interval
from ..project_access import add_to_project, set_layer_abstract
from ..zoom import bring_into_view
from .raster_styles import pseudocolor
from .stac_layers import _link_metadata, _set_time


@tool(annotations=WRITE, meta=policy(requires=["qgis"], heavy=True))
async def compute_index(
    index: Annotated[str, Field(description="One of " + ", ".join(INDICES))],
    collection: Annotated[str, Field(description="Collection id")],
    item_id: Annotated[str | None, Field(description="One item; or give an area and datetime for a mosaic")] = None,
    datetime: Annotated[str | None, Field(description="Date or range of the mosaic, e.g. '2024-06-15'")] = None,
    bbox: Annotated[list[float] | None, Field(description="[west, south, east, north] in degrees")] = None,
    polygon: Annotated[dict | None, Field(description="GeoJSON Polygon in lon/lat")] = None,
    use_selected_features: Annotated[bool, Field(description="The area is the features selected on the map")] = False,
    exact: Annotated[bool, Field(description="Full resolution instead of overviews")] = False,
    mask_clouds: Annotated[bool, Field(description="Hide cloud/shadow classes of a classification asset (SCL)")] = True,
    catalog: Annotated[str | None, Field(description="Catalog name; default the first")] = None,
    ctx: Context = None,
) -> CallToolResult:
    """Compute a spectral index from an item's bands (by STAC common name, scale/offset/nodata applied) and show it on the map with a diverging ramp and a legend naming the formula and bands."""
    deps = deps_of(ctx)
    cat = deps.catalogs.get(catalog)
    collection_doc = await cat.collection(collection)
    area = None
    if item_id:
        items = [await cat.item(collection, item_id)]
        if bbox or polygon or use_selected_features:
            area = await area_of(deps, bbox, polygon, use_selected_features)
    else:
        if not datetime:
            raise ToolInputError("Give item_id for one item, or datetime and an area for a mosaic.")
        area = await area_of(deps, bbox, polygon, use_selected_features)
        outcome = await cat.search(ItemSearch(collections=[collection], intersects=area,
                                              datetime=normalise_interval(datetime), limit=MAX_ITEMS))
        items = plan.items_meeting(outcome.items, area)
        if not items:
            raise ToolInputError(f"No item of '{collection}' over the area in {datetime}; widen the dates.")
    name = index.strip().upper()
    out = new_output_file(deps.output_dir(), [name, collection], ".tif")
    data = await index_raster(deps, items, collection_doc, area, name, out, exact=exact, mask_clouds=mask_clouds,
                              ctx=ctx, catalog=cat.name)
    when = item_id or datetime
    layer = QgsRasterLayer(dataset(own_file(out, deps.output_dir())), f"{data['index']} {when} — {data['legend']}", "gdal")
    if not layer.isValid():
        raise ToolInputError(f"QGIS cannot open {out.name}; nothing was added to the map.")
    bound = max(abs(data["p2"]), abs(data["p98"])) or 1.0
    renderer = pseudocolor(layer, 1, -bound, bound, data["ramp"], data["invert_ramp"])
    _label_legend(renderer, data["index"], data["formula"])
    set_layer_abstract(layer, f"{data['legend']}. Items: {', '.join(data['items'])}. Read at {data['resolution']}.")
    _link_metadata(layer, items, data["items"], cat.config.url)  # a print layout's credits read these
    used = sorted(str((i.get("properties") or {}).get("datetime") or "") for i in items
                  if str(i.get("id")) in data["items"])
    _set_time(layer, used[0] if used and used[0] else None, used[-1] if used else None)
    add_to_project(deps, [layer])
    data["layer"] = layer.name()
    data["provenance"] = analysis_record(
        "compute_index", {"index": index, "collection": collection, "item_id": item_id, "bbox": bbox,
                          "polygon": polygon, "exact": exact, "mask_clouds": mask_clouds},
        catalog=cat.name, catalog_url=str(cat.config.url), collection=collection,
        datetime=normalise_interval(datetime) if datetime else None,
        items=data["items"], bands=data["bands"], mask=data.get("cloud_mask"), area=area,
        selected=selected_sources(deps.project()) if use_selected_features and deps.project() else None,
        resolution=data["resolution"], grid_crs=data["grid_crs"])
    view, view_words = bring_into_view(deps, [layer])
    data.update(view)
    return ok(data, f"Added '{layer.name()}' ({len(data['items'])} item(s), mean {data['mean']:.3f}, "
                    f"read at {data['resolution']}){view_words}")


def _label_legend(renderer, index: str, formula: str) -> None:
    """The ramp's end labels carry the formula, so the layer legend itself says what is drawn."""
    shader = renderer.shader().rasterShaderFunction()
    items = shader.colorRampItemList()
    if items:
        items[0].label = f"{items[0].value:.2f}  {index} = {formula}"
        items[-1].label = f"{items[-1].value:.2f}"
        shader.setColorRampItemList(items)
