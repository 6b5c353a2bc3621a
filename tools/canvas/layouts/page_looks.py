"""How the layers look on a page, as a cartographer would sign it:
- outlines and labels over the imagery: vector layers are drawn above rasters whatever the project's order;
- a polygon layer over a raster is drawn as outlines (its fill would hide the raster), on the page only;
- an atlas page draws its own feature's outline boldly and the others thinly;
- a raster still in QGIS's default grey is given a style for what it measures (an index on its diverging ramp,
  an elevation on a hypsometric ramp), recognised from its STAC item (roles, `raster:bands` unit, common
  names) or its file's band description and unit; a layer the analyst styled keeps its style.
The layers' own styles change only for the grey ones (recorded for undo); the rest is a style override of the
page's map item, so the analyst's canvas stays as it was."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from qgis.core import (
    QgsFillSymbol,
    QgsMapLayer,
    QgsMapLayerStyle,
    QgsRasterLayer,
    QgsReadWriteContext,
    QgsSingleSymbolRenderer,
    QgsVectorLayer,
    QgsWkbTypes,
)
from qgis.PyQt.QtXml import QDomDocument

from ...analysis.expressions import atlas_outline_renderer
from ...deps import ToolDeps
from ...engine.gdal_names import GdalName, dataset, project_source
from ..layers.raster_styles import measured_unit, style_for, what_it_measures
from ..layers.styles import band_range
from ..project_access import history_of, layer_abstract
from .credits import catalog_for, collection_of

log = logging.getLogger(__name__)

OUTLINE_MM = 0.5
ATLAS_FEATURE = ("#e31a1c", 0.9)  # the page's own feature: colour, width in mm
ATLAS_OTHERS = ("#3a3a3a", 0.3)


def page_order(layers: list[QgsMapLayer]) -> list[QgsMapLayer]:
    """Vector layers over the rasters (a map item draws its first layer on top), each kind in its own order."""
    vectors = [lyr for lyr in layers if isinstance(lyr, QgsVectorLayer)]
    return vectors + [lyr for lyr in layers if not isinstance(lyr, QgsVectorLayer)]


def outline_overrides(layers: list[QgsMapLayer], coverage: QgsVectorLayer | None = None) -> dict[str, str]:
    """Style overrides for the page's map item, by layer id: polygons over a raster as outlines; an atlas
    coverage layer with the page's own feature bold. Built from constants: no text of a layer or model."""
    over_raster = any(isinstance(lyr, QgsRasterLayer) for lyr in layers)
    overrides = {}
    for layer in layers:
        if not isinstance(layer, QgsVectorLayer) or layer.geometryType() != QgsWkbTypes.PolygonGeometry:
            continue
        if layer is coverage:
            overrides[layer.id()] = _with_renderer(layer, _atlas_outlines())
        elif over_raster and isinstance(layer.renderer(), QgsSingleSymbolRenderer):
            overrides[layer.id()] = _with_renderer(layer, QgsSingleSymbolRenderer(_outline(layer.renderer().symbol())))
    return overrides


def _outline(symbol: Any) -> Any:
    """The layer's own symbol with its fills emptied and their strokes at least OUTLINE_MM wide."""
    outline = symbol.clone()
    for part in outline.symbolLayers():
        if hasattr(part, "setBrushStyle"):
            from qgis.PyQt.QtCore import Qt

            part.setBrushStyle(Qt.BrushStyle.NoBrush)
            if hasattr(part, "strokeWidth") and part.strokeWidth() < OUTLINE_MM:
                part.setStrokeWidth(OUTLINE_MM)
    return outline


def _atlas_outlines() -> Any:
    this_page, others = (QgsFillSymbol.createSimple({"style": "no", "outline_color": colour,
                                                     "outline_width": str(width), "outline_width_unit": "MM"})
                         for colour, width in (ATLAS_FEATURE, ATLAS_OTHERS))
    return atlas_outline_renderer(this_page, others)


