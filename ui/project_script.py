"""The map as it is now (groups, layers, sources, styles, CRS, view) as a PyQGIS script that rebuilds it.

Read from the live project rather than replayed from the tool calls: what the analyst undid or changed
by hand is then exactly what the script reproduces. The script is text for the user to run, in the QGIS
Python console or as standalone PyQGIS; the plugin never executes it.

Titles, layer names, sources and attribute values come from the analyst, the model and catalogs, so none
of them is ever pasted into code: the script is one fixed program, and the map is embedded once as JSON
inside Python string literals written by `repr()` (always a complete literal, whatever the text holds).
"""

from __future__ import annotations

import datetime
import json
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

from ..agent.dock_text import Translate, as_written
from .script_words import ABOUT, MAP_NOTE, comment_lines

# Features of an in-memory layer are written into the script; beyond this the script would be unreadable.
MAX_MEMORY_FEATURES = 5000


def project_to_pyqgis(title: str, project: QgsProject | None = None, canvas=None, tr: Translate = as_written) -> str:
    """The fixed program with the map description between its two halves, as data only. With the dock's `tr`
    its docstring and the map's comment are comment lines in the dock's language (ui/script_words.py)."""
    head = _SCRIPT_HEAD
    if tr is not as_written:
        program = head.split('""\"\n', 1)[1]  # the fixed program after its English docstring
        head = comment_lines(ABOUT, tr) + program.replace(_MAP_COMMENT, comment_lines([MAP_NOTE], tr))
    return head + _python_literal(map_description(title, project, canvas)) + _SCRIPT_TAIL


def map_description(title: str, project: QgsProject | None = None, canvas=None) -> dict[str, Any]:
    """Everything the script rebuilds, as plain JSON-able data (styles as QML text, indexed from each layer)."""
    project = project or QgsProject.instance()
    view: dict[str, Any] | None = None
    if canvas is not None and not canvas.extent().isEmpty():
        e, view_crs = canvas.extent(), canvas.mapSettings().destinationCrs()
        view = {"extent": [e.xMinimum(), e.yMinimum(), e.xMaximum(), e.yMaximum()], "crs": _crs(view_crs)}
    styles: list[str] = []
    tree = _children(project.layerTreeRoot(), styles)
    return {"title": title, "exported": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "layer_count": _count_layers(tree), "crs": _crs(project.crs()), "view": view, "tree": tree,
            "styles": styles}


def _json_lines(data: dict[str, Any]) -> list[str]:
    """The description as JSON, one top-level entry (and one layer, group or style) per line so the
    script stays readable. NaN and infinities are kept (Python's json reads them back); ASCII only,
    because the QGIS console decodes a script in the system's encoding (cp1252 on many Windows installs)."""
    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=True, allow_nan=True)

    entries = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            entries.append(f"{dump(key)}: [\n  " + ",\n  ".join(dump(item) for item in value) + "\n ]")
        else:
            entries.append(f"{dump(key)}: {dump(value)}")
    return ("{\n " + ",\n ".join(entries) + "\n}").split("\n")


def _python_literal(data: dict[str, Any]) -> str:
    """Adjacent string literals, one per JSON line: repr() escapes every quote, backslash and line break."""
    return "\n".join("    " + repr(line + "\n") for line in _json_lines(data))


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


# The program, fixed text: only the map description (a literal from _python_literal) goes between its halves.
_SCRIPT_HEAD = '''""\"Rebuilds the QGIS map of a STAC GIS Agent conversation as it was when exported: its layers with
their groups, styles, the project CRS and the view. The conversation's title, the date and every layer
are in MAP below, as data.

How to run it:
- in QGIS: Plugins > Python Console > Show Editor > Open this file > Run. It adds the layers to
  the open project and zooms the map to the saved view;
- without the QGIS window (standalone PyQGIS), with the Python that has QGIS's modules (python3 on
  Linux, the OSGeo4W Shell on Windows):  python3 this_file.py [output.qgz]
  It writes a QGIS project (next to this file by default) that opens on the saved view; layers that
  lived only in memory go into a GeoPackage beside it.

Layers open from their original sources (files, URLs); a source that is gone is reported and skipped.
""\"
import json
import sys
from pathlib import Path

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsFeature, QgsGeometry, QgsProject,
                       QgsRasterLayer, QgsRectangle, QgsReferencedRectangle, QgsVectorFileWriter, QgsVectorLayer)
from qgis.PyQt.QtXml import QDomDocument

# The map, as JSON: "styles" holds each layer's style as QGIS saves it in a .qml file (renderer,
# colours, labels, opacity); a layer's "style" is its index there.
MAP = json.loads(
'''
_MAP_COMMENT = _SCRIPT_HEAD[_SCRIPT_HEAD.index("# The map, as JSON"):_SCRIPT_HEAD.index("MAP = json.loads(")]

_SCRIPT_TAIL = '''
)


def crs_of(text):
    if not text:
        return QgsCoordinateReferenceSystem()
    return QgsCoordinateReferenceSystem.fromWkt(text) if text.rstrip().endswith("]") else \\
        QgsCoordinateReferenceSystem(text)


def open_layer(spec):
    if spec["kind"] == "raster":
        layer = QgsRasterLayer(spec["source"], spec["layer"], spec["provider"])
    else:
        layer = QgsVectorLayer(spec["source"], spec["layer"], spec["provider"])
    if not layer.isValid():
        print("Could not open layer", repr(spec["layer"]), "from", repr(spec["source"]))
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
            print(repr(spec["layer"]), ": only the first", len(features), "of", spec["features_total"], "features")
    style = QDomDocument()
    style.setContent(MAP["styles"][spec["style"]])
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


def rebuild_in_window(iface, project):
    \"\"\"In the QGIS window the layer-tree bridge zooms to the full extent of the first layers an empty
    project gets, later, from the event loop, which would undo the saved view: with its auto set-up off,
    the bridge takes the layers now, and the view is set after it.\"\"\"
    bridge = iface.layerTreeCanvasBridge()
    auto_setup = bridge.autoSetupOnFirstLayer()
    if MAP["view"]:
        bridge.setAutoSetupOnFirstLayer(False)
    try:
        view = rebuild(project)
        bridge.setCanvasLayers()
    finally:
        bridge.setAutoSetupOnFirstLayer(auto_setup)
    if view:
        canvas = iface.mapCanvas()
        canvas.setDestinationCrs(crs_of(view["crs"]))
        canvas.setExtent(QgsRectangle(*view["extent"]))
        canvas.refresh()


def keep_memory_layers(project, gpkg):
    \"\"\"A saved project does not keep in-memory features: write them to a GeoPackage and point the layers there.\"\"\"
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


def write_project(project, target):
    project.setTitle(MAP["title"])
    keep_memory_layers(project, str(Path(target).with_suffix("")) + "_layers.gpkg")
    if project.write(target):
        print("Wrote", target)
    else:
        print("Could not write", target, ":", project.error())


try:
    from qgis.utils import iface
except ImportError:
    iface = None

if QgsApplication.instance() is not None and iface is not None:
    rebuild_in_window(iface, QgsProject.instance())
elif QgsApplication.instance() is not None:  # a PyQGIS application without the QGIS window
    rebuild(QgsProject.instance())
else:
    app = QgsApplication([], False)
    app.initQgis()
    rebuild(QgsProject.instance())
    default = Path(globals().get("__file__", "map.py")).with_suffix(".qgz")
    write_project(QgsProject.instance(), sys.argv[1] if len(sys.argv) > 1 else str(default))
    QgsProject.instance().removeAllMapLayers()
    app.exitQgis()
'''
