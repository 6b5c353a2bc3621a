"""A chat's analysis as a Processing model (.model3) that opens and runs in QGIS's Graphical Modeler.

Every tool call of the chat that has a Processing counterpart becomes one model step with the call's
real parameters: collection statistics and STAC searches as the plugin's own algorithms
(stacgis:collectionstatistics, stacgis:searchfootprints), Processing calls as the algorithm they ran.
Each step's main output is a model output. The model is built with QGIS's own model classes from the
values the tools were called with (data, never code); steps are not chained to one another.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agent import events as ev
from ..agent.session_history import history_items
from ..agent.stores.base import SessionRecord

INDICES = ("NDVI", "NDWI", "NDMI", "NBR", "NDSI", "NDBI", "EVI", "SAVI")
GROUPS = ("date", "week", "month")


def _extent(bbox: Any) -> str | None:
    if not (isinstance(bbox, list) and len(bbox) == 4 and all(isinstance(v, (int, float)) for v in bbox)):
        return None
    west, south, east, north = bbox
    return f"{west},{east},{south},{north} [EPSG:4326]"


def _statistics(args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    index = str(args.get("index") or "").upper()
    if index not in INDICES or not _extent(args.get("bbox")):
        return None  # an asset summary or a selected-feature area has no counterpart yet
    return "stacgis:collectionstatistics", {
        "CATALOG": args.get("catalog") or "", "COLLECTION": args.get("collection"), "EXTENT": _extent(args["bbox"]),
        "DATETIME": args.get("datetime"), "INDEX": INDICES.index(index),
        "GROUP_BY": GROUPS.index(args.get("group_by")) if args.get("group_by") in GROUPS else 0,
        "EXACT": bool(args.get("exact", False))}


def _search(args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    collections = args.get("collections") or []
    if len(collections) != 1:
        return None
    values = {"CATALOG": args.get("catalog") or "", "COLLECTION": collections[0], "EXTENT": _extent(args.get("bbox")),
              "DATETIME": args.get("datetime"), "LIMIT": args.get("limit") or 10,
              "MAX_CLOUD": args.get("max_cloud_cover")}
    return "stacgis:searchfootprints", {k: v for k, v in values.items() if v is not None}


def _processing(args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    algorithm = args.get("algorithm_id")
    parameters = args.get("parameters")
    if not isinstance(algorithm, str) or not isinstance(parameters, dict):
        return None
    return algorithm, dict(parameters)


STEPS = {"collection_statistics": _statistics, "search_items": _search,
         "run_processing_algorithm": _processing, "run_processing_algorithm_to_files": _processing}


def model_steps(record: SessionRecord) -> list[tuple[str, dict[str, Any]]]:
    """(algorithm id, parameter values) for each call of the chat that Processing can repeat, in order;
    only calls that completed."""
    started: dict[str, tuple[str, dict]] = {}
    steps = []
    for item in history_items(record):
        if isinstance(item, ev.ToolStart) and item.tool_name in STEPS:
            started[item.call_id] = (item.tool_name, dict(item.tool_args or {}))
        elif isinstance(item, ev.ToolResult) and item.call_id in started:
            name, args = started.pop(item.call_id)
            step = STEPS[name](args)
            if step is not None:
                steps.append(step)
    return steps


STEP_X, STEP_Y, OUTPUT_X = 260.0, 120.0, 560.0  # where the Modeler draws each step and its output


def write_model(record: SessionRecord, target: Path) -> int:
    """Writes the .model3; returns how many steps it holds."""
    from qgis.core import (
        QgsApplication,
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource,
        QgsProcessingModelOutput,
    )
    from qgis.PyQt.QtCore import QPointF

    title = record.info.title or "Chat analysis"
    model = QgsProcessingModelAlgorithm(title[:80], "STAC GIS Agent")
    registry = QgsApplication.processingRegistry()
    for number, (algorithm_id, values) in enumerate(model_steps(record), start=1):
        child = QgsProcessingModelChildAlgorithm(algorithm_id)
        child.generateChildId(model)
        algorithm = registry.algorithmById(algorithm_id)
        child.setDescription(f"{number}. {algorithm.displayName() if algorithm else algorithm_id}")
        child.setPosition(QPointF(STEP_X, STEP_Y * number))  # one step under the other, as the chat went
        destinations = {d.name() for d in algorithm.destinationParameterDefinitions()} if algorithm else {"OUTPUT"}
        for name, value in values.items():
            if name in destinations:
                continue  # the model's own outputs, below
            child.addParameterSources(name, [QgsProcessingModelChildParameterSource.fromStaticValue(value)])
        outputs = {}
        for name in sorted(destinations):
            output = QgsProcessingModelOutput(f"{number} {name.lower()}", f"Step {number}: {name.lower()}")
            output.setChildId(child.childId())
            output.setChildOutputName(name)
            output.setPosition(QPointF(OUTPUT_X, STEP_Y * number + 40))
            outputs[output.name()] = output
        child.setModelOutputs(outputs)
        model.addChildAlgorithm(child)
    model.updateDestinationParameters()
    if not model.toFile(str(target)):
        raise OSError(f"QGIS could not write the model to {target}")
    return len(model.childAlgorithms())
