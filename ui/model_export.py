"""A chat's analysis as a Processing model (.model3) that opens and runs in QGIS's Graphical Modeler.

Every tool call of the chat that has a Processing counterpart becomes one model step with the call's real
parameters (`model_steps`). Steps are chained where the chat chained them: a layer parameter of a later
call that named a layer an earlier step put on the map (by its id or name, as the chat's Processing tool
resolves it) is bound to that step's output, with a dependency on it, instead of the layer's name. Each
step's outputs are model outputs. The model is built with QGIS's own model classes from the values the
tools were called with (data, never code).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agent.stores.base import SessionRecord
from .model_steps import Step, model_steps

STEP_X, STEP_Y, OUTPUT_X = 260.0, 120.0, 560.0  # where the Modeler draws each step and its output
LAYER_OUTPUTS = ("outputVector", "outputRaster", "outputLayer")  # outputs the chat's Processing tool adds as layers


class MadeLayers:
    """The layers the steps so far put on the map, each with the child output that makes it again."""

    def __init__(self) -> None:
        self._made: list[tuple[dict[str, Any], tuple[str, str]]] = []

    def add(self, layer: dict[str, Any], child_id: str, output: str) -> None:
        self._made.append((layer, (child_id, output)))

    def find(self, text: str) -> tuple[str, str] | None:
        """(child id, output name) of the layer `text` names: by id, exact name, then any-case name, the latest
        step first (the layer the chat's call found, the chat's names being the project's then)."""
        latest = list(reversed(self._made))
        for matches in (lambda layer: layer.get("id") == text, lambda layer: layer.get("name") == text,
                        lambda layer: str(layer.get("name") or "").lower() == text.strip().lower()):
            for layer, source in latest:
                if matches(layer):
                    return source
        return None


def step_layers(step: Step, algorithm: Any) -> list[tuple[dict[str, Any], str]]:
    """The layers a step's call added, each with the output of the step's algorithm that wrote it."""
    if step.algorithm_id.startswith("stacgis:"):
        return [(layer, "OUTPUT") for layer in step.layers]
    if algorithm is None:
        return []
    found = []
    for output in algorithm.outputDefinitions():
        value = step.results.get(output.name())
        if output.type() not in LAYER_OUTPUTS or not isinstance(value, str):
            continue
        # the chat's tool named each output layer "<algorithm> <output>" (a memory layer keeps its id)
        named = f"{algorithm.displayName()} {output.description()}".strip()
        found += [(layer, output.name()) for layer in step.layers
                  if layer.get("id") == value or layer.get("name") == named]
    return found


def _enum_index(definition: Any, value: Any) -> Any:
    """An option given by name, as the chat's tool takes it, as the index a model stores."""
    options = [str(o).lower() for o in definition.options()]
    if isinstance(value, list):
        return [_enum_index(definition, v) for v in value]
    if isinstance(value, str) and value.strip().lower() in options:
        return options.index(value.strip().lower())
    return value


def parameter_sources(definition: Any, value: Any, made: MadeLayers) -> list[Any]:
    """The sources of one parameter: an earlier step's output where the chat gave a layer it made, else the
    value the chat gave."""
    from qgis.core import QgsProcessingModelChildParameterSource as Source

    from ..tools.canvas.processing.inputs import LAYER_TYPES

    kind = definition.type() if definition is not None else ""
    if kind == "enum":
        return [Source.fromStaticValue(_enum_index(definition, value))]
    if kind in LAYER_TYPES and isinstance(value, str) and made.find(value):
        return [Source.fromChildOutput(*made.find(value))]
    if kind == "multilayer" and isinstance(value, (list, str)):
        given = value if isinstance(value, list) else [value]
        return [Source.fromChildOutput(*made.find(v)) if isinstance(v, str) and made.find(v)
                else Source.fromStaticValue(v) for v in given]
    return [Source.fromStaticValue(value)]


def write_model(record: SessionRecord, target: Path) -> int:
    """Writes the .model3; returns how many steps it holds."""
    from qgis.core import (
        QgsApplication,
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildDependency,
        QgsProcessingModelOutput,
    )
    from qgis.PyQt.QtCore import QPointF

    title = record.info.title or "Chat analysis"
    model = QgsProcessingModelAlgorithm(title[:80], "STAC GIS Agent")
    registry = QgsApplication.processingRegistry()
    made = MadeLayers()
    for number, step in enumerate(model_steps(record), start=1):
        child = QgsProcessingModelChildAlgorithm(step.algorithm_id)
        child.generateChildId(model)
        algorithm = registry.algorithmById(step.algorithm_id)
        child.setDescription(f"{number}. {algorithm.displayName() if algorithm else step.algorithm_id}")
        child.setPosition(QPointF(STEP_X, STEP_Y * number))  # one step under the other, as the chat went
        definitions = {d.name(): d for d in algorithm.parameterDefinitions()} if algorithm else {}
        destinations = ({d.name(): d.description() for d in algorithm.destinationParameterDefinitions()}
                        if algorithm else {"OUTPUT": "output"})
        earlier = set()
        for name, value in step.values.items():
            if name in destinations:
                continue  # the model's own outputs, below
            sources = parameter_sources(definitions.get(name), value, made)
            earlier |= {s.outputChildId() for s in sources
                        if s.source() == child_output()}
            child.addParameterSources(name, sources)
        child.setDependencies([QgsProcessingModelChildDependency(c) for c in sorted(earlier)])
        outputs = {}
        for name, description in sorted(destinations.items()):
            output = QgsProcessingModelOutput(f"{number} {description}", f"Step {number}: {description}")
            output.setChildId(child.childId())
            output.setChildOutputName(name)
            output.setPosition(QPointF(OUTPUT_X, STEP_Y * number + 40))
            outputs[output.name()] = output
        child.setModelOutputs(outputs)
        model.addChildAlgorithm(child)
        for layer, output_name in step_layers(step, algorithm):
            made.add(layer, child.childId(), output_name)
    model.updateDestinationParameters()
    if not model.toFile(str(target)):
        raise OSError(f"QGIS could not write the model to {target}")
    return len(model.childAlgorithms())


def child_output() -> Any:
    """The source kind of a step's input that is an earlier step's output: an enum of the class up to
    QGIS 3.24, of `Qgis` (`Qgis.ProcessingModelChildParameterSource`) from QGIS 3.26 on."""
    from qgis.core import Qgis, QgsProcessingModelChildParameterSource

    scoped = getattr(Qgis, "ProcessingModelChildParameterSource", None)
    return scoped.ChildOutput if scoped is not None else QgsProcessingModelChildParameterSource.ChildOutput
