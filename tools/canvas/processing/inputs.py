"""What a background Processing algorithm gets instead of the live project: a context with no project and
inputs it owns alone.

Why (measured on QGIS 3.22, read in QGIS's sources): run in a task-manager worker with the live project in
its context, QGIS's Processing code looks each layer parameter up in that project
(`QgsProcessingUtils::mapLayerFromString` → `QgsMapLayerStore::mapLayers()`, then `type()`, `id()`,
`name()`, `source()` of every layer in the snapshot) and then reads the layer it found, while the GUI thread
adds, removes (deletes at once) and draws those very layers and rebuilds the project's expression scope.
That shared state crashed QGIS on the GUI thread (`QgsProject::createExpressionContextScope`,
`QHashData::detach_helper`). Here everything the worker needs is copied on the GUI thread beforehand:
- the project's settings (transform context, ellipsoid, units) and a fully built expression context;
- a file or database layer becomes its source URI (`provider://uri`), which the worker opens itself;
- a memory layer, or one whose features differ from its source (unsaved edits, joins, virtual fields),
  becomes a copy owned by the context, read by nobody but the worker; a layer too big to copy here
  without stalling the map is refused with what to do instead.
"""

from __future__ import annotations

from typing import Any

from qgis.core import (
    QgsExpressionContext,
    QgsExpressionContextUtils,
    QgsFeatureRequest,
    QgsFields,
    QgsMapLayer,
    QgsProcessingContext,
    QgsProcessingUtils,
    QgsProject,
    QgsVectorLayer,
)

from ...analysis.measure_method import MeasureMethod, method_for
from ...common import ToolInputError

LAYER_TYPES = {"source", "vector", "raster", "layer", "mesh", "pointcloud"}
COPY_LIMIT = 50_000  # features a GUI-thread copy may read (a few hundred ms at most for memory layers)


def expression_context(project: QgsProject) -> QgsExpressionContext:
    """Global and project scopes built here, on the GUI thread, as QGIS's Processing dialog builds them."""
    expressions = QgsExpressionContext()
    expressions.appendScope(QgsExpressionContextUtils.globalScope())
    scope = QgsExpressionContextUtils.projectScope(project)
    scope.removeVariable("layers")  # pointers to the live layers: a worker must not reach them through @layers
    scope.setVariable("project_ellipsoid", processing_ellipsoid(project).ellipsoid)  # what $area measures on
    expressions.appendScope(scope)
    return expressions


def invalid_geometry_check() -> int:
    """QGIS's own setting (Options ▸ Processing ▸ General ▸ Invalid features filtering), read as QGIS desktop reads
    it: stop at an invalid geometry unless the analyst chose otherwise. A context left alone checks nothing."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig

        chosen = ProcessingConfig.getSetting(ProcessingConfig.FILTER_INVALID_GEOMETRIES)
    except (ImportError, ValueError, KeyError):  # Processing's plugin not loaded, or an unknown stored value
        chosen = None
    return QgsFeatureRequest.GeometryAbortOnInvalid if chosen is None else QgsFeatureRequest.InvalidGeometryCheck(int(chosen))


def processing_ellipsoid(project: QgsProject) -> MeasureMethod:
    """The project's ellipsoid; with none (QGIS would measure planar: $area in square degrees turned into 'm²'),
    the one of the project's CRS, which the answer states."""
    return method_for(project, project.crs(), whose="project")


def _checked(context: QgsProcessingContext, project: QgsProject) -> QgsProcessingContext:
    context.setInvalidGeometryCheck(invalid_geometry_check())
    context.setEllipsoid(processing_ellipsoid(project).ellipsoid)
    return context


def main_thread_context(project: QgsProject) -> QgsProcessingContext:
    """For checking parameters and for algorithms QGIS runs on its main thread: the live project is safe there."""
    context = QgsProcessingContext()
    context.setProject(project)
    context.setExpressionContext(expression_context(project))
    return _checked(context, project)


def worker_context(project: QgsProject) -> QgsProcessingContext:
    """No project: what the algorithm needs from it is copied, so the worker cannot reach the live one."""
    context = QgsProcessingContext()
    context.setTransformContext(project.transformContext())
    context.setDistanceUnit(project.distanceUnits())
    context.setAreaUnit(project.areaUnits())
    context.setExpressionContext(expression_context(project))
    return _checked(context, project)


def detach_inputs(alg: Any, params: dict[str, Any], project: QgsProject, context: QgsProcessingContext) -> dict[str, Any]:
    """The parameters with every project layer replaced by something only the worker reads."""
    detached = dict(params)
    for definition in alg.parameterDefinitions():
        name, kind = definition.name(), definition.type()
        value = params.get(name)
        if kind in LAYER_TYPES:
            detached[name] = detached_layer(value, project, context)
        elif kind == "multilayer" and isinstance(value, list):
            detached[name] = [detached_layer(v, project, context) for v in value]
        elif kind == "extent" and isinstance(value, str) and project.mapLayer(value) is not None:
            detached[name] = _extent_text(project.mapLayer(value))
        elif kind == "crs" and isinstance(value, str) and project.mapLayer(value) is not None:
            detached[name] = project.mapLayer(value).crs().authid()
    return detached


def detached_layer(value: Any, project: QgsProject, context: QgsProcessingContext) -> Any:
    layer = project.mapLayer(value) if isinstance(value, str) else None
    if layer is None:
        return value  # a path or URI: the worker opens it itself
    if needs_copy(layer):
        return owned_copy(layer, context)
    return QgsProcessingUtils.encodeProviderKeyAndUri(layer.providerType(), layer.source())


def needs_copy(layer: QgsMapLayer) -> bool:
    """Its features live only in this QGIS (memory), or reopening its source would give other features."""
    if not isinstance(layer, QgsVectorLayer):
        return False
    fields = layer.fields()
    derived = any(fields.fieldOrigin(i) in (QgsFields.OriginJoin, QgsFields.OriginExpression)
                  for i in range(fields.count()))
    return layer.providerType() == "memory" or layer.isModified() or derived


def owned_copy(layer: QgsVectorLayer, context: QgsProcessingContext) -> QgsVectorLayer:
    count = layer.featureCount()
    if count > COPY_LIMIT:
        why = "a memory layer" if layer.providerType() == "memory" else "a layer with unsaved edits, joins or virtual fields"
        raise ToolInputError(
            f"Layer '{layer.name()}' is {why} with {count:,} features; a background algorithm gets a copy of such a "
            f"layer, and copies stop at {COPY_LIMIT:,} features. Save the layer to a file (Export → Save Features "
            "As…) or save its edits, add that file to the map, and ask again with it.")
    copy = layer.materialize(QgsFeatureRequest())
    copy.setName(layer.name())
    context.temporaryLayerStore().addMapLayer(copy)  # owned by the context, which outlives the task
    return copy


def _extent_text(layer: QgsMapLayer) -> str:
    box = layer.extent()
    return f"{box.xMinimum()},{box.xMaximum()},{box.yMinimum()},{box.yMaximum()} [{layer.crs().authid()}]"
