"""Every message carries what the analyst sees: extent, CRS, centre in lon/lat, scale, active
layer, layers and the selected features as small GeoJSON in lon/lat."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsGeometry,
    QgsRectangle,
    QgsVectorLayer,
)

from stacgis_agent.host.canvas_context import map_context_from_iface


def _parcels():
    layer = QgsVectorLayer("Polygon?crs=EPSG:2154&field=name:string", "parcels", "memory")
    feats = []
    for i, x in enumerate((842000, 843000, 844000)):
        f = QgsFeature(layer.fields())
        f.setAttributes([f"p{i}"])
        f.setGeometry(QgsGeometry.fromRect(QgsRectangle(x, 6519000, x + 500, 6519500)))
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def test_context_reports_view_layers_and_selection_in_lonlat(qgis_iface, qgis_new_project):
    layer = _parcels()
    qgis_new_project.addMapLayer(layer)
    canvas = qgis_iface.mapCanvas()
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:2154"))
    canvas.resize(800, 600)
    canvas.setExtent(QgsRectangle(841000, 6515000, 847000, 6521000))
    qgis_iface.setActiveLayer(layer)
    layer.selectByExpression("name = 'p2'")

    ctx = map_context_from_iface(qgis_iface)

    assert ctx.crs == "EPSG:2154"
    assert ctx.extent[0] <= 841000 and ctx.extent[2] >= 847000
    lon, lat = ctx.center_lonlat
    assert 4.7 < lon < 4.95 and 45.6 < lat < 45.9  # Lyon, transformed from Lambert-93
    assert ctx.active_layer == "parcels"
    assert [(layer.name, layer.kind, layer.feature_count) for layer in ctx.layers] == [("parcels", "vector", 3)]
    features = ctx.selected_features["features"]
    assert len(features) == 1 and features[0]["properties"]["name"] == "p2"
    x0 = features[0]["geometry"]["coordinates"][0][0][0]
    assert 4.7 < x0 < 5.0  # exported in lon/lat, not Lambert-93 metres
    assert {"layer", "vector_layer", "selection", "active_layer"} <= ctx.states()
    assert "parcels" in ctx.to_prompt()


def test_no_selection_and_empty_project(qgis_iface, qgis_new_project):
    ctx = map_context_from_iface(qgis_iface)
    assert ctx.layers == () and ctx.selected_features is None and ctx.active_layer == ""


def test_the_measurement_ellipsoid_is_in_the_context(qgis_iface, qgis_new_project):
    qgis_new_project.setCrs(QgsCoordinateReferenceSystem("EPSG:2154"))  # a project without a CRS has no ellipsoid
    qgis_new_project.setEllipsoid("EPSG:7019")
    assert "measurement ellipsoid: GRS 1980 (EPSG:7019)" in map_context_from_iface(qgis_iface).to_prompt()
    qgis_new_project.setEllipsoid("NONE")
    assert "QGIS measures planar" in map_context_from_iface(qgis_iface).ellipsoid
