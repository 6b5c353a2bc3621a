"""Processing algorithms as tools: search the registry, run one with checked parameters on QGIS's task manager.

Outputs go to temporary files/layers and are added to the map. Every call is judged from its actual
parameters before it runs (processing_effects): an algorithm that changes its inputs in place, an output
outside the plugin's output folder or onto an existing file, or an unchecked provider waits for the
user's OK, on the dock's path and on outside clients' alike.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field
from qgis.core import (
    Qgis,
    QgsApplication,
    QgsMapLayer,
    QgsProcessingAlgorithm,
    QgsProcessingAlgRunnerTask,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsRasterLayer,
    QgsVectorLayer,
)

from ...common import DESTRUCTIVE, READ, WRITE, ToolInputError, ok, policy
from ...confirmation import Assessment
from ...declare import assesses, deps_of, tool
from ...deps import ToolDeps
from ...engine.gdal_names import dataset, processing_output
from ..project_access import add_to_project, project_of, wait_for_qt
from .effects import algorithm_of, assess_algorithm, offered
from .inputs import detach_inputs, main_thread_context, worker_context
from .params import prepare_parameters
from .traps import field_units, numbers_with_units, traps_after
from .units import qualify_inputs
from .validity import refuse_invalid_measured

log = logging.getLogger(__name__)

RUN_TIMEOUT_S = 600.0
_RUNNING: set[tuple] = set()


@tool(annotations=READ, meta=policy(requires=["qgis"], discovery=True))
async def search_processing_algorithms(
    query: Annotated[str, Field(description="Words describing the operation, e.g. 'buffer', 'clip raster', 'zonal statistics'")],
    limit: Annotated[int, Field(ge=1, le=30)] = 8,
) -> CallToolResult:
    """Find QGIS Processing algorithms (native, GDAL, GRASS) for an analysis: clip, buffer, reproject, slope, aspect, hillshade, contours, dissolve, intersect, resample, raster calculator (NDVI), vectorise. Returns ids and their parameters. E.g. 'clip the DEM to my parcel'."""
    words = [w.lower() for w in query.split() if w.strip()]
    if not words:
        raise ToolInputError("Say what the algorithm should do, e.g. 'buffer' or 'reproject raster'.")
    scored = []
    for alg in filter(offered, QgsApplication.processingRegistry().algorithms()):
        score = _score(alg, words)
        if score:
            scored.append((score, _provider_rank(alg), alg.id(), alg))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    found = [describe_algorithm(alg) for *_, alg in scored[:limit]]
    return ok({"algorithms": found, "matched": len(scored)},
              f"{len(scored)} algorithm(s) match; best: {', '.join(a['id'] for a in found) or 'none'}")


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def run_processing_algorithm(
    ctx: Context,
    algorithm_id: Annotated[str, Field(description="Algorithm id from search_processing_algorithms, e.g. 'native:buffer'")],
    parameters: Annotated[dict[str, Any], Field(
        description="Parameter values by name: layers by layer name, enums by option name, distances with their unit "
                    "('500 m', '2 km'), outputs omitted (temporary)")],
) -> CallToolResult:
    """Run a QGIS Processing algorithm (clip, buffer, reproject, slope, contours, raster calculator...) without
    freezing QGIS; its outputs become temporary layers on the map (an algorithm that changes its inputs, or an
    output onto a file, asks the user first). Distances are put in the layer's unit or refused; numbers come back
    with their units. E.g. 'buffer the rivers by 100 m'."""
    return await run_algorithm(deps_of(ctx), algorithm_id, parameters)


@tool(annotations=DESTRUCTIVE, meta=policy(requires=["qgis"]))
async def run_processing_algorithm_to_files(
    ctx: Context,
    algorithm_id: Annotated[str, Field(description="Algorithm id, e.g. 'native:buffer'")],
    parameters: Annotated[dict[str, Any], Field(
        description="Parameter values by name, with output paths where the results must be written")],
) -> CallToolResult:
    """Run a Processing algorithm writing its outputs to the given file paths (GeoTIFF, GeoPackage...); may overwrite files, so the user confirms first. E.g. 'clip the scene and save it to clip.tif'."""
    return await run_algorithm(deps_of(ctx), algorithm_id, parameters)


@assesses("run_processing_algorithm", "run_processing_algorithm_to_files")
async def assess(deps: ToolDeps, arguments: dict[str, Any]) -> Assessment:
    alg = algorithm_of(str(arguments.get("algorithm_id", "")))
    given = arguments.get("parameters")
    if alg is None or not isinstance(given, dict):
        return Assessment(False)  # nothing can run: the tool answers with what to fix
    return await assess_algorithm(deps, alg, given)


def _score(alg: Any, words: list[str]) -> int:
    fields = [(alg.id().lower(), 3), (alg.displayName().lower(), 3), (" ".join(alg.tags()).lower(), 2),
              (alg.group().lower(), 1), (alg.shortDescription().lower(), 1),
              (" ".join(p.name().lower() for p in alg.parameterDefinitions()), 1)]
    total = 0
    for word in words:
        hit = max((weight for text, weight in fields if word in text), default=0)
        if not hit:
            return 0  # every word must appear somewhere
        total += hit
    if " ".join(words) in (alg.name().lower(), alg.displayName().lower()):
        total += 5  # the algorithm is named exactly what was asked for
    return total


def _provider_rank(alg: Any) -> int:
    """QGIS's own C++ algorithms first: they are fastest and need no external tools."""
    return {"native": 0, "qgis": 1}.get(alg.provider().id() if alg.provider() else "", 2)