def _with_renderer(layer: QgsVectorLayer, renderer: Any) -> str:
    """The layer's style as XML (labels included) with `renderer` in place of its own; the layer is not touched."""
    style = QgsMapLayerStyle()
    style.readFromLayer(layer)
    doc = QDomDocument()
    doc.setContent(style.xmlData())
    top = doc.documentElement()
    old = top.firstChildElement("renderer-v2")
    new = renderer.save(doc, QgsReadWriteContext())
    if old.isNull():
        top.appendChild(new)
    else:
        top.replaceChild(new, old)
    return doc.toString()


async def styled_for_page(deps: ToolDeps, layers: list[QgsMapLayer]) -> tuple[dict[str, str], list[str]]:
    """Units by layer id for the legend, and what was restyled, in words: rasters still in QGIS's default grey
    get a style for what they measure (their renderer changes, recorded for undo)."""
    units: dict[str, str] = {}
    restyled: list[str] = []
    for layer in layers:
        if not isinstance(layer, QgsRasterLayer) or layer.bandCount() != 1 or layer.providerType() != "gdal":
            continue
        described = await _described(deps, layer)
        if described["unit"]:
            units[layer.id()] = described["unit"]
        kind = what_it_measures(described["words"], described["unit"], described["roles"])
        if layer.renderer() is None or layer.renderer().type() != "singlebandgray" or kind == "other":
            continue
        try:
            low, high = await band_range(layer, 1)
        except Exception as exc:  # noqa: BLE001 - a page in grey rather than no page
            log.info("no range for %s: %s", layer.name(), exc)
            continue
        history_of(deps).renderer_changing(layer)
        how = style_for(layer, kind, low, high, described["unit"])
        layer.triggerRepaint()
        restyled.append(f"'{layer.name()}' as {kind} ({how})")
    return units, restyled


async def _described(deps: ToolDeps, layer: QgsRasterLayer) -> dict[str, Any]:
    """What the layer's band is, from its STAC item when it has one, else from its file (read in a worker)."""
    file_band = await asyncio.to_thread(_file_band, project_source(layer.source()))
    words = [layer.name(), layer_abstract(layer), file_band["description"]]
    unit, roles = "", []
    try:
        band = await _stac_band(deps, layer, file_band["description"])
    except Exception as exc:  # noqa: BLE001 - the catalog may be offline: the file still says something
        log.info("no STAC description for %s: %s", layer.name(), exc)
        band = {}
    if band:
        words += [str(band.get(k) or "") for k in ("key", "name", "common_name", "description", "collection")]
        unit, roles = measured_unit(band.get("unit")), list(band.get("roles") or [])
    unit = unit or measured_unit(file_band["unit"])
    return {"words": " ".join(w for w in words if w), "unit": unit, "roles": roles}


def _file_band(source: GdalName) -> dict[str, str]:
    """Band 1's description and unit as the file says them (a worker: GDAL may read over the network)."""
    from ...engine.gdal_scope import gdal_exceptions

    try:
        from osgeo import gdal

        with gdal_exceptions():
            raster = gdal.Open(dataset(source))
            band = raster.GetRasterBand(1)
            return {"description": band.GetDescription() or "", "unit": band.GetUnitType() or ""}
    except Exception:  # noqa: BLE001 - nothing known rather than no page
        return {"description": "", "unit": ""}


async def _stac_band(deps: ToolDeps, layer: QgsRasterLayer, description: str) -> dict[str, Any]:
    """The STAC asset band the layer shows (the one its file's band is named after, or the item's only data
    asset): its key, names, unit and roles, with the collection's id."""
    from ...engine.stac_bands import asset_bands

    link = next((lnk for lnk in layer.metadata().links() if lnk.type == "STAC item"), None)
    if link is None:
        return {}
    catalog = catalog_for(deps, link.url or "")
    if catalog is None:
        return {}
    collection = collection_of(link.url or "")
    item = await catalog.item(collection, link.name)
    candidates = []
    for key, asset in (item.get("assets") or {}).items():
        roles = {str(r) for r in asset.get("roles") or []}
        if roles & {"thumbnail", "overview", "metadata"}:
            continue
        for band in asset_bands(asset)[:1]:
            candidates.append({"key": key, **band, "roles": sorted(roles), "collection": collection})
    named = [c for c in candidates if description and description in (c.get("common_name"), c.get("name"))]
    chosen = named or (candidates if len(candidates) == 1 else [])
    return chosen[0] if chosen else {}

