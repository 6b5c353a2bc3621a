"""The undo history on a real project: a layer the assistant styled and the analyst then restyled by hand
is kept (and named) when going back; print layouts come and go with their turn; a file a turn overwrote
is said to be lost, a file it wrote is set aside and put back by redo; the record is read back from the
project by a new history (a plugin reload)."""

from __future__ import annotations

import asyncio

from qgis.core import QgsPrintLayout, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt

from stacgis_agent.agent.events import UserMessage
from stacgis_agent.tools.canvas.undo.history import TurnHistory
from stacgis_agent.tools.canvas.undo.turns import ChatTurns


def _colour(layer) -> str:
    return layer.renderer().symbol().color().name()


def _restyle(history, layer, colour) -> None:
    history.renderer_changing(layer)  # what set_layer_style does first
    layer.renderer().symbol().setColor(colour)


def _start(coro):
    return asyncio.ensure_future(coro)


async def test_a_hand_restyle_of_the_assistants_layer_is_kept_and_named(qgis_new_project):
    project = QgsProject.instance()
    history = TurnHistory()
    history.begin_turn("t1", "add the parcels")
    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory")
    project.addMapLayer(parcels)
    history.layer_added(parcels)
    history.end_turn()
    history.begin_turn("t2", "make them blue")
    _restyle(history, parcels, Qt.GlobalColor.blue)
    history.end_turn()
    parcels.renderer().symbol().setColor(Qt.GlobalColor.red)  # the analyst, by hand

    report = history.revert_to(0)
    assert report.turns == [2, 1]
    assert report.kept == ["layer 'parcels' as you changed it"]
    assert project.mapLayer(parcels.id()) is parcels and _colour(parcels) == "#ff0000"
    assert "Kept your own changes: layer 'parcels' as you changed it." in report.message(target=0)


async def test_layouts_files_and_a_reload_of_the_history(qgis_new_project, tmp_path):
    project = QgsProject.instance()
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    (outputs / "old.tif").write_bytes(b"before")
    turns = ChatTurns(TurnHistory(), outputs, start_task=_start)
    turns.begin(UserMessage("make a page and write files", "m1"))
    await asyncio.sleep(0.05)  # the folder as the turn began is read in a worker thread
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName("Parcels A4")
    project.layoutManager().addLayout(layout)
    (outputs / "page.pdf").write_bytes(b"%PDF new")
    (outputs / "old.tif").write_bytes(b"overwritten after the OK")
    turns.busy_changed(False)
    while turns.reading_files:
        await asyncio.sleep(0.01)

    [entry] = turns.history.entries()
    assert entry.title == "Turn 1 · made print layout 'Parcels A4' · wrote file 'page.pdf' · overwrote file 'old.tif'"
    assert entry.warnings == ["Cannot be undone: overwrote file 'old.tif'"]

    reloaded = ChatTurns(TurnHistory(), outputs, start_task=_start)  # the plugin loaded again
    assert [e.title for e in reloaded.history.entries()] == [entry.title]
    outcome = await reloaded.back_to(0)
    assert project.layoutManager().layoutByName("Parcels A4") is None
    assert not (outputs / "page.pdf").exists() and (outputs / ".undone").is_dir()
    assert (outputs / "old.tif").read_bytes() == b"overwritten after the OK"
    assert "Cannot be brought back: 'old.tif' (overwritten in turn 1)." in outcome.message, outcome.message
    assert "deleted print layout 'Parcels A4'" in outcome.message

    outcome = await reloaded.redo_to(1)
    assert outcome.message.startswith("Redid turn 1"), outcome.message
    assert (outputs / "page.pdf").read_bytes() == b"%PDF new"
    assert project.layoutManager().layoutByName("Parcels A4") is not None


async def test_redo_leaves_a_thing_changed_by_hand_since_and_says_so(qgis_new_project):
    project = QgsProject.instance()
    parcels = QgsVectorLayer("Polygon?crs=EPSG:4326", "parcels", "memory")
    project.addMapLayer(parcels)
    history = TurnHistory()
    history.begin_turn("t1", "make the parcels blue")
    _restyle(history, parcels, Qt.GlobalColor.blue)
    history.end_turn()
    before = history.revert_to(0)
    assert before.done == ["put back the style of 'parcels'"] and _colour(parcels) != "#0000ff"
    parcels.renderer().symbol().setColor(Qt.GlobalColor.green)  # the analyst, by hand

    report = history.redo_to(1)
    assert _colour(parcels) == "#00ff00"
    assert report.message(redo=True) == ("Redid turn 1, but nothing in it could be redone. "
                                         "Not redone, you changed them since: restyled 'parcels'.")
    assert history.entries()[0].current and not history.entries()[0].undone


async def test_a_raster_set_aside_by_undo_is_closed_first_and_stays_aside(qgis_new_project, tmp_path):
    """The layer undo takes out keeps no GDAL dataset on the file it sets aside: a dataset closed later writes
    a VRT whose statistics changed back to its old path (QGIS 3.40 / GDAL 3.10), bringing the file back."""
    import gc
    import weakref

    import numpy as np
    from osgeo import gdal
    from qgis.core import QgsRasterLayer
    from qgis.PyQt import sip

    project = QgsProject.instance()
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    source = tmp_path / "tile.tif"
    tile = gdal.GetDriverByName("GTiff").Create(str(source), 8, 8, 1, gdal.GDT_Byte)
    tile.SetGeoTransform((600000, 10, 0, 5100000, 0, -10))
    tile.GetRasterBand(1).WriteArray(np.arange(64, dtype=np.uint8).reshape(8, 8))
    tile = None
    turns = ChatTurns(TurnHistory(), outputs, start_task=_start)
    turns.begin(UserMessage("show the scene", "m1"))
    await asyncio.sleep(0.05)  # the folder as the turn began is read in a worker thread
    vrt = outputs / "scene.vrt"
    gdal.BuildVRT(str(vrt), [str(source)]).FlushCache()
    layer = QgsRasterLayer(str(vrt), "scene", "gdal")
    assert layer.isValid()
    project.addMapLayer(layer)
    turns.history.layer_added(layer)
    layer.dataProvider().bandStatistics(1)  # QGIS reads the raster through the layer's own dataset
    turns.busy_changed(False)
    while turns.reading_files:
        await asyncio.sleep(0.01)
    watch = weakref.ref(layer)
    del layer  # only the history holds the layer now

    outcome = await turns.back_to(0)
    assert "set 'scene.vrt' aside in the outputs folder's .undone folder, for a redo" in outcome.message, outcome.message
    assert watch() is None or sip.isdeleted(watch())  # let go before the move, not kept for a later collection
    [aside] = (outputs / ".undone").rglob("scene.vrt")
    kept = aside.read_bytes()  # with the statistics GDAL wrote as the layer closed it: still the turn's file
    gc.collect()
    project.clear()  # the history's parked layers are dropped here too
    assert not vrt.exists()  # no dataset left to write it back

    outcome = await turns.redo_to(1)
    assert outcome.message.startswith("Redid turn 1"), outcome.message
    [back] = project.mapLayers().values()
    assert back.isValid() and back.source() == str(vrt) and vrt.read_bytes() == kept
