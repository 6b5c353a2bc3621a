"""The one way text reaches QGIS's expression engine (issue 40): field names, values and label templates
become quoted literals, and a filter from the model or an outside client is checked on its parsed tree.

The expression engine is a sink: it can read environment variables (`env`), files (`file_exists`,
`exif`), other layers (`get_feature`, `aggregate`, `overlay_*`), write SQLite files
(`sqlite_fetch_and_increment`) and run Python-defined functions. Text from a catalog, the model or an
outside MCP client is data; it reaches the engine only through this module
(`tests/unit/test_sinks_expressions.py` fails on any other call of the engine in product code).

Names and values, always as literals for the context they go into:
- `column_ref(name)`: a field in an expression, `"na""me"`.
- `value_literal(value)`: a value in an expression, `'it''s'`, `12`, `NULL`.
- `field_name(layer, name)`: a field name where QGIS takes a *name*, checked to be one of the layer's fields
  (`label_settings(layer, name)`: labels from a field); `renderer_attribute(layer, name)` where QGIS takes a
  name *or an expression*: the name, or its column reference when it is not a plain word
  (`categorized_renderer`, `graduated_renderer`).
- In a label template (`QgsLayoutItemLabel.setText`, where `[% … %]` is evaluated): `template_field(name)`,
  `template_number(name, decimals)` (`[% format_number("ndvi", 3) %]`), `template_value(value)` and
  `template_text(text)` for the words around them. A name or text holding `%]` or `[%` cannot end a
  template's expression early or open one.
- `id_filter(ids)`: `$id IN (1, 2)` from integers only (an atlas's or a selection's features).

Filters (an expression someone else wrote):
- `check_filter(text, layer)` parses it, refuses unknown fields (ToolInputError, for the model to fix) and
  walks the tree: functions and variables outside the allowlist of ones that read only the layer's own
  features are named in `FilterCheck.outside`, in words.
- `assess_filter(check, …)`: the gate's `Assessment`; a filter with anything outside is code, asked like every
  other code path (destructive), so an outside client's "decline" stops it.
- `filter_request(check)`: the `QgsFeatureRequest` that runs it, with the layer's expression context.

Everything here runs on the GUI thread (it touches layers); QGIS is imported when called, so the module
imports without QGIS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from ...agent.safety import Assessment
from ..common import ToolInputError

TEMPLATE_CLOSE = "%]"
ZERO_WIDTH = "\u200b"  # keeps what the reader sees and stops QGIS from reading "[%" as an opening
PLAIN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Functions that read only the feature being filtered, its layer's own features, or nothing: maths, text,
# dates, conversions, arrays, maps, geometry on values, colours, aggregates over the layer itself.
SAFE_FUNCTIONS = frozenset("""
abs acos asin atan atan2 ceil clamp cos degrees exp floor ln log log10 max min pi radians rand randf round
scale_exp scale_linear sin sqrt tan
from_base64 hash md5 sha256 to_base64 to_date to_datetime to_decimal to_dm to_dms to_int to_interval to_real
to_string to_time
coalesce if nullif regexp_match try
age datetime_from_epoch day day_of_week epoch hour make_date make_datetime make_interval make_time minute
month now second week year
hamming_distance levenshtein longest_common_substring soundex
ascii char concat format format_date format_number left length lower lpad regexp_replace regexp_substr replace
right rpad strpos substr title trim upper wordwrap
array array_all array_append array_cat array_contains array_count array_distinct array_filter array_find
array_first array_foreach array_get array_insert array_intersect array_last array_length array_majority
array_max array_mean array_median array_min array_minority array_prepend array_prioritize array_remove_all
array_remove_at array_replace array_reverse array_slice array_sort array_sum array_to_string
regexp_matches string_to_array
from_json hstore_to_map map map_akeys map_avals map_concat map_delete map_exist map_get map_insert
map_to_hstore to_json
color_cmyk color_cmyka color_grayscale_average color_hsl color_hsla color_hsv color_hsva color_mix_rgb
color_part color_rgb color_rgba create_ramp darker lighter ramp_color set_color_part
$currentfeature $id attribute attributes uuid
array_agg collect concatenate concatenate_unique count count_distinct count_missing iqr majority max_length
maximum mean median min_length minimum minority q1 q3 range stdev sum
$area $geometry $length $perimeter $x $x_at $y $y_at $z $scale affine_transform angle_at_vertex area azimuth
boundary bounds bounds_height bounds_width buffer buffer_by_m centroid close_line closest_point
collect_geometries combine contains convex_hull crosses difference disjoint distance distance_to_vertex
end_point extend exterior_ring extrude flip_coordinates force_rhr geom_from_gml geom_from_wkb geom_from_wkt
geom_to_wkb geom_to_wkt geometry geometry_n geometry_type hausdorff_distance inclination interior_ring_n
intersection intersects intersects_bbox is_closed is_empty is_empty_or_null is_multipart is_valid length3D
line_interpolate_angle line_interpolate_point line_locate_point line_merge line_substring m m_max m_min
main_angle make_circle make_ellipse make_line make_point make_point_m make_polygon make_rectangle_3points
make_regular_polygon make_square make_triangle minimal_circle nodes_to_points num_geometries
num_interior_rings num_points num_rings offset_curve order_parts oriented_bbox overlaps perimeter point_n
point_on_surface pole_of_inaccessibility project relate reverse rotate segments_to_lines shortest_line
simplify simplify_vw single_sided_buffer sinuosity smooth start_point straight_distance_2d sym_difference
tapered_buffer touches transform translate union wedge_buffer within x x_max x_min y y_max y_min z z_max z_min
""".split())

# Functions that take a layer first: they stay inside the layer only when that layer is the one filtered.
LAYER_FIRST = frozenset({"aggregate", "get_feature", "get_feature_by_id", "is_selected", "num_selected"})

# Variables a filter may read: the feature, its layer, an array's element. Others hold paths, user names, the
# project's folder, or whatever a plugin or the analyst stored.
SAFE_VARIABLES = frozenset({"feature", "id", "geometry", "layer", "layer_id", "layer_name", "layer_crs",
                            "element", "row_number", "parent", "current_feature", "current_geometry"})

WHY_NOT = {  # in the analyst's words: what a refused function reaches
    "env": "reads this computer's environment variables",
    "eval": "evaluates text as another expression",
    "eval_template": "evaluates text as a template",
    "sqlite_fetch_and_increment": "writes to an SQLite database file",
    "load_layer": "opens a file or source as a layer",
    "layer_property": "reads a layer's properties (its file path among them)",
    "decode_uri": "reads a layer's source (file paths, connections)",
    "var": "reads a variable that may hold file paths or user names",
    "with_variable": "sets variables for the expression inside it",
    "relation_aggregate": "reads a related layer",
    "represent_value": "reads the layers and settings of the field's widget",
    "display_expression": "evaluates the layer's stored display expression",
    "maptip": "evaluates the layer's stored map tip",
    "is_layer_visible": "reads another layer's state",
    "raster_value": "reads a raster layer's pixels",
    "raster_statistic": "reads a raster layer's statistics",
    "generate_series": "can build arrays large enough to stall QGIS",
    "project_color": "reads the project's colours",
    "parameter": "reads a Processing parameter",
    "item_variables": "reads a print layout's items",
    "map_credits": "reads a map's layers and their credits",
    "current_value": "reads a form's state",
    "current_parent_value": "reads a form's state",
    "exif": "reads a file's metadata",
    "exif_geotag": "reads a file's metadata",
    "mime_type": "guesses a file type",
}


def _why(name: str) -> str:
    if name.startswith("file_") or name in ("base_file_name", "is_directory", "is_file"):
        return "reads files and folders on this computer"
    if name.startswith("overlay_"):
        return "reads another layer's features"
    return WHY_NOT.get(name, "is not on the list of functions that read only the layer")


# -- names and values as literals ------------------------------------------------------------------------
def column_ref(name: str) -> str:
    """A field in an expression: `"na""me"`, whatever the name holds."""
    from qgis.core import QgsExpression

    return QgsExpression.quotedColumnRef(str(name))


def value_literal(value: Any) -> str:
    """A value in an expression: `'it''s'`, `12`, `NULL`, `TRUE`."""
    from qgis.core import QgsExpression

    return QgsExpression.quotedValue(value)


def _string_in_template(text: str) -> str:
    """A string literal that holds `text` and never `%]`: QGIS ends a template's expression at the first
    `%]`, even inside quotes, so the text is cut there and joined back with `||`."""
    from qgis.core import QgsExpression

    pieces = str(text).split(TEMPLATE_CLOSE)
    parts = [(piece if i == 0 else "]" + piece) + ("%" if i < len(pieces) - 1 else "")
             for i, piece in enumerate(pieces)]
    return " || ".join(QgsExpression.quotedString(p) for p in parts)


def _field_in_template(name: str) -> str:
    reference = column_ref(name)
    if TEMPLATE_CLOSE not in reference:
        return reference
    return f"attribute({_string_in_template(name)})"  # the one-argument form reads the current feature


def template_field(name: str) -> str:
    """`[% "name" %]`: the page's feature's value of field `name`, in a label template."""
    return f"[% {_field_in_template(name)} %]"


def template_number(name: str, decimals: int) -> str:
    """`[% format_number("name", 3) %]`: the value of number field `name`, with `decimals` places."""
    return f"[% format_number({_field_in_template(name)}, {int(decimals)}) %]"


def template_value(value: Any) -> str:
    """A value shown as itself in a label template."""
    if isinstance(value, str):
        return f"[% {_string_in_template(value)} %]"
    return f"[% {value_literal(value)} %]"


def template_text(text: str) -> str:
    """Words around the fragments of a label template, never read as an expression: no `[%` opens one, nor
    can the text's last `[` and a next piece's first `%` make one when pieces are joined."""
    text = str(text).replace("[%", f"[{ZERO_WIDTH}%")
    if text.endswith("["):
        text += ZERO_WIDTH
    if text.startswith("%"):
        text = ZERO_WIDTH + text
    return text


def field_name(layer: Any, name: str) -> str:
    """`name` where QGIS takes a field's name (a label's `fieldName`): only an exact field of `layer`."""
    names = [f.name() for f in layer.fields()]
    if name not in names:
        raise ToolInputError(f"No field '{name}' in '{layer.name()}'. Its fields: {', '.join(names)}")
    return name


def renderer_attribute(layer: Any, name: str) -> str:
    """A field for a renderer that reads its attribute as a field name *or an expression*: a plain word stays
    a name; any other name becomes its column reference, so it is never read as an expression."""
    name = field_name(layer, name)
    return name if PLAIN_WORD.match(name) else column_ref(name)


def categorized_renderer(layer: Any, name: str, categories: list[Any]) -> Any:
    """A categorized renderer on field `name` of `layer` (QGIS reads its attribute as a name or an expression)."""
    from qgis.core import QgsCategorizedSymbolRenderer

    return QgsCategorizedSymbolRenderer(renderer_attribute(layer, name), categories)


def graduated_renderer(layer: Any, name: str) -> Any:
    """A graduated renderer on field `name` of `layer` (its attribute, too, may be read as an expression)."""
    from qgis.core import QgsGraduatedSymbolRenderer

    return QgsGraduatedSymbolRenderer(renderer_attribute(layer, name))


def label_settings(layer: Any, name: str) -> Any:
    """Labels showing field `name` of `layer`, as a field, never as an expression."""
    from qgis.core import QgsPalLayerSettings

    settings = QgsPalLayerSettings()
    settings.fieldName = field_name(layer, name)
    settings.isExpression = False
    return settings


def id_filter(ids: Iterable[int]) -> str:
    """`$id IN (1, 2)`: features by id, built from integers only."""
    return f"$id IN ({', '.join(str(int(i)) for i in ids)})"


# -- filters ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FilterCheck:
    """A parsed filter and what in it reaches outside the filtered layer (empty: it reads only the layer)."""
    text: str
    layer_name: str
    outside: tuple[str, ...]
    expression: Any  # the parsed QgsExpression, prepared with the layer's context
    context: Any  # the layer's QgsExpressionContext

    @property
    def reads_only_the_layer(self) -> bool:
        return not self.outside


def check_filter(text: str, layer: Any) -> FilterCheck:
    """Parses `text` as a filter on `layer` and names what reaches outside it. Raises ToolInputError when it
    does not parse, names fields the layer lacks, or cannot be prepared."""
    from qgis.core import QgsExpression, QgsExpressionContext, QgsExpressionContextUtils, QgsFeatureRequest

    parsed = QgsExpression(str(text))
    if parsed.hasParserError():
        raise ToolInputError(f"The expression does not parse: {parsed.parserErrorString()}. "
                             "Quote field names with double quotes and text with single quotes.")
    outside = tuple(dict.fromkeys(_outside(parsed.rootNode(), layer)))
    names = set(layer.fields().names())
    unknown = sorted(c for c in parsed.referencedColumns()
                     if c not in names and c != QgsFeatureRequest.ALL_ATTRIBUTES and not c.startswith("$"))
    if unknown and not outside:  # a filter reaching other layers names their fields too
        raise ToolInputError(f"Unknown field(s) {', '.join(unknown)} in '{layer.name()}'. "
                             f"Fields: {', '.join(sorted(names))}")
    context = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
    if not outside and not parsed.prepare(context) and parsed.hasEvalError():
        raise ToolInputError(f"The expression cannot run: {parsed.evalErrorString()}")
    return FilterCheck(str(text), layer.name(), outside, parsed, context)


def assess_filter(check: FilterCheck, action: str) -> Assessment:
    """The gate's judgement of a call that runs `check`: nothing to ask when it reads only the layer; else
    code, asked first (destructive), with what it reaches in words."""
    if check.reads_only_the_layer:
        return Assessment(False)
    return Assessment(True, (f"evaluates the expression {check.text!r} on '{check.layer_name}' as code: "
                             + "; ".join(check.outside),), undoable=False, action=action)


def filter_request(check: FilterCheck) -> Any:
    """The feature request that runs `check`'s expression with its layer's context. Reached only through the
    gate: a filter with anything outside the layer runs only once the analyst said yes (assess_filter)."""
    from qgis.core import QgsFeatureRequest

    if not check.reads_only_the_layer:
        check.expression.prepare(check.context)  # approved as code: prepared only now
    request = QgsFeatureRequest(check.expression)
    request.setExpressionContext(check.context)
    return request


def _outside(node: Any, layer: Any) -> list[str]:
    """What under `node` reaches outside `layer`, in words; [] when it reads only the layer."""
    from qgis.core import QgsExpression, QgsExpressionNode

    kind = node.nodeType()
    if kind in (QgsExpressionNode.ntLiteral, QgsExpressionNode.ntColumnRef):
        return []
    if kind == QgsExpressionNode.ntUnaryOperator:
        return _outside(node.operand(), layer)
    if kind == QgsExpressionNode.ntBinaryOperator:
        return _outside(node.opLeft(), layer) + _outside(node.opRight(), layer)
    if kind == QgsExpressionNode.ntInOperator:
        return [w for child in [node.node(), *node.list().list()] for w in _outside(child, layer)]
    if kind == QgsExpressionNode.ntCondition:
        children = [part for wt in node.conditions() for part in (wt.whenExp(), wt.thenExp())]
        return [w for child in children + [node.elseExp()] if child is not None for w in _outside(child, layer)]
    if kind == QgsExpressionNode.ntFunction:
        function = QgsExpression.Functions()[node.fnIndex()]
        args = node.args().list() if node.args() is not None else []
        return _function_outside(function, args, layer) + [w for a in args for w in _outside(a, layer)]
    return _unwalked_outside(node)


def _function_outside(function: Any, args: list[Any], layer: Any) -> list[str]:
    name = function.name()
    if type(function).__module__ != "qgis._core":  # defined in Python by a plugin or a user
        return [f"{name}() is a function defined in Python, which can do anything"]
    if name == "var":
        variable = _literal(args[0]) if args else None
        if isinstance(variable, str) and variable in SAFE_VARIABLES:
            return []
        return [f"the variable @{variable} {WHY_NOT['var']}" if isinstance(variable, str)
                else f"var() with a computed name {WHY_NOT['var']}"]
    if name in LAYER_FIRST:
        if not args or (name == "is_selected" and len(args) == 1) or _is_this_layer(args[0], layer):  # (feature)
            return []
        return [f"{name}() reads another layer's features"]
    if name in SAFE_FUNCTIONS:
        return []
    return [f"{name}() {_why(name)}"]


def _is_this_layer(node: Any, layer: Any) -> bool:
    value = _literal(node)
    if isinstance(value, str):
        return value in (layer.id(), layer.name())
    from qgis.core import QgsExpression, QgsExpressionNode

    if node.nodeType() == QgsExpressionNode.ntFunction and QgsExpression.Functions()[node.fnIndex()].name() == "var":
        args = node.args().list() if node.args() is not None else []
        return bool(args) and _literal(args[0]) in ("layer", "layer_id", "layer_name")
    return False


def _literal(node: Any) -> Any:
    from qgis.core import QgsExpressionNode

    return node.value() if node.nodeType() == QgsExpressionNode.ntLiteral else None


def _unwalked_outside(node: Any) -> list[str]:
    """A node this QGIS gives no children for (an index `a[0]` in 3.22): judged by the names it uses, with no
    layer-taking function or computed variable allowed."""
    words = [f"{name}() {_why(name)}" for name in sorted(node.referencedFunctions())
             if name not in SAFE_FUNCTIONS and name != "var"]
    words += [f"the variable @{name} {WHY_NOT['var']}" if name else f"var() with a computed name {WHY_NOT['var']}"
              for name in sorted(node.referencedVariables()) if name not in SAFE_VARIABLES]
    return words


# -- print layouts (owner "pages"): where a layout hands QGIS a template, a filter or a rule ------------------
def set_label_template(label: Any, *pieces: str) -> None:
    """A layout label's text, which QGIS evaluates as a template: `pieces` are this module's template_field,
    template_number, template_value and template_text fragments (or an expression built from them)."""
    label.setText("".join(pieces))


def filter_atlas(atlas: Any, ids: Iterable[int]) -> None:
    """An atlas over the features `ids` only (`id_filter`: integers), or over every feature when there is none."""
    ids = [int(i) for i in ids]
    atlas.setFilterFeatures(bool(ids))
    atlas.setFilterExpression(id_filter(ids) if ids else "")


def atlas_outline_renderer(this_page: Any, others: Any) -> Any:
    """A renderer drawing an atlas page's own feature with `this_page` and the other features with `others`
    (a rule on the feature's id and the atlas's; no text of anyone's)."""
    from qgis.core import QgsRuleBasedRenderer

    root = QgsRuleBasedRenderer.Rule(None)
    root.appendChild(QgsRuleBasedRenderer.Rule(this_page, 0, 0, "$id = @atlas_featureid", "this page's feature"))
    root.appendChild(QgsRuleBasedRenderer.Rule(others, 0, 0, "", "other features", "", True))
    return QgsRuleBasedRenderer(root)