def describe_algorithm(alg: Any) -> dict[str, Any]:
    params = []
    for p in alg.parameterDefinitions():
        row = {"name": p.name(), "type": p.type(), "description": p.description(),
               "optional": bool(p.flags() & p.FlagOptional)}
        if p.type() == "enum":
            row["options"] = list(p.options())
        if p.defaultValue() is not None and not p.isDestination():
            row["default"] = p.defaultValue() if isinstance(p.defaultValue(), (str, int, float, bool)) else str(p.defaultValue())
        if p.isDestination():
            row["output"] = True
        params.append(row)
    return {"id": alg.id(), "name": alg.displayName(), "group": alg.group(), "parameters": params}


class _Feedback(QgsProcessingFeedback):
    def __init__(self) -> None:
        super().__init__()
        self.errors: list[str] = []

    def reportError(self, error: str, fatalError: bool = False) -> None:  # noqa: N802, N803 - Qt override
        self.errors.append(error)
        super().reportError(error, fatalError)


async def run_algorithm(deps: ToolDeps, algorithm_id: str, given: dict[str, Any]) -> CallToolResult:
    registry = QgsApplication.processingRegistry()
    alg = registry.algorithmById(algorithm_id)
    if alg is None:
        raise ToolInputError(f"No Processing algorithm '{algorithm_id}'; find ids with search_processing_algorithms.")
    params = prepare_parameters(deps, alg, given or {})
    project = project_of(deps)
    notes = qualify_inputs(alg, params, project)  # distances in the layers' units, measure expressions checked
    notes += await refuse_invalid_measured(alg, params, project)  # polygons measured must be valid
    checking = main_thread_context(project)
    feedback = _Feedback()
    checking.setFeedback(feedback)
    valid, message = alg.checkParameterValues(params, checking)
    if not valid:
        raise ToolInputError(f"{algorithm_id}: {message}")
    run = Run(alg, params, notes, feedback)
    if _needs_main_thread(alg):
        # QGIS runs these on its main thread too: they edit a layer the map may be drawing
        # (truncate table, spatial index); a worker thread would crash QGIS.
        results, successful = alg.run(params, checking, feedback)
        return _finish(deps, run, {"ok": successful, "results": results}, checking)
    context = worker_context(project)
    context.setFeedback(feedback)
    outcome = await _run_in_background(alg, detach_inputs(alg, params, project, context), context, feedback)
    return _finish(deps, run, outcome, context)


async def _run_in_background(alg: Any, params: dict[str, Any], context: QgsProcessingContext,
                             feedback: _Feedback) -> dict[str, Any]:
    """On QGIS's task manager, with a context and inputs nothing else touches (processing_inputs); the
    results come back here, on the main thread, through the task's `executed` signal."""
    task = QgsProcessingAlgRunnerTask(alg, params, context, feedback)
    outcome: dict[str, Any] = {}
    running = (task, context, feedback)
    # The task holds references to context and feedback until the task manager deletes it (after
    # `executed`): they must outlive the task, even if this call is cancelled, or QGIS crashes.
    _RUNNING.add(running)
    task.destroyed.connect(lambda *_: _RUNNING.discard(running))

    def executed(successful: bool, results: dict) -> None:
        outcome.update(ok=successful, results=results)

    task.executed.connect(executed)
    task.taskTerminated.connect(lambda: outcome.setdefault("ok", False))
    QgsApplication.taskManager().addTask(task)
    try:
        await wait_for_qt(lambda: "ok" in outcome, RUN_TIMEOUT_S, f"Processing {alg.id()}")
    except BaseException:
        feedback.cancel()
        raise
    return outcome


