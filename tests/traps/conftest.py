"""The trap tier (issue 41): files and questions built so that the typical wrong answer looks ordinary, each with a
clean twin that must still be answered, run through the plugin's MCP tools in a real QGIS as its agent would call
them (the dock's path: the analyst says yes when a call asks).

Each run is judged by the rule of the issue: on a trap, a number within tolerance of the truth, or a refusal that
names the real defect, is right; a wrong number with the defect named next to it is qualified (not silent); a
wrong number with nothing said is a silent error. On a twin, only the right number counts as answered. A route
whose tool this build lacks is unsupported (not an error). The session ends with the silent-error rate over the
traps and the completion rate over the twins; `STACGIS_TRAPS_REPORT=path.json` also writes every run.
"""

from __future__ import annotations

import gc
import json
import os
from dataclasses import asdict, dataclass
from typing import Any, Callable

import httpx
import pytest

from testkit.qgis_drivers.qt_loop import forget_running_loop

RIGHT, REFUSED_NAMED, QUALIFIED, SILENT, REFUSED, WRONG, UNSUPPORTED = (
    "right", "refused naming the defect", "qualified", "silent error", "refused", "wrong", "unsupported")


@dataclass
class Run:
    family: str
    kind: str  # "trap" or "twin"
    route: str  # which tools the agent used
    outcome: str
    value: Any = None
    truth: Any = None


RUNS: list[Run] = []


def rates(runs: list[Run]) -> dict[str, Any]:
    traps = [r for r in runs if r.kind == "trap" and r.outcome != UNSUPPORTED]
    twins = [r for r in runs if r.kind == "twin" and r.outcome != UNSUPPORTED]
    silent = [r for r in traps if r.outcome == SILENT]
    answered = [r for r in twins if r.outcome == RIGHT]
    return {"trap_runs": len(traps), "silent_errors": len(silent),
            "silent_error_rate": len(silent) / len(traps) if traps else 0.0,
            "twin_runs": len(twins), "twins_answered": len(answered),
            "twin_completion_rate": len(answered) / len(twins) if twins else 0.0,
            "unsupported_runs": sum(r.outcome == UNSUPPORTED for r in runs)}


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RUNS:
        return
    figures = rates(RUNS)
    terminalreporter.section("trap suite (issue 41)")
    for run in RUNS:
        terminalreporter.write_line(f"{run.family:<32} {run.kind:<5} {run.route:<34} {run.outcome}"
                                    + (f" ({run.value!r}; truth {run.truth!r})" if run.outcome in (SILENT, WRONG) else ""))
    terminalreporter.write_line(
        f"silent errors: {figures['silent_errors']} of {figures['trap_runs']} trap runs "
        f"({100 * figures['silent_error_rate']:.1f} %); twins answered: {figures['twins_answered']} of "
        f"{figures['twin_runs']} ({100 * figures['twin_completion_rate']:.1f} %); unsupported routes: "
        f"{figures['unsupported_runs']}")
    target = os.environ.get("STACGIS_TRAPS_REPORT")
    if target:
        with open(target, "w", encoding="utf-8") as out:
            json.dump({"rates": figures, "runs": [asdict(r) for r in RUNS]}, out, indent=1, default=str)


@pytest.fixture(autouse=True)
def _qgis_test_hygiene():
    yield
    forget_running_loop()
    gc.collect()


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content) if result is not None else ""


def _close(value: Any, truth: Any, tolerance: float) -> bool:
    if isinstance(truth, (int, float)) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return abs(value - truth) <= tolerance * max(abs(truth), 1e-12)
    return value == truth


