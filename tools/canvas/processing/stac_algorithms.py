"""Processing algorithms that write STAC imagery as a raster file: "Load STAC items as a raster"
(`stacgis:loaditems`) and "Spectral index of a STAC item" (`stacgis:spectralindex`).

They run the code under the chat's tools, not a copy: `load_stac_items`' asset choice and mosaics
(`stac_layers.item_mosaics`) and `compute_index`'s index GeoTIFF (`engine.index_geotiff.index_raster`),
without a project. What they write lands only where the analyst chose: the mosaic's VRTs, the catalog's
header files (credentials) and the GeoTIFF being written live in a private temporary folder removed after
the run; the finished GeoTIFF, holding the pixels and never a path, a token or a secret, is then moved to
the destination, so a failed or cancelled run leaves a file already there untouched.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from qgis.core import (
    QgsProcessingException,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterString,
)

from ...common import ToolInputError, check_bbox
from ...engine.gdal_names import GdalName, dataset
from ...engine.gdal_scope import gdal_exceptions
from ...engine.index_geotiff import index_raster
from ...stac.search import ItemSearch
from ...stac.timeutil import normalise_interval
from ..layers.stac_layers import MAX_MOSAIC_ITEMS, item_mosaics, items_title
from .effects import is_provider_uri, real_path
from .outputs import file_target
from .runs import (
    INDICES,
    CancelledRun,
    StacGisAlgorithm,
    bbox_of,
    run_on_own_loop,
    text_of,
    tool_deps,
    watched,
)

GEOTIFF = (".tif", ".tiff")
GEOTIFF_OPTIONS = ["TILED=YES", "COMPRESS=DEFLATE", "BIGTIFF=IF_SAFER"]
_CLAUSE = re.compile(r";\s*nothing was added(?: to the map)?")  # the tools' words for the map, not a file
_SENTENCE = re.compile(r"\s+Nothing was added(?: to the map)?\.")


def checked_destination(path: str) -> Path:
    """The GeoTIFF file the analyst chose, as the OS will write it; refused (never written) when it is not a
    plain .tif file: a data-source URI, a folder, or a link (at the file or a sidecar GDAL writes beside it)
    that would send the pixels somewhere else than the path given."""
    if not path or is_provider_uri(path):
        raise QgsProcessingException(f"Choose a GeoTIFF file (.tif) as the output, not '{path}'.")
    given = Path(os.path.abspath(os.path.expanduser(path)))
    if given.suffix.lower() not in GEOTIFF:
        raise QgsProcessingException(f"The output is written as a GeoTIFF: choose a .tif file, not '{given.name}'.")
    if given.is_dir():
        raise QgsProcessingException(f"The output {given} is a folder; choose a .tif file.")
    links = [f for f in file_target(given, "tif").files() if f.is_symlink()]
    if links:
        raise QgsProcessingException(
            f"Refused to write {given}: {', '.join(str(f) for f in links)} is a link to "
            f"{real_path(str(links[0]))}, so the output would be written elsewhere. Choose another file.")
    given.parent.mkdir(parents=True, exist_ok=True)
    return given


def _sentence(exc: Exception) -> str:
    """A tool's refusal in Processing's words: the tools say nothing was added to the map; here no map is."""
    return _SENTENCE.sub("", _CLAUSE.sub("", str(exc)))


def _run(make: Any, feedback: Any) -> Any:
    """Runs the coroutine `make()` on a loop of its own; a tool's refusal or a cancel becomes a sentence. A
    cancel pressed while GDAL finished its last read in a worker still cancels: nothing is written."""
    try:
        outcome = run_on_own_loop(lambda: watched(make(), feedback))
    except CancelledRun:
        raise QgsProcessingException("Cancelled.") from None
    except ToolInputError as exc:
        raise QgsProcessingException(_sentence(exc)) from None
    if feedback.isCanceled():
        raise QgsProcessingException("Cancelled.")
    return outcome


class _Progress:
    """What the index engine reports as it reads items, shown in Processing's progress bar and log."""

    def __init__(self, feedback: Any) -> None:
        self.feedback = feedback

    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        if total:
            self.feedback.setProgress(100.0 * done / total)
        if message:
            self.feedback.setProgressText(message)