def _needs_main_thread(alg: Any) -> bool:
    flag = getattr(getattr(Qgis, "ProcessingAlgorithmFlag", None), "NoThreading", None)
    if flag is None:  # QGIS < 3.36
        flag = QgsProcessingAlgorithm.FlagNoThreading
    return bool(alg.flags() & flag)


@dataclass
class Run:
    """One call: the algorithm, its prepared parameters, what the unit checks said, QGIS's feedback."""
    alg: Any
    params: dict[str, Any]
    notes: list[str]
    feedback: _Feedback


def _finish(deps: ToolDeps, run: Run, outcome: dict[str, Any], context: QgsProcessingContext) -> CallToolResult:
    alg, algorithm_id, feedback = run.alg, run.alg.id(), run.feedback
    if not outcome["ok"]:
        detail = "; ".join(feedback.errors[-3:]) or "see the Processing log"
        raise ToolInputError(f"{algorithm_id} failed: {detail}. {_what_to_do(detail)}")
    project = project_of(deps)
    notes = run.notes + traps_after(alg, run.params, project) + _skipped_invalid(feedback)
    numbers = numbers_with_units(alg, outcome["results"] or {}, run.params, project)
    layers = _output_layers(alg, outcome["results"] or {}, context)
    add_to_project(deps, layers)
    values = {k: _plain(v) for k, v in (outcome["results"] or {}).items()}
    described = [{"name": lyr.name(), "id": lyr.id(),
                  "features": lyr.featureCount() if isinstance(lyr, QgsVectorLayer) else None} for lyr in layers]
    shown = "; ".join(f"{name} = {n['value']:.6g} ({n['unit']})" for name, n in list(numbers.items())[:8])
    summary = (f"{alg.displayName()} done; added {len(layers)} layer(s): {', '.join(d['name'] for d in described) or 'none'}"
               + (f". Numbers: {shown}" if shown else "") + "".join(f". Note: {n}" for n in notes))
    ran_with = {d.name(): run.params[d.name()] for d in alg.parameterDefinitions()  # in the layers' units
                if d.type() == "distance" and isinstance(run.params.get(d.name()), (int, float))}
    return ok({"algorithm": algorithm_id, "results": values, "numbers": numbers, "notes": notes,
               "field_units": field_units(alg, run.params, project), "distances_run": ran_with,
               "layers": described}, summary)


def _plain(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float, bool)) for v in value):
        return list(value)  # e.g. the layers a folder output holds
    return str(value)


def _what_to_do(detail: str) -> str:
    if "invalid geometry" in detail.lower():
        return ("QGIS stops at invalid geometry (its Processing setting): a self-crossing ring, or a shapefile hole "
                "wound like an outer ring and read as a second shell, would give wrong numbers. Repair the layer with "
                "native:fixgeometries first, or measure it with measure_area, which repairs and says so.")
    return "Check the parameters."


def _skipped_invalid(feedback: _Feedback) -> list[str]:
    skipped = [e for e in feedback.errors if "invalid geometry" in e.lower() and "skipped" in e.lower()]
    if not skipped:
        return []
    return [f"QGIS skipped {len(skipped)} feature(s) with invalid geometry (the Processing setting 'Skip (ignore) "
            "features with invalid geometries'): the results leave them out."]


def _output_layers(alg: Any, results: dict[str, Any], context: QgsProcessingContext) -> list[QgsMapLayer]:
    layers = []
    for output in alg.outputDefinitions():
        value = results.get(output.name())
        if not isinstance(value, str) or output.type() not in ("outputVector", "outputRaster", "outputLayer"):
            continue
        name = f"{alg.displayName()} {output.description()}".strip()
        layer = context.takeResultLayer(value)
        if layer is None:
            written = processing_output(value)
            layer = QgsRasterLayer(dataset(written), name, "gdal") if output.type() == "outputRaster" else \
                QgsVectorLayer(dataset(written), name, "ogr")
        if layer is not None and layer.isValid():
            layer.setName(name)
            layers.append(layer)
    return layers
