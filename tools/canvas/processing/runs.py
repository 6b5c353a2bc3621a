"""How an algorithm of the "STAC GIS Agent" Processing provider runs: the plugin's settings read when it
runs, an asyncio loop of its own in Processing's worker thread, Processing's cancel button watched while
the work is in flight, and the parameters every algorithm shares (catalog, collection, extent)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingAlgorithm,
    QgsProcessingParameterString,
)

from ....agent.config import Settings

INDICES = ("NDVI", "NDWI", "NDMI", "NBR", "NDSI", "NDBI", "EVI", "SAVI")
WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
POLL_S = 0.2  # how often a running tool looks at Processing's cancel button

SettingsSource = Callable[[], Settings]
OutputsSource = Callable[[], Path]
ServerSource = Callable[[Any], Any]  # ToolDeps -> the MCPServer of one run (tools.server.build_server)


class CancelledRun(Exception):
    """Processing's cancel button was pressed while the work was in flight."""


class StacGisAlgorithm(QgsProcessingAlgorithm):
    """An algorithm of the provider: it reads the plugin's settings and outputs folder when it runs."""

    def __init__(self, settings: SettingsSource, outputs: OutputsSource, serve: ServerSource):
        super().__init__()
        self._settings = settings
        self._outputs = outputs
        self._serve = serve  # builds the tool server for one run (tools/server.py, handed down by the plugin)

    def createInstance(self):  # noqa: N802 - QGIS's name
        return type(self)(self._settings, self._outputs, self._serve)

    def group(self) -> str:
        return "STAC"

    def groupId(self) -> str:  # noqa: N802 - QGIS's name
        return "stac"

    def _common_parameters(self) -> None:
        self.addParameter(QgsProcessingParameterString("CATALOG", "Catalog (name from the plugin's settings; "
                                                       "empty: the first)", optional=True, defaultValue=""))
        self.addParameter(QgsProcessingParameterString("COLLECTION", "Collection id"))


@contextlib.asynccontextmanager
async def tool_deps(settings: Settings, folder: Path) -> AsyncIterator[Any]:
    """The tools' dependencies for one run, with an HTTP client of the run's own and `folder` as their
    outputs folder."""
    import httpx

    from ...deps import ToolDeps

    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0)) as http:
        yield ToolDeps.from_settings(settings, http=http, work_dir=str(folder))


def run_on_own_loop(make: Callable[[], Any]) -> Any:
    """Runs a coroutine on an asyncio loop of its own: in Processing's worker thread directly; on a thread
    of its own when this thread already runs a loop (processing.run from QGIS's console, where the
    plugin's qasync loop runs), which processing.run then waits for, as it waits for any algorithm."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = asyncio.run(make())
        except BaseException as exc:  # handed back to the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="stacgis-processing")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


async def watched(work: Awaitable[Any], feedback: Any) -> Any:
    """`work`'s result; cancelled, and CancelledRun raised, as soon as Processing's cancel button is pressed."""
    call = asyncio.ensure_future(work)
    while not call.done():
        if feedback is not None and feedback.isCanceled():
            call.cancel()
            raise CancelledRun()
        await asyncio.wait({call}, timeout=POLL_S)
    return call.result()


def bbox_of(algorithm: QgsProcessingAlgorithm, parameters: dict, context: Any) -> list[float] | None:
    """The EXTENT parameter in degrees [west, south, east, north], or None when it is not given."""
    if not parameters.get("EXTENT"):
        return None
    extent = algorithm.parameterAsExtent(parameters, "EXTENT", context, WGS84)
    if extent.isNull() or extent.isEmpty():
        return None
    return [extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()]


def text_of(algorithm: QgsProcessingAlgorithm, parameters: dict, name: str, context: Any) -> str | None:
    value = algorithm.parameterAsString(parameters, name, context).strip()
    return value or None