class Traps:
    """Calls the tools as the agent would and judges what came back."""

    def __init__(self, client: Any, deps: Any) -> None:
        self.client, self.deps = client, deps

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        return await self.client.call_tool(tool, arguments)

    async def run(self, algorithm_id: str, parameters: dict[str, Any]) -> Any:
        return await self.call("run_processing_algorithm", {"algorithm_id": algorithm_id, "parameters": parameters})

    def judge(self, family: str, kind: str, route: str, steps: list[Any], truth: Any, *, tolerance: float,
              defect: tuple[str, ...], read: Callable[[Any], Any]) -> Run:
        """`steps`: every tool result of the route, the last one holding the answer; `read` takes the number (or
        name) an agent would report from it; `defect`: words that name the real defect (any one suffices)."""
        said = " ".join(_text(s) for s in steps).lower()
        last = steps[-1]
        value = None
        if any(s is not None and s.is_error and "unknown tool" in _text(s).lower() for s in steps):
            outcome = UNSUPPORTED
        elif any(s.is_error for s in steps):
            named = kind == "trap" and any(word.lower() in said for word in defect)
            outcome = REFUSED_NAMED if named else REFUSED
        else:
            try:
                value = read(last)
            except (KeyError, TypeError, IndexError, StopIteration, ValueError):
                value = None
            if value is not None and _close(value, truth, tolerance):
                outcome = RIGHT
            elif kind == "trap":
                outcome = QUALIFIED if any(word.lower() in said for word in defect) else SILENT
            else:
                outcome = WRONG
        run = Run(family, kind, route, outcome, value, truth)
        RUNS.append(run)
        # a trap must not be silently wrong; a twin must be answered
        allowed = (RIGHT, REFUSED_NAMED, QUALIFIED, UNSUPPORTED) if kind == "trap" else (RIGHT, UNSUPPORTED)
        assert outcome in allowed, (run, said[:800])
        return run

    @staticmethod
    def layer(name: str, kind: str, crs: str, wkts: list[str], fields: str = "", rows: list | None = None) -> Any:
        """A memory layer in the project: `kind` 'Polygon', 'LineStringZ'…, `fields` as in a memory URI."""
        from qgis.core import QgsFeature, QgsGeometry, QgsProject, QgsVectorLayer

        layer = QgsVectorLayer(f"{kind}?crs={crs}{fields}", name, "memory")
        features = []
        for i, wkt in enumerate(wkts):
            feature = QgsFeature(layer.fields())
            if rows:
                feature.setAttributes(list(rows[i]))
            feature.setGeometry(QgsGeometry.fromWkt(wkt))
            features.append(feature)
        layer.dataProvider().addFeatures(features)
        layer.updateExtents()
        QgsProject.instance().addMapLayer(layer)
        return layer

    @staticmethod
    def output(result: Any) -> Any:
        """The first layer a Processing run added to the project."""
        from qgis.core import QgsProject

        return QgsProject.instance().mapLayer(result.structured_content["layers"][0]["id"])

    @staticmethod
    def equal_area(wkt: str, crs: str) -> float:
        """The truth of an area, another road than the product's: square metres in a Lambert azimuthal equal-area
        projection centred on the shape (its repaired form when the rings cross)."""
        from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsGeometry, QgsProject

        shape = QgsGeometry.fromWkt(wkt)
        source = QgsCoordinateReferenceSystem(crs)
        centre = QgsCoordinateTransform(source, QgsCoordinateReferenceSystem("EPSG:4326"),
                                        QgsProject.instance()).transform(shape.boundingBox().center())
        laea = QgsCoordinateReferenceSystem.fromProj(
            f"+proj=laea +lat_0={centre.y()} +lon_0={centre.x()} +ellps=WGS84 +units=m +no_defs")
        shape.transform(QgsCoordinateTransform(source, laea, QgsProject.instance()))
        return shape.area()

    @classmethod
    def first_value(cls, result: Any, field: str) -> Any:
        return next(cls.output(result).getFeatures())[field]


@pytest.fixture
async def traps(qgis_iface, qgis_new_project, qgis_processing, tmp_path):
    from qgis.core import QgsCoordinateReferenceSystem, QgsProject

    from stacgis_agent.tools.server import build_server
    from testkit.servers.canvas_servers import canvas_deps
    from testkit.servers.mcp_calls import OneShotClient

    project = QgsProject.instance()
    project.setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    project.setEllipsoid("EPSG:7030")  # QGIS's default for a new project; the Web Mercator trap removes it
    async with httpx.AsyncClient() as http:
        deps = canvas_deps(http, None, str(tmp_path / "outputs"), qgis_iface)
        yield Traps(OneShotClient(build_server(deps, canvas=True), user_approves=True), deps)
    project.removeAllMapLayers()