class LoadItems(StacGisAlgorithm):
    def name(self) -> str:
        return "loaditems"

    def displayName(self) -> str:  # noqa: N802 - QGIS's name
        return "Load STAC items as a raster"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS's name
        return ("Writes STAC items of a collection (by id, or found over an extent and dates) as one GeoTIFF: "
                "the asset you name, else the visual image, else red/green/blue, else the first data asset "
                "(as the chat's load_stac_items picks it), several items mosaicked. The file holds the pixels "
                "with the catalog's band names, nodata, scale and offset; no href and no credentials.")

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS's name
        self._common_parameters()
        self.addParameter(QgsProcessingParameterString("ITEM_IDS", "Item ids (comma-separated; empty: search the "
                                                       "extent and dates)", optional=True, defaultValue=""))
        self.addParameter(QgsProcessingParameterExtent("EXTENT", "…or an area to search", optional=True))
        self.addParameter(QgsProcessingParameterString("DATETIME", "Date or interval, e.g. 2024-06-01/2024-06-30",
                                                       optional=True))
        self.addParameter(QgsProcessingParameterNumber("MAX_ITEMS", "Most items", defaultValue=20, minValue=1,
                                                       maxValue=MAX_MOSAIC_ITEMS))
        self.addParameter(QgsProcessingParameterString("ASSET", "Asset key, e.g. visual, B04 (empty: the visual "
                                                       "image or red/green/blue)", optional=True, defaultValue=""))
        self.addParameter(QgsProcessingParameterRasterDestination("OUTPUT", "Raster"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS's name
        destination = checked_destination(self.parameterAsOutputLayer(parameters, "OUTPUT", context))
        collection = self.parameterAsString(parameters, "COLLECTION", context).strip()
        ids = [i.strip() for i in self.parameterAsString(parameters, "ITEM_IDS", context).split(",") if i.strip()]
        bbox = bbox_of(self, parameters, context)
        if not ids and bbox is None:
            raise QgsProcessingException("Give item ids, or an area (extent) and dates to search.")
        request = {"catalog": text_of(self, parameters, "CATALOG", context), "collection": collection, "ids": ids,
                   "bbox": bbox, "datetime": text_of(self, parameters, "DATETIME", context),
                   "limit": self.parameterAsInt(parameters, "MAX_ITEMS", context),
                   "asset": text_of(self, parameters, "ASSET", context)}
        with tempfile.TemporaryDirectory(prefix="stacgis-load-") as private:
            mosaic = _run(lambda: _mosaic(self._settings(), Path(private), request), feedback)
            feedback.pushInfo(f"Writing {mosaic['items']} item(s) ({mosaic['crs']}) to {destination}.")
            written = Path(private) / "output.tif"
            _write_geotiff(mosaic["path"], written, feedback)
            _move_into_place(written, destination)
        return {"OUTPUT": str(destination)}


async def _mosaic(settings: Any, private: Path, request: dict) -> dict:
    """The one mosaic (its VRT or file in `private`) of the requested items, built as load_stac_items builds it."""
    async with tool_deps(settings, private) as deps:
        cat = deps.catalogs.get(request["catalog"])
        collection = request["collection"]
        await cat.collection(collection)  # an unknown collection is named first, with the known ones
        if request["ids"]:
            items = list(await asyncio.gather(*(cat.item(collection, i) for i in request["ids"])))
        else:
            search = ItemSearch(collections=[collection], bbox=check_bbox(request["bbox"]),
                                datetime=normalise_interval(request["datetime"]), limit=request["limit"])
            items = (await cat.search(search)).items
            if not items:
                raise ToolInputError(f"No items of '{collection}' match that area and time; widen the extent or "
                                     "dates.")
        _choices, results = await item_mosaics(deps, cat, items, request["asset"], items_title(items, collection),
                                               private)
    if len(results) > 1:
        groups = "; ".join(f"{r['crs']}{' on ' + r['day'] if r['day'] else ''}: {', '.join(r['item_ids'])}"
                           for r in results)
        raise ToolInputError(f"These {len(items)} items make {len(results)} separate rasters (one per CRS and per "
                             f"day of a time series: {groups}), and the output is one file; give the ids or "
                             "dates of one group, or run once per group.")
    return {**results[0], "items": len(items)}


def _write_geotiff(source: GdalName, written: Path, feedback: Any) -> None:
    """The mosaic's pixels as a standalone GeoTIFF at `written`; Processing's cancel stops GDAL."""
    from osgeo import gdal

    def progress(done: float, _message: Any, _data: Any) -> int:
        feedback.setProgress(100.0 * done)
        return 0 if feedback.isCanceled() else 1

    try:
        with gdal_exceptions():
            mosaic = gdal.Open(dataset(source))  # the mosaic's own name (tools/canvas/layers/mosaic.py)
            written_set = gdal.Translate(str(written), mosaic, format="GTiff", creationOptions=GEOTIFF_OPTIONS,
                                         callback=progress)
            if written_set is None:
                raise RuntimeError("GDAL wrote nothing")
            written_set.FlushCache()
            written_set = mosaic = None
    except RuntimeError as exc:
        if feedback.isCanceled():
            raise QgsProcessingException("Cancelled.") from None
        raise QgsProcessingException(f"Could not write the raster: {str(exc)[:300]}") from None


def _move_into_place(written: Path, destination: Path) -> None:
    """The finished file at the destination; GDAL's statistics sidecar of a file it replaces goes with it."""
    stale = Path(f"{destination}.aux.xml")
    if stale.is_file() and not stale.is_symlink():
        stale.unlink()
    shutil.move(str(written), str(destination))


class SpectralIndex(StacGisAlgorithm):
    def name(self) -> str:
        return "spectralindex"

    def displayName(self) -> str:  # noqa: N802 - QGIS's name
        return "Spectral index of a STAC item"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS's name
        return ("Computes a spectral index (NDVI, NDWI, …) of one STAC item from its bands, found by their STAC "
                "common names with scale, offset and nodata applied and clouds masked where the item has a "
                "classification (SCL), and writes it as a float GeoTIFF: the same pixels as the chat's "
                "compute_index.")

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS's name
        self._common_parameters()
        self.addParameter(QgsProcessingParameterString("ITEM_ID", "Item id"))
        self.addParameter(QgsProcessingParameterEnum("INDEX", "Spectral index", options=list(INDICES), defaultValue=0))
        self.addParameter(QgsProcessingParameterBoolean("MASK_CLOUDS", "Hide cloud and shadow pixels (SCL)",
                                                        defaultValue=True))
        self.addParameter(QgsProcessingParameterBoolean("EXACT", "Full resolution (slower)", defaultValue=False))
        self.addParameter(QgsProcessingParameterRasterDestination("OUTPUT", "Index"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS's name
        destination = checked_destination(self.parameterAsOutputLayer(parameters, "OUTPUT", context))
        request = {"catalog": text_of(self, parameters, "CATALOG", context),
                   "collection": self.parameterAsString(parameters, "COLLECTION", context).strip(),
                   "item_id": self.parameterAsString(parameters, "ITEM_ID", context).strip(),
                   "index": INDICES[self.parameterAsEnum(parameters, "INDEX", context)],
                   "exact": self.parameterAsBool(parameters, "EXACT", context),
                   "mask_clouds": self.parameterAsBool(parameters, "MASK_CLOUDS", context)}
        if not request["item_id"]:
            raise QgsProcessingException("Give the id of the item.")
        with tempfile.TemporaryDirectory(prefix="stacgis-index-") as private:
            written = Path(private) / "output.tif"
            data = _run(lambda: _index(self._settings(), Path(private), request, written, feedback), feedback)
            _move_into_place(written, destination)
        feedback.pushInfo(f"{data['legend']}; mean {data['mean']:.4f}, read at {data['resolution']}.")
        return {"OUTPUT": str(destination)}


async def _index(settings: Any, private: Path, request: dict, written: Path, feedback: Any) -> dict:
    """compute_index's GeoTIFF for one item (no area: the item's footprint), written at `written`."""
    async with tool_deps(settings, private) as deps:
        cat = deps.catalogs.get(request["catalog"])
        collection_doc = await cat.collection(request["collection"])
        item = await cat.item(request["collection"], request["item_id"])
        return await index_raster(deps, [item], collection_doc, None, request["index"], written,
                                  exact=request["exact"], mask_clouds=request["mask_clouds"],
                                  ctx=_Progress(feedback), catalog=cat.name)
