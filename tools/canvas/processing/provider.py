"""The product's analyses in QGIS's own machinery: a Processing provider "STAC GIS Agent" (id `stacgis`).

Its algorithms are the MCP tools themselves, called in-process (one implementation, two faces): an
algorithm builds the tool server for its own run, with its own HTTP client and asyncio loop in
Processing's worker thread, and no QGIS project (the tools get plain values: an extent in degrees,
dates, an index). So they run in Processing's task with its feedback and cancel, in batch mode, in
the Modeler and from `processing.run("stacgis:…")`, and give the numbers the chat gives. The two that
write rasters (processing_stac_algorithms.py) call the functions under load_stac_items and compute_index
that return files, as a tool that adds layers to a project cannot run in Processing's worker.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qgis.core import (
    QgsFeature,
    QgsFeatureSink,
    QgsField,
    QgsFields,
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputFile,
    QgsProcessingParameterBand,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterExtent,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsProcessingProvider,
    QgsVectorLayer,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QMetaType

from ....agent.config import Settings
from ...engine.gdal_names import dataset, own_file
from .runs import (
    INDICES,
    WGS84,
    CancelledRun,
    OutputsSource,
    ServerSource,
    SettingsSource,
    StacGisAlgorithm,
    run_on_own_loop,
    tool_deps,
    watched,
)
from .runs import bbox_of as _bbox
from .runs import text_of as _text
from .stac_algorithms import LoadItems, SpectralIndex

GROUPS = ("date", "week", "month")
__all__ = ["StacGisProvider", "INDICES", "WGS84"]


class StacGisProvider(QgsProcessingProvider):
    def __init__(self, settings: SettingsSource, outputs: OutputsSource, serve: ServerSource):
        super().__init__()
        self._sources = (settings, outputs, serve)  # what every algorithm reads when it runs, not before

    def id(self) -> str:
        return "stacgis"

    def name(self) -> str:
        return "STAC GIS Agent"

    def longName(self) -> str:  # noqa: N802 - QGIS's name
        return "STAC GIS Agent: STAC catalogs and collection statistics"

    def loadAlgorithms(self) -> None:  # noqa: N802 - QGIS's name
        for algorithm in (SearchFootprints, CollectionStatistics, ZonalStatistics, LoadItems,
                          SpectralIndex):  # the whole registry
            self.addAlgorithm(algorithm(*self._sources))


class _ToolAlgorithm(StacGisAlgorithm):
    """An algorithm whose work is one MCP tool call."""

    tool = ""

    def _cloud_parameter(self, description: str) -> None:
        self.addParameter(QgsProcessingParameterNumber("MAX_CLOUD", description, optional=True,
                                                       type=QgsProcessingParameterNumber.Double, minValue=0,
                                                       maxValue=100))

    def _cloud_limit(self, parameters: dict, context: Any) -> float | None:
        """The cloud limit in percent, or None when left empty (not 0: no limit)."""
        if parameters.get("MAX_CLOUD") in (None, ""):
            return None
        return self.parameterAsDouble(parameters, "MAX_CLOUD", context)

    def call(self, arguments: dict[str, Any], feedback: Any) -> dict[str, Any]:
        """Runs the tool on a loop of this worker thread's own; Processing's cancel stops it."""
        outcome = run_on_own_loop(lambda: _call_tool(self._serve, self._settings(), self._outputs(), self.tool,
                                                      arguments, feedback))
        if outcome.get("error"):
            raise QgsProcessingException(outcome["error"])
        feedback.pushInfo(outcome.get("summary", ""))
        return outcome["data"]


async def _call_tool(serve: ServerSource, settings: Settings, outputs: Path, name: str, arguments: dict,
                     feedback: Any) -> dict:
    from mcp import Client

    async with tool_deps(settings, outputs) as deps:
        async with Client(serve(deps)) as session:
            try:
                result = await watched(session.call_tool(name, {k: v for k, v in arguments.items() if v is not None}),
                                       feedback)
            except CancelledRun:
                return {"error": "Cancelled."}
    text = result.content[0].text if result.content else ""
    if result.is_error:
        return {"error": text or f"{name} failed"}
    return {"data": result.structured_content or {}, "summary": text.split("\n", 1)[0]}


class SearchFootprints(_ToolAlgorithm):
    tool = "search_items"

    def name(self) -> str:
        return "searchfootprints"

    def displayName(self) -> str:  # noqa: N802 - QGIS's name
        return "Search a STAC collection (footprints)"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS's name
        return ("Searches a STAC collection of the plugin's catalogs over an extent and dates, and writes the "
                "items' footprints with their properties (date, cloud cover, assets) as a polygon layer.")

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS's name
        self._common_parameters()
        self.addParameter(QgsProcessingParameterExtent("EXTENT", "Area", optional=True))
        self.addParameter(QgsProcessingParameterString("DATETIME", "Date or interval, e.g. 2024-06-01/2024-06-30",
                                                       optional=True))
        self._cloud_parameter("At most this cloud cover (%)")
        self.addParameter(QgsProcessingParameterNumber("LIMIT", "Most items", defaultValue=50, minValue=1,
                                                       maxValue=1000))
        self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", "Footprints", QgsProcessing.TypeVectorPolygon))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS's name
        data = self.call({
            "collections": [self.parameterAsString(parameters, "COLLECTION", context)],
            "catalog": _text(self, parameters, "CATALOG", context), "bbox": _bbox(self, parameters, context),
            "datetime": _text(self, parameters, "DATETIME", context),
            "max_cloud_cover": self._cloud_limit(parameters, context),
            "limit": self.parameterAsInt(parameters, "LIMIT", context)}, feedback)
        found = QgsVectorLayer(dataset(own_file(data["item_collection_file"], self._outputs())), "items",
                               "ogr")  # this thread's own layer
        if not found.isValid() and data.get("returned"):
            raise QgsProcessingException("The search results could not be read back; see the plugin's output folder.")
        fields = _plain_fields(found.fields()) if found.isValid() else QgsFields()
        sink, dest = self.parameterAsSink(parameters, "OUTPUT", context, fields, QgsWkbTypes.MultiPolygon, WGS84)
        if found.isValid():
            for feature in found.getFeatures():
                if feedback.isCanceled():
                    break
                feature.setFields(fields, False)
                feature.setAttributes([_plain(v) for v in feature.attributes()])
                geometry = feature.geometry()
                geometry.convertToMultiType()  # footprints may be Polygon or MultiPolygon; the layer is multi
                feature.setGeometry(geometry)
                if not sink.addFeature(feature, QgsFeatureSink.FastInsert):
                    raise QgsProcessingException(f"Could not write the footprint of item {feature.id()}: "
                                                 f"{sink.lastError() or 'the output gave no reason'}.")
        del sink  # closes the file now: the tool call may leave a reference cycle that keeps this frame alive
        return {"OUTPUT": dest}


_NESTED = (QMetaType.Type.QVariantList, QMetaType.Type.QStringList, QMetaType.Type.QVariantMap)


def _field(name: str, kind: QMetaType.Type) -> QgsField:
    """QGIS 3.38 and newer take QMetaType field types; older ones only QVariant's, which have the same numbers."""
    try:
        return QgsField(name, kind)
    except TypeError:
        return QgsField(name, int(kind))


