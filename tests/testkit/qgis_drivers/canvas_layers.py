"""Small real QGIS layers for canvas tests: cities as points (memory layer) and a DEM GeoTIFF."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsRasterLayer, QgsVectorLayer

from ..worlds.cogs import smooth_field, write_cog

CITIES = [("Lyon", 4.835, 45.764, 522_000, "FR"), ("Grenoble", 5.724, 45.188, 158_000, "FR"),
          ("Geneva", 6.143, 46.204, 203_000, "CH"), ("Turin", 7.686, 45.070, 848_000, "IT"),
          ("Annecy", 6.129, 45.899, 130_000, "FR")]


def city_layer(name: str = "cities") -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string&field=population:integer&field=country:string",
                           name, "memory")
    features = []
    for city, lon, lat, pop, country in CITIES:
        f = QgsFeature(layer.fields())
        f.setAttributes([city, pop, country])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        features.append(f)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def dem_layer(folder: Path, name: str = "dem") -> QgsRasterLayer:
    path = write_cog(Path(folder) / f"{name}.tif", smooth_field(200, 200, seed=3), origin=(5.0, 46.0), pixel_size=0.005)
    return QgsRasterLayer(str(path), name, "gdal")
