"""The map as it is now (groups, layers, sources, styles, CRS, view) as a PyQGIS script that rebuilds it.

Read from the live project rather than replayed from the tool calls: what the analyst undid or changed
by hand is then exactly what the script reproduces. The script is text for the user to run, in the QGIS
Python console or as standalone PyQGIS; the plugin never executes it.
"""

from __future__ import annotations

import datetime
import pprint
from typing import Any

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayerTreeGroup,
    QgsLayerTreeLayer,
    QgsMapLayer,
    QgsProject,
    QgsReadWriteContext,
    QgsVectorLayer,
)
from qgis.PyQt.QtXml import QDomDocument

# Features of an in-memory layer are written into the script; beyond this the script would be unreadable.
MAX_MEMORY_FEATURES = 5000


def project_to_pyqgis(title: str, project: QgsProject | None = None, canvas=None) -> str:
    project = project or QgsProject.instance()
    crs = project.crs()
    view: dict[str, Any] | None = None
    if canvas is not None and not canvas.extent().isEmpty():
        e, view_crs = canvas.extent(), canvas.mapSettings().destinationCrs()
        view = {"extent": [e.xMinimum(), e.yMinimum(), e.xMaximum(), e.yMaximum()], "crs": _crs(view_crs)}
    styles: list[str] = []
    tree = _children(project.layerTreeRoot(), styles)
    data = {"crs": _crs(crs), "tree": tree, "view": view}
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    safe_title = title.replace("\\", "/").replace('"""', "'''")
    return (SCRIPT.replace("@TITLE@", safe_title).replace("@WHEN@", when)
            .replace("@COUNT@", str(_count_layers(tree)))
            .replace("@MAP@", pprint.pformat(data, width=110, sort_dicts=False))
            .replace("@STYLES@", pprint.pformat(styles, width=110)))


def _crs(crs) -> str:
    """"EPSG:32631" when QGIS knows an id for it, else the full WKT."""
    if not crs.isValid():
        return ""
    return crs.authid() or crs.toWkt(QgsCoordinateReferenceSystem.WktVariant.WKT_PREFERRED)  # WKT1 loses detail


def _children(group: QgsLayerTreeGroup, styles: list[str]) -> list[dict[str, Any]]:
    nodes = []
    for child in group.children():
        if isinstance(child, QgsLayerTreeGroup):
            nodes.append({"group": child.name(), "visible": child.itemVisibilityChecked(),
                          "expanded": child.isExpanded(), "children": _children(child, styles)})
        elif isinstance(child, QgsLayerTreeLayer) and child.layer() is not None:
            nodes.append(_layer(child.layer(), child.itemVisibilityChecked(), styles))
    return nodes


def _layer(layer: QgsMapLayer, visible: bool, styles: list[str]) -> dict[str, Any]:
    kind = {QgsMapLayer.LayerType.VectorLayer: "vector",
            QgsMapLayer.LayerType.RasterLayer: "raster"}.get(layer.type(), "other")
    provider = layer.providerType()
    source = layer.dataProvider().dataSourceUri() if provider == "memory" else layer.source()
    styles.append(_qml(layer))
    entry: dict[str, Any] = {"layer": layer.name(), "kind": kind, "provider": provider, "source": source,
                             "crs": _crs(layer.crs()), "visible": visible, "style": len(styles) - 1}
    if provider == "memory" and isinstance(layer, QgsVectorLayer):
        entry["features"] = [[f.geometry().asWkt() if f.hasGeometry() else "", [_plain(v) for v in f.attributes()]]
                             for _, f in zip(range(MAX_MEMORY_FEATURES), layer.getFeatures())]
        entry["features_total"] = layer.featureCount()
    return entry


def _qml(layer: QgsMapLayer) -> str:
    doc = QDomDocument("qgis")
    layer.exportNamedStyle(doc, QgsReadWriteContext())
    return doc.toString()


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "isNull") and value.isNull():
        return None
    if hasattr(value, "toString"):  # QDate, QDateTime, QTime
        return value.toString(1)  # Qt.ISODate
    return str(value)


def _count_layers(nodes: list[dict[str, Any]]) -> int:
    return sum(_count_layers(n["children"]) if "group" in n else 1 for n in nodes)


