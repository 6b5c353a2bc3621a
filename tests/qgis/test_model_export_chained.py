"""A real chat exported as a chained Processing model: the chat (a real AgentLoop whose only fake is the LLM,
scripted to read each tool result as a model would) loads a STAC item's red band, fills its nodata strip and takes
statistics of the filled layer with QGIS Processing, then computes the item's NDVI and its statistics. The
.model3 written from the stored session opens in a fresh model object with one step per call, each later
Processing step's INPUT bound to the earlier step's output (not a layer name), and, run by QGIS Processing in
an empty project, writes the rasters the chat made (same pixels) and gives the chat's statistics."""

from __future__ import annotations

import httpx
import numpy as np
import pytest
from osgeo import gdal
from qgis.core import QgsApplication, QgsProject

from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.agent.events import Done, ToolError, ToolResult
from stacgis_agent.agent.llm.ollama import OllamaProvider
from stacgis_agent.agent.loop import AgentLoop
from stacgis_agent.agent.map_context import MapContext
from stacgis_agent.agent.stores.sqlite_sessions import SqliteSessionStore
from stacgis_agent.tools.canvas.processing.provider import StacGisProvider
from stacgis_agent.tools.server import build_server
from testkit.llm.agent_harness import settings as chat_settings
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import ReactiveEmulator, tool_results
from testkit.qgis_drivers.modeler_view import show_in_the_modeler
from testkit.qgis_drivers.processing_framework import start_processing
from testkit.servers.canvas_servers import canvas_deps
from testkit.worlds.collection_world import COLLECTION, DATES, NODATA, served_collection_world

ITEM = f"A-{DATES[1]}"  # the date with a cloud block in its SCL: the index masks it, as the chat's did
STATISTICS = ("MEAN", "MIN", "MAX", "STD_DEV", "SUM")


@pytest.fixture(scope="module")
def s2_servers(tmp_path_factory):
    with served_collection_world(tmp_path_factory.mktemp("s2")) as served:
        yield served


@pytest.fixture
def provider(qgis_app, s2_servers, tmp_path):
    start_processing()  # QGIS's Processing framework, as in the desktop app
    api, _world = s2_servers
    made = StacGisProvider(lambda: Settings(catalogs=[CatalogConfig(name="test", url=api.url)]),
                           lambda: tmp_path / "provider-outputs", build_server)
    registry = QgsApplication.processingRegistry()
    assert registry.addProvider(made)
    yield made
    registry.removeProvider(made)


def _processing(algorithm_id: str, parameters: dict) -> tuple[str, dict]:
    return "run_processing_algorithm", {"algorithm_id": algorithm_id, "parameters": parameters}


def _last(body: dict, tool: str) -> dict:
    return tool_results(body, tool)[-1]


def _fill_then_index() -> list:
    """The model's replies; a layer is named as the model read it in the tool result before."""
    return [
        Turn(tool_calls=[("load_stac_items", {"collection": COLLECTION, "item_ids": [ITEM], "asset": "red"})]),
        lambda body: Turn(tool_calls=[_processing("native:fillnodata", {
            "INPUT": _last(body, "load_stac_items")["layers"][0]["name"], "BAND": 1, "FILL_VALUE": 0.5})]),
        lambda body: Turn(tool_calls=[_processing("native:rasterlayerstatistics", {
            "INPUT": _last(body, "run_processing_algorithm")["layers"][0]["name"], "BAND": 1})]),
        Turn(tool_calls=[("compute_index", {"index": "ndvi", "collection": COLLECTION, "item_id": ITEM})]),
        lambda body: Turn(tool_calls=[_processing("native:rasterlayerstatistics", {
            "INPUT": _last(body, "compute_index")["layer"], "BAND": 1})]),
        Turn(content="The filled red band and the NDVI are on the map, with their statistics.")]


