"""'Zoom to <place>' through the dock: typed, Enter, and the canvas shows the place asked for —
not a footprint whose id contains the name — and the model is told where the place was found."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsVectorLayer,
)

from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import chat
from testkit.qgis_drivers.plugin_driver import send, wait_turn

LYON = (4.835, 45.764)
FOOTPRINT_CENTRE = (5.95, 45.75)


def _footprints_with_lyon_in_an_id() -> None:
    layer = QgsVectorLayer("Polygon?crs=EPSG:4326&field=id:string&field=collection:string", "footprints", "memory")
    feature = QgsFeature(layer.fields())
    feature.setAttributes(["S2A_31TGL_20230601", "sentinel-2-lyon-2023"])
    feature.setGeometry(QgsGeometry.fromWkt("POLYGON((5.6 45.5,6.3 45.5,6.3 46.0,5.6 46.0,5.6 45.5))"))
    layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)


def _shows(canvas, lon: float, lat: float) -> bool:
    to_canvas = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"),
                                       canvas.mapSettings().destinationCrs(), QgsProject.instance())
    return canvas.extent().contains(to_canvas.transform(QgsPointXY(lon, lat)))


def test_zoom_to_lyon_lands_on_the_city_and_says_where_it_was_found(plugin, emu, qgis_iface):
    _footprints_with_lyon_in_an_id()
    emu.script(Turn(tool_calls=[("zoom_to_location", {"place": "Lyon"})]),
               Turn(content="The map now shows Lyon."))
    send(plugin, "Zoom to Lyon")
    wait_turn(plugin, timeout=60)
    canvas = qgis_iface.mapCanvas()
    assert _shows(canvas, *LYON) and not _shows(canvas, *FOOTPRINT_CENTRE), canvas.extent().toString()
    told = tool_messages(emu.chat_requests()[-1], "zoom_to_location")[0]["content"]
    assert "offline gazetteer" in told and "France" in told
    assert chat(plugin)[-1] == ("assistant", "The map now shows Lyon.")


def test_a_name_shared_by_several_places_moves_nothing_and_hands_the_model_the_choices(plugin, emu, qgis_iface):
    canvas = qgis_iface.mapCanvas()
    before = canvas.extent().toString()
    emu.script(Turn(tool_calls=[("zoom_to_location", {"place": "Georgia"})]),
               Turn(content="Do you mean the country Georgia or the US state?"))
    send(plugin, "zoom to georgia")
    wait_turn(plugin, timeout=60)
    told = tool_messages(emu.chat_requests()[-1], "zoom_to_location")[0]["content"]
    assert "Georgia (country)" in told and "United States" in told and "ask_user" in told
    assert canvas.extent().toString() == before
