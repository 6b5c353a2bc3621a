"""An atlas: one page per feature of a coverage layer. What its pages say (the feature's name and useful fields,
not its internal id), how each page's map is scaled (a round scale that holds the feature with a margin), and
how many pages at what resolution an export may make before it asks (page count × dpi budget)."""

from __future__ import annotations

import re
from typing import Any

from qgis.core import QgsFeatureRequest, QgsLayoutItemLabel, QgsLayoutItemMap, QgsPrintLayout
from qgis.PyQt.QtCore import QMetaType

from ...analysis.expressions import filter_atlas, template_field, template_number, template_text
from ...common import ToolInputError
from .page import ROUND_SCALES

NAME_FIELDS = ("name", "nom", "label", "title", "titre", "libelle", "designation", "parcel", "parcelle")
_ID_FIELD = re.compile(r"^(fid|id|gid|oid|pk|rowid|ogc_fid|objectid|object_id|feature_id|[a-z0-9]*_?id_?[0-9]*)$",
                       re.I)
FIELDS_SHOWN = 4
MEASURED_PAGES = 200  # pages whose own line is measured to size it (the longest of these decides)
SAMPLED_FEATURES = 500  # features read to decide how many decimals a field's numbers need
PAGE_MARGIN = 0.15  # around each page's feature
PIXEL_BUDGET = 100 * 8.7e6  # an export past this many pixels (100 A4 pages at 300 dpi) asks first


def feature_line(layer: Any, fields: list[str] | None) -> str:
    """The atlas line "North field — ndvi_mean: 0.41 · area_ha: 3.1" for the page's feature, as a label template
    made of the expression guard's fragments: the layer's field names and values are data, never code (a name
    holding "%]" cannot end the template). Without `fields`: the feature's name and its numeric fields that are
    not identifiers."""
    names = [f.name() for f in layer.fields()]
    chosen = fields or [f.name() for f in layer.fields() if f.isNumeric() and not _ID_FIELD.match(f.name())
                        ][:FIELDS_SHOWN]
    unknown = [f for f in chosen if f not in names]
    if unknown:
        raise ToolInputError(f"'{layer.name()}' has no field(s) {', '.join(unknown)}; its fields: {', '.join(names)}")
    label_field = name_field(layer)
    parts = [template_field(label_field)] if label_field else []
    decimals = _decimals(layer, [f for f in chosen if layer.fields().field(f).isNumeric()])
    values = [template_text(f"{f}: ") + (template_number(f, decimals[f]) if f in decimals else template_field(f))
              for f in chosen if f != label_field]
    if values:
        parts.append(template_text(" · ").join(values))
    return template_text(" — ").join(parts) or "Feature [% @atlas_featurenumber %] of [% @atlas_totalfeatures %]"


def name_field(layer: Any) -> str | None:
    """The field that names a feature: "name", "nom", "label"… else one ending in "name", else the first text
    field that is not an identifier."""
    fields = list(layer.fields())
    by_lower = {f.name().lower(): f.name() for f in fields}
    for wanted in NAME_FIELDS:
        if wanted in by_lower:
            return by_lower[wanted]
    texts = [f for f in fields if f.type() == QMetaType.Type.QString]
    named = next((f.name() for f in texts if f.name().lower().endswith(("name", "nom"))), None)
    return named or next((f.name() for f in texts if not _ID_FIELD.match(f.name())), None)


def _decimals(layer: Any, fields: list[str]) -> dict[str, int]:
    """Per numeric field, the decimals its values need (0 for whole numbers; 3 under 1, 2 under 100, 1 under
    10,000), read from at most SAMPLED_FEATURES features on this (GUI) thread."""
    if not fields:
        return {}
    whole = (QMetaType.Type.Int, QMetaType.Type.UInt, QMetaType.Type.LongLong, QMetaType.Type.ULongLong)
    integer = {f for f in fields if layer.fields().field(f).type() in whole}
    largest = dict.fromkeys(fields, 0.0)
    fractional = dict.fromkeys(fields, False)
    request = QgsFeatureRequest().setLimit(SAMPLED_FEATURES).setFlags(QgsFeatureRequest.NoGeometry)
    request.setSubsetOfAttributes(fields, layer.fields())
    for feature in layer.getFeatures(request):
        for name in fields:
            value = feature[name]
            if isinstance(value, (int, float)):
                largest[name] = max(largest[name], abs(float(value)))
                fractional[name] = fractional[name] or float(value) != int(value)
    found = {}
    for name in fields:
        if name in integer or not fractional[name]:
            found[name] = 0
        else:
            size = largest[name]
            found[name] = 3 if size < 1 else 2 if size < 100 else 1 if size < 10_000 else 0
    return found


def set_coverage(layout: QgsPrintLayout, coverage: Any, ids: list[int]) -> int:
    """The layout's atlas over `coverage` (only the features `ids` when given); returns its page count."""
    atlas = layout.atlas()
    atlas.setCoverageLayer(coverage)
    atlas.setEnabled(True)
    filter_atlas(atlas, ids)
    atlas.updateFeatures()
    return atlas.count()


def page_texts(layout: QgsPrintLayout):
    """What a label says on each page (the first MEASURED_PAGES), for sizing it to its longest text."""
    def texts(label: QgsLayoutItemLabel) -> list[str]:
        atlas = layout.atlas()
        found = []
        if atlas.beginRender():
            try:
                for number in range(min(atlas.count(), MEASURED_PAGES)):
                    if atlas.seekTo(number):
                        found.append(label.currentText())
            finally:
                atlas.endRender()
        return found or [label.text()]
    return texts


def drive_map(layout: QgsPrintLayout, main: QgsLayoutItemMap) -> None:
    """Each page's map zoomed to its feature at the round scale that holds it with a margin."""
    main.setAtlasDriven(True)
    main.setAtlasMargin(PAGE_MARGIN)
    main.setAtlasScalingMode(QgsLayoutItemMap.Predefined)
    round_scales(layout)


def round_scales(layout: QgsPrintLayout) -> None:
    """The round scales an atlas page picks from (QGIS's layout designer sets its own list when it opens)."""
    layout.renderContext().setPredefinedScales([float(s) for s in ROUND_SCALES])


def pixels_of(layout: QgsPrintLayout, pages: int, dpi: int) -> float:
    page = layout.pageCollection().page(0).pageSize()
    return pages * (page.width() / 25.4 * dpi) * (page.height() / 25.4 * dpi)