def _plain_fields(fields: QgsFields) -> QgsFields:
    """The items' fields with nested values (links, lists of assets) as text: every output format takes them."""
    plain = QgsFields()
    for field in fields:
        # GDAL 3.13 reads an array of objects as a "JSON" string field whose values are still Python lists
        nested = field.type() in _NESTED or field.typeName().lower() == "json"
        plain.append(_field(field.name(), QMetaType.Type.QString) if nested else QgsField(field))
    return plain


def _plain(value: Any) -> Any:
    return json.dumps(value, default=str) if isinstance(value, (list, dict)) else value


class CollectionStatistics(_ToolAlgorithm):
    tool = "collection_statistics"

    def name(self) -> str:
        return "collectionstatistics"

    def displayName(self) -> str:  # noqa: N802 - QGIS's name
        return "Collection statistics over time"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS's name
        return ("Statistics over time of a spectral index over an area, from every item of a STAC collection "
                "in a date range: per date, week or month the mean, median, min, max, standard deviation and "
                "valid-pixel share; written as a table, a CSV and a chart (the same numbers as the chat's "
                "collection_statistics).")

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS's name
        self._common_parameters()
        self.addParameter(QgsProcessingParameterExtent("EXTENT", "Area"))
        self.addParameter(QgsProcessingParameterString("DATETIME", "Date range, e.g. 2024-01-01/2024-12-31"))
        self.addParameter(QgsProcessingParameterEnum("INDEX", "Spectral index", options=list(INDICES), defaultValue=0))
        self.addParameter(QgsProcessingParameterEnum("GROUP_BY", "One row per", options=list(GROUPS), defaultValue=0))
        self._cloud_parameter("Skip items cloudier than (%)")
        self.addParameter(QgsProcessingParameterBoolean("EXACT", "Full resolution (slower)", defaultValue=False))
        self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", "Statistics", QgsProcessing.TypeVector))
        self.addOutput(QgsProcessingOutputFile("CSV", "CSV file"))
        self.addOutput(QgsProcessingOutputFile("CHART", "Chart (PNG)"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS's name
        bbox = _bbox(self, parameters, context)
        if bbox is None:
            raise QgsProcessingException("Give an area (extent).")
        data = self.call({
            "collection": self.parameterAsString(parameters, "COLLECTION", context),
            "catalog": _text(self, parameters, "CATALOG", context), "bbox": bbox,
            "datetime": self.parameterAsString(parameters, "DATETIME", context),
            "index": INDICES[self.parameterAsEnum(parameters, "INDEX", context)],
            "group_by": GROUPS[self.parameterAsEnum(parameters, "GROUP_BY", context)],
            "max_cloud_cover": self._cloud_limit(parameters, context),
            "exact": self.parameterAsBool(parameters, "EXACT", context)}, feedback)
        columns = list(data.get("columns") or [])
        fields = QgsFields()
        for column in columns:
            fields.append(_field(column, QMetaType.Type.QString if column == "period" else QMetaType.Type.Double))
        sink, dest = self.parameterAsSink(parameters, "OUTPUT", context, fields, QgsWkbTypes.NoGeometry)
        for row in data.get("rows") or []:
            feature = QgsFeature(fields)
            feature.setAttributes([_cell(row.get(c), c) for c in columns])
            sink.addFeature(feature, QgsFeatureSink.FastInsert)
        del sink  # closes the file now: the tool call may leave a reference cycle that keeps this frame alive
        for note in data.get("notes") or []:
            feedback.pushInfo(note)
        return {"OUTPUT": dest, "CSV": data.get("csv_file"), "CHART": data.get("chart_file")}


def _cell(value: Any, column: str) -> Any:
    """A table cell: the period as text, every statistic as a number (NULL where there is none)."""
    if column == "period":
        return None if value is None else str(value)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


ZONAL_COLUMNS = ("weighted_mean", "weighted_std", "min", "max", "pixels_touched", "covered_area")


class ZonalStatistics(_ToolAlgorithm):
    tool = "compute_zonal_stats"

    def group(self) -> str:
        return "Rasters"

    def groupId(self) -> str:  # noqa: N802 - QGIS's name
        return "rasters"

    def name(self) -> str:
        return "zonalstatistics"

    def displayName(self) -> str:  # noqa: N802 - QGIS's name
        return "Area-weighted zonal statistics"

    def shortHelpString(self) -> str:  # noqa: N802 - QGIS's name
        return ("For each polygon (a parcel, a field), a raster band's mean, standard deviation, min and max at "
                "full resolution, each pixel weighted by its share inside the polygon (the chat's "
                "compute_zonal_stats). The raster is a layer, or a STAC asset's href (its catalog's "
                "credentials apply); the polygons keep their attributes and gain the statistics.")

    def initAlgorithm(self, config=None) -> None:  # noqa: N802 - QGIS's name
        self.addParameter(QgsProcessingParameterRasterLayer("RASTER", "Raster layer", optional=True))
        self.addParameter(QgsProcessingParameterString("HREF", "…or a STAC asset href (https://, s3://)",
                                                       optional=True, defaultValue=""))
        self.addParameter(QgsProcessingParameterBand("BAND", "Band", defaultValue=1, parentLayerParameterName="RASTER",
                                                     optional=True))
        self.addParameter(QgsProcessingParameterFeatureSource("ZONES", "Polygons",
                                                              [QgsProcessing.TypeVectorPolygon]))
        self.addParameter(QgsProcessingParameterFeatureSink("OUTPUT", "Zonal statistics", QgsProcessing.TypeVectorPolygon))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 - QGIS's name
        href = _text(self, parameters, "HREF", context)
        raster = self.parameterAsRasterLayer(parameters, "RASTER", context)
        if not href and raster is None:
            raise QgsProcessingException("Give a raster layer or a STAC asset href.")
        source_path = href or raster.source()
        band = self.parameterAsInt(parameters, "BAND", context) or 1
        zones = self.parameterAsSource(parameters, "ZONES", context)
        if zones is None:
            raise QgsProcessingException("Give the polygons.")
        fields = QgsFields(zones.fields())
        for column in ZONAL_COLUMNS:
            fields.append(_field(f"zs_{column}", QMetaType.Type.Double))
        sink, dest = self.parameterAsSink(parameters, "OUTPUT", context, fields, zones.wkbType(), zones.sourceCrs())
        crs = zones.sourceCrs().authid() or "EPSG:4326"
        total = zones.featureCount() or 1
        for done, zone in enumerate(zones.getFeatures()):
            if feedback.isCanceled():
                break
            stats: dict[str, Any] = {}
            if zone.hasGeometry():
                stats = self.call({"source": source_path, "band": band, "crs": crs,
                                   "polygon": json.loads(zone.geometry().asJson())}, feedback)
            out = QgsFeature(fields)
            out.setGeometry(zone.geometry())
            out.setAttributes(list(zone.attributes()) + [_cell(stats.get(c), c) for c in ZONAL_COLUMNS])
            sink.addFeature(out, QgsFeatureSink.FastInsert)
            feedback.setProgress(100 * (done + 1) / total)
        del sink  # closes the file now: the tool call may leave a reference cycle that keeps this frame alive
        return {"OUTPUT": dest}