async def _chat(api, qgis_iface, tmp_path, message: str, turns: list) -> tuple[list, object]:
    """Runs the chat and returns its events and the session as the store keeps it."""
    store = SqliteSessionStore(tmp_path / "sessions.sqlite")
    with ReactiveEmulator() as emu:
        emu.script(*turns)
        provider = OllamaProvider(emu.url, "qwen3:8b")
        async with httpx.AsyncClient() as http:
            server = build_server(canvas_deps(http, api.url, str(tmp_path / "chat-outputs"), qgis_iface),
                                  canvas=True)
            loop = AgentLoop(provider, server, chat_settings(ollama_url=emu.url), session_id="chat",
                             session_store=store)
            try:
                events = [e async for e in loop.run(message, MapContext())]
            finally:
                await loop.aclose()
                await provider.aclose()
    record = await store.history("chat")
    await store.aclose()
    assert isinstance(events[-1], Done) and not [e for e in events if isinstance(e, ToolError)], events
    return events, record


def _results(events: list) -> list:
    """What each completed tool call of the chat gave back, in order."""
    return [e.result for e in events if isinstance(e, ToolResult)]


def _pixels(path: str) -> np.ndarray:
    return gdal.Open(path).ReadAsArray().astype(np.float64)


async def test_a_chat_becomes_a_chained_model_that_rebuilds_its_layers_and_numbers(
        provider, s2_servers, qgis_iface, qgis_new_project, tmp_path, monkeypatch):
    import processing
    from qgis.core import QgsProcessingModelAlgorithm

    from stacgis_agent.ui.model_export import child_output, write_model

    api, world = s2_servers
    events, record = await _chat(api, qgis_iface, tmp_path, "Fill the gaps of the red band of that scene and give "
                                 "its statistics, then the NDVI and its statistics", _fill_then_index())
    loaded, filled, filled_stats, index, index_stats = _results(events)
    assert filled_stats["results"]["MEAN"] and 0.1 < index["mean"] < 0.9  # the chat made real numbers

    path = tmp_path / "chat.model3"
    assert write_model(record, path) == 5
    QgsProject.instance().removeAllMapLayers()  # the model must not lean on the chat's layers by name

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(path))
    children = sorted(model.childAlgorithms().values(), key=lambda c: int(c.description().split(".")[0]))
    assert [c.algorithmId() for c in children] == ["stacgis:loaditems", "native:fillnodata",
                                                   "native:rasterlayerstatistics", "stacgis:spectralindex",
                                                   "native:rasterlayerstatistics"]
    load, fill, stats, ndvi, ndvi_stats = children
    assert load.parameterSources()["ITEM_IDS"][0].staticValue() == ITEM
    assert load.parameterSources()["ASSET"][0].staticValue() == "red"
    assert ndvi.parameterSources()["ITEM_ID"][0].staticValue() == ITEM
    assert ndvi.parameterSources()["INDEX"][0].staticValue() == 0  # NDVI, the provider's first option
    for consumer, producer in ((fill, load), (stats, fill), (ndvi_stats, ndvi)):
        [source] = consumer.parameterSources()["INPUT"]
        assert source.source() == child_output(), consumer.description()
        assert (source.outputChildId(), source.outputName()) == (producer.childId(), "OUTPUT")
        assert producer.childId() in [d.childId for d in consumer.dependencies()]
    assert model.dependsOnChildAlgorithms(ndvi_stats.childId()) == {ndvi.childId()}

    destinations = {d.name(): "TEMPORARY_OUTPUT" for d in model.destinationParameterDefinitions()}
    run = processing.run(model, destinations)  # the model as the Modeler opened it, in an empty project
    done = run["CHILD_RESULTS"]

    def same_pixels(mine: str, theirs: str) -> None:
        a, b = _pixels(mine), _pixels(theirs)
        assert a.shape == b.shape and np.array_equal(np.isnan(a), np.isnan(b))
        assert np.array_equal(a[np.isfinite(a)], b[np.isfinite(b)])

    same_pixels(done[load.childId()]["OUTPUT"], loaded["layers"][0]["source"])
    same_pixels(done[fill.childId()]["OUTPUT"], filled["results"]["OUTPUT"])
    same_pixels(done[ndvi.childId()]["OUTPUT"], index["file"])
    for step, theirs in ((stats, filled_stats), (ndvi_stats, index_stats)):
        for key in STATISTICS:
            assert done[step.childId()][key] == pytest.approx(float(theirs["results"][key]), rel=1e-9), key
    assert done[ndvi_stats.childId()]["MEAN"] == pytest.approx(index["mean"], abs=1e-6)
    assert (world.bands[ITEM]["red"][:4] == NODATA).all()  # the strip of nodata along the north edge, filled
    assert np.allclose(_pixels(done[fill.childId()]["OUTPUT"])[:4], 0.5)

    from qgis.PyQt.QtCore import QSize

    monkeypatch.setattr(qgis_iface, "iconSize", lambda dockedToolbar=False: QSize(24, 24), raising=False)
    show_in_the_modeler(model, [c.description() for c in children], size=(1100, 760))


