"""The map chip under the chat says what the canvas shows now: CRS, scale, centre, active layer and
selection follow the analyst's pans, zooms and clicks without sending a message."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsPointXY,
    QgsProject,
    QgsRectangle,
    QgsVectorLayer,
)

from testkit.qgis_drivers.plugin_driver import process_until

NNBSP = "\u202f"


def _scale(canvas) -> str:
    return f"1:{canvas.scale():,.0f}".replace(",", NNBSP)


def _parcels() -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string", "parcels", "memory")
    features = []
    for i, (lon, lat) in enumerate([(4.83, 45.76), (4.84, 45.75), (4.85, 45.77)]):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([f"p{i}"])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    return layer


def test_chip_follows_zoom_pan_crs_active_layer_and_selection(plugin, qgis_iface):
    chip = plugin.runtime.panel.map_chip
    canvas = qgis_iface.mapCanvas()
    layer = _parcels()
    canvas.setLayers([layer])

    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:32631"))
    canvas.setExtent(QgsRectangle(636000, 5065000, 650000, 5075000))  # Lyon, UTM 31N
    canvas.refresh()
    assert process_until(lambda: "EPSG:32631" in chip.text() and _scale(canvas) in chip.text(), 5), chip.text()
    assert "45.7" in chip.text() and "°N 4.8" in chip.text()

    before = chip.text()
    canvas.zoomByFactor(0.25)  # zoom in
    assert process_until(lambda: _scale(canvas) in chip.text(), 5), chip.text()
    assert chip.text() != before

    canvas.setCenter(QgsPointXY(700000, 5065000))  # pan ~55 km east
    assert process_until(lambda: "°N 5.5" in chip.text(), 5), chip.text()

    qgis_iface.setActiveLayer(layer)
    canvas.setCurrentLayer(layer)  # what QGIS does when the analyst clicks a layer (the test iface does not)
    assert process_until(lambda: "parcels" in chip.text(), 5), chip.text()
    layer.selectByIds([f.id() for f in layer.getFeatures()][:2])
    assert process_until(lambda: "2 selected" in chip.text(), 5), chip.text()
    layer.removeSelection()
    assert process_until(lambda: "selected" not in chip.text(), 5), chip.text()


def test_chip_says_when_the_map_is_not_sent(plugin):
    chip = plugin.runtime.panel.map_chip
    chip.click()
    assert chip.text() == "Map: not sent" and not chip.include
    chip.click()
    assert chip.text().startswith("Map: ") and chip.include


def test_an_empty_map_says_so_instead_of_a_made_up_scale(plugin, qgis_iface):
    canvas = qgis_iface.mapCanvas()
    canvas.setLayers([])
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    chip = plugin.runtime.panel.map_chip
    assert process_until(lambda: chip.text() == "Map: EPSG:4326 · no layers shown", 5), chip.text()