SCRIPT = '''"""Rebuilds the QGIS map of the STAC GIS Agent conversation "@TITLE@"
as it was on @WHEN@: @COUNT@ layer(s) with their groups, styles, the project CRS and the view.

How to run it:
- in QGIS: Plugins > Python Console > Show Editor > Open this file > Run. It adds the layers to
  the open project and zooms the map to the saved view;
- without the QGIS window (standalone PyQGIS), with the Python that has QGIS's modules (python3 on
  Linux, the OSGeo4W Shell on Windows):  python3 this_file.py [output.qgz]
  It writes a QGIS project (next to this file by default) that opens on the saved view; layers that
  lived only in memory go into a GeoPackage beside it.

Layers open from their original sources (files, URLs); a source that is gone is reported and skipped.
"""
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsFeature, QgsGeometry, QgsProject,
                       QgsRasterLayer, QgsRectangle, QgsReferencedRectangle, QgsVectorFileWriter, QgsVectorLayer)
from qgis.PyQt.QtXml import QDomDocument

MAP = @MAP@


def crs_of(text):
    if not text:
        return QgsCoordinateReferenceSystem()
    return QgsCoordinateReferenceSystem.fromWkt(text) if text.rstrip().endswith("]") else \
        QgsCoordinateReferenceSystem(text)


def open_layer(spec):
    if spec["kind"] == "raster":
        layer = QgsRasterLayer(spec["source"], spec["layer"], spec["provider"])
    else:
        layer = QgsVectorLayer(spec["source"], spec["layer"], spec["provider"])
    if not layer.isValid():
        print("Could not open layer", repr(spec["layer"]), "from", spec["source"])
        return None
    if spec["crs"]:
        layer.setCrs(crs_of(spec["crs"]))
    if spec.get("features"):
        features = []
        for wkt, attributes in spec["features"]:
            feature = QgsFeature(layer.fields())
            if wkt:
                feature.setGeometry(QgsGeometry.fromWkt(wkt))
            feature.setAttributes(attributes)
            features.append(feature)
        layer.dataProvider().addFeatures(features)
        if spec["features_total"] > len(features):
            print(spec["layer"], ": only the first", len(features), "of", spec["features_total"], "features")
    style = QDomDocument()
    style.setContent(STYLES[spec["style"]])
    layer.importNamedStyle(style)
    return layer


def add_nodes(project, group, nodes):
    for spec in nodes:
        if "group" in spec:
            child = group.addGroup(spec["group"])
            add_nodes(project, child, spec["children"])
            child.setItemVisibilityChecked(spec["visible"])
            child.setExpanded(spec["expanded"])
            continue
        layer = open_layer(spec)
        if layer is None:
            continue
        project.addMapLayer(layer, False)
        group.addLayer(layer).setItemVisibilityChecked(spec["visible"])


def rebuild(project):
    if MAP["crs"]:
        project.setCrs(crs_of(MAP["crs"]))
    add_nodes(project, project.layerTreeRoot(), MAP["tree"])
    view = MAP["view"]
    if view:
        project.viewSettings().setDefaultViewExtent(
            QgsReferencedRectangle(QgsRectangle(*view["extent"]), crs_of(view["crs"])))
    return view


def keep_memory_layers(project, gpkg):
    """A saved project does not keep in-memory features: write them to a GeoPackage and point the layers there."""
    for layer in list(project.mapLayers().values()):
        if layer.providerType() != "memory":
            continue
        options = QgsVectorFileWriter.SaveVectorOptions()
        options.layerName = layer.name()
        if Path(gpkg).exists():
            options.actionOnExistingFile = QgsVectorFileWriter.CreateOrOverwriteLayer
        error = QgsVectorFileWriter.writeAsVectorFormatV3(layer, gpkg, project.transformContext(), options)
        if error[0] != QgsVectorFileWriter.NoError:
            print("Could not save", repr(layer.name()), "to", gpkg, ":", error[1])
            continue
        layer.setDataSource(gpkg + "|layername=" + layer.name(), layer.name(), "ogr")


# Each layer's style as QGIS saves it in a .qml file (renderer, colours, labels, opacity).
STYLES = @STYLES@

try:
    from qgis.utils import iface
except ImportError:
    iface = None

standalone = QgsApplication.instance() is None
if standalone:
    app = QgsApplication([], False)
    app.initQgis()
view = rebuild(QgsProject.instance())
if iface is not None and view:
    canvas = iface.mapCanvas()
    canvas.setDestinationCrs(crs_of(view["crs"]))
    canvas.setExtent(QgsRectangle(*view["extent"]))
    canvas.refresh()
if standalone:
    default = Path(globals().get("__file__", "map.py")).with_suffix(".qgz")
    target = sys.argv[1] if len(sys.argv) > 1 else str(default)
    keep_memory_layers(QgsProject.instance(), str(Path(target).with_suffix("")) + "_layers.gpkg")
    if QgsProject.instance().write(target):
        print("Wrote", target)
    else:
        print("Could not write", target, ":", QgsProject.instance().error())
    QgsProject.instance().removeAllMapLayers()
    app.exitQgis()
'''
