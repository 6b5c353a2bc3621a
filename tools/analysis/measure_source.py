"""The features a measurement reads, taken from the live layer on the GUI thread and read in a worker.

On the GUI thread only what is cheap is read: the layer's source, CRS, the selected ids. A file or database layer
is reopened in the worker from its source; a memory layer, or one with unsaved edits, joins or virtual fields, is
read here into plain rows (fid, attributes, a geometry copy), refused past COPY_LIMIT features. The worker then reads at most MAX_MEASURED
features, filtered by the selection, feature ids or an expression. The expression goes through the expression guard
(`expressions.check_filter`) and is run here, on the GUI thread, for the ids it keeps; one that reads anything but
the layer's own features is refused (these tools only read, and ask nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..common import ToolInputError
from ..engine.gdal_names import dataset, project_source

MAX_MEASURED = 20_000  # features one call measures on the ellipsoid (a few seconds in a worker)
COPY_LIMIT = 50_000  # features a GUI-thread copy of a memory or edited layer may hold


@dataclass
class FeatureFilter:
    selected_only: bool = False
    feature_ids: list[int] | None = None
    expression: str | None = None

    def words(self) -> str:
        bits = []
        if self.selected_only:
            bits.append("the selected features")
        if self.feature_ids:
            bits.append(f"features {', '.join(str(i) for i in self.feature_ids[:10])}"
                        + ("…" if len(self.feature_ids) > 10 else ""))
        if self.expression:
            bits.append(f"where {self.expression}")
        return ", ".join(bits) or "every feature"


@dataclass
class LayerSnapshot:
    """A layer as a worker may read it: its source (or its rows, read on the GUI thread), CRS and the ids to read."""
    name: str
    provider: str
    source: str
    crs: Any
    wkb_type: int
    fields: list[str]
    rows: list[tuple[int, dict, Any]] | None = None
    ids: list[int] | None = None
    label_field: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def snapshot(layer: Any, wanted: FeatureFilter) -> LayerSnapshot:
    """GUI thread: what the worker needs; the selection is read here (a list of ids)."""
    from qgis.core import QgsFeatureRequest, QgsFields, QgsGeometry
    from qgis.PyQt.QtCore import QMetaType

    names = layer.fields().names()
    ids = None
    if wanted.selected_only:
        ids = sorted(layer.selectedFeatureIds())
        if not ids:
            raise ToolInputError(f"Nothing is selected in '{layer.name()}'; select features on the map, or measure "
                                 "the whole layer (selected_only=false).")
    if wanted.feature_ids:
        ids = sorted(set(wanted.feature_ids) & set(ids)) if ids is not None else sorted(set(wanted.feature_ids))
    if wanted.expression:
        kept = _matching_ids(layer, wanted.expression)
        ids = sorted(set(kept) & set(ids)) if ids is not None else kept
    fields = layer.fields()
    derived = any(fields.fieldOrigin(i) in (QgsFields.OriginJoin, QgsFields.OriginExpression)
                  for i in range(fields.count()))
    rows = None
    if layer.providerType() == "memory" or layer.isModified() or derived:
        count = len(ids) if ids is not None else layer.featureCount()
        if count > COPY_LIMIT:
            raise ToolInputError(
                f"Layer '{layer.name()}' lives only in this QGIS (a memory layer, or unsaved edits) and has {count:,} "
                f"features; measuring copies them first, and copies stop at {COPY_LIMIT:,}. Select fewer features, "
                "or save the layer to a file and measure that.")
        request = QgsFeatureRequest()
        if ids is not None:
            request.setFilterFids(ids)
        rows = [(f.id(), dict(zip(names, f.attributes())), QgsGeometry(f.geometry())) for f in layer.getFeatures(request)]
    label = next((f.name() for f in fields if f.type() == QMetaType.Type.QString), None)  # the first text field names a feature
    return LayerSnapshot(layer.name(), layer.providerType(), layer.source(), layer.crs(), int(layer.wkbType()),
                         names, rows, ids, label)


def _matching_ids(layer: Any, expression: str) -> list[int]:
    """GUI thread: the ids of the features the filter keeps, at most MAX_MEASURED + 1 read."""
    from qgis.core import QgsFeatureRequest

    from . import expressions

    check = expressions.check_filter(expression, layer)
    if not check.reads_only_the_layer:
        raise ToolInputError(f"The filter {expression!r} reads more than the features of '{layer.name()}' ("
                             + "; ".join(check.outside) + "); measure with a filter on the layer's own fields.")
    request = expressions.filter_request(check)
    request.setFlags(QgsFeatureRequest.NoGeometry).setNoAttributes().setLimit(MAX_MEASURED + 1)
    kept = [feature.id() for feature in layer.getFeatures(request)]
    if len(kept) > MAX_MEASURED:
        raise ToolInputError(f"More than {MAX_MEASURED:,} features of '{layer.name()}' match {expression!r}; "
                             "narrow the filter or select fewer features.")
    return kept


def read_features(snap: LayerSnapshot, wanted: FeatureFilter) -> tuple[list[tuple[int, dict, Any]], int]:
    """Worker thread: (fid, attributes, geometry) of the features to measure, and how many matched in all;
    more than MAX_MEASURED is refused with what to do."""
    found: list[tuple[int, dict, Any]] = []
    for row in rows_of(snap):
        if len(found) == MAX_MEASURED:
            raise ToolInputError(
                f"More than {MAX_MEASURED:,} features of '{snap.name}' match ({wanted.words()}); measure a selection "
                "or filter with where, or run the measurement per group.")
        found.append(row)
    return found, len(found)


def rows_of(snap: LayerSnapshot, limit: int | None = None) -> Iterator[tuple[int, dict, Any]]:
    """Worker thread: (fid, attributes, geometry) of the snapshot's features, from its rows or its reopened source."""
    from qgis.core import QgsFeatureRequest, QgsVectorLayer

    if snap.rows is not None:
        yield from snap.rows[:limit]
        return
    layer = QgsVectorLayer(dataset(project_source(snap.source)), snap.name, snap.provider,  # a project layer's own
                           QgsVectorLayer.LayerOptions(False))
    if not layer.isValid():
        raise ToolInputError(f"The data of layer '{snap.name}' cannot be opened again from {snap.source}; "
                             "is the file still there?")
    request = QgsFeatureRequest()
    if snap.ids is not None:
        request.setFilterFids(snap.ids)
    if limit is not None:
        request.setLimit(limit)
    for feature in layer.getFeatures(request):
        yield feature.id(), dict(zip(snap.fields, feature.attributes())), feature.geometry()