async def test_items_loaded_from_a_search_are_a_step_and_a_layer_named_by_id_is_chained(
        provider, s2_servers, qgis_iface, qgis_new_project, tmp_path):
    """search_items → load_stac_items of the search's item collection file → statistics of the layer given by
    its id; a view of two tiles in two CRSs (two rasters, which loaditems refuses) is left out of the model."""
    import processing
    from qgis.core import QgsProcessingModelAlgorithm

    from stacgis_agent.ui.model_export import child_output, write_model

    api, world = s2_servers
    bbox = world.lonlat_bbox()
    turns = [
        Turn(tool_calls=[("search_items", {"collections": [COLLECTION], "bbox": bbox, "datetime": DATES[0]})]),
        lambda body: Turn(tool_calls=[("load_stac_items", {
            "item_collection_file": _last(body, "search_items")["item_collection_file"], "asset": "nir"})]),
        lambda body: Turn(tool_calls=[_processing("native:rasterlayerstatistics", {
            "INPUT": _last(body, "load_stac_items")["layers"][0]["id"], "BAND": 1})]),
        Turn(tool_calls=[("visualize_collection", {"collection": COLLECTION, "bbox": bbox, "datetime": DATES[2],
                                                   "asset": "nir"})]),
        Turn(content="Here are the scene's statistics and the last date's two tiles.")]
    events, record = await _chat(api, qgis_iface, tmp_path, "Statistics of the near-infrared band of the first "
                                 "scene, then show the last date", turns)
    found, loaded, stats, shown = _results(events)
    assert [i["id"] for i in found["items"]] == [f"A-{DATES[0]}"] and len(shown["layers"]) == 2

    path = tmp_path / "search.model3"
    assert write_model(record, path) == 3  # the two-CRS view has no one-file counterpart
    QgsProject.instance().removeAllMapLayers()
    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(path))
    search, load, statistics = sorted(model.childAlgorithms().values(),
                                      key=lambda c: int(c.description().split(".")[0]))
    assert [c.algorithmId() for c in (search, load, statistics)] == [
        "stacgis:searchfootprints", "stacgis:loaditems", "native:rasterlayerstatistics"]
    assert load.parameterSources()["ITEM_IDS"][0].staticValue() == f"A-{DATES[0]}"
    assert load.parameterSources()["COLLECTION"][0].staticValue() == COLLECTION
    [source] = statistics.parameterSources()["INPUT"]
    assert source.source() == child_output() and source.outputChildId() == load.childId()

    run = processing.run(model, {d.name(): "TEMPORARY_OUTPUT" for d in model.destinationParameterDefinitions()})
    done = run["CHILD_RESULTS"]
    # the search's step, as the chat found the items (QGIS names a model's outputs differently by version)
    [key] = [d.name() for d in model.destinationParameterDefinitions() if "Footprints" in f"{d.name()} {d.description()}"]
    footprints = run[key]
    assert [f["id"] for f in footprints.getFeatures()] == [i["id"] for i in found["items"]]
    mine, theirs = _pixels(done[load.childId()]["OUTPUT"]), _pixels(loaded["layers"][0]["source"])
    assert np.array_equal(mine, theirs)
    for key in STATISTICS:
        assert done[statistics.childId()][key] == pytest.approx(float(stats["results"][key]), rel=1e-9), key
