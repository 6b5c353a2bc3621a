"""The expression sink (issue 40): product code reaches QGIS's expression engine only through its one guard,
tools/analysis/expressions.py. Every call that hands QGIS text it evaluates (a filter, a label template, a
field QGIS may read as an expression, a data-defined property, a subset string, an expression built by
quoting) is found in the source and must be in the guard."""

from __future__ import annotations

import ast
from pathlib import Path

from testkit.sink_scan import ROOT, Sink, calls_in, product_files, reached_outside

GUARD = "tools/analysis/expressions.py"
EXPRESSIONS = Sink(
    "the QGIS expression engine",
    calls=(
        # an expression from text, and expressions built by quoting
        "QgsExpression", "replaceExpressionText", "quotedColumnRef", "quotedString", "quotedValue",
        # filters and subsets
        "setFilterExpression", "QgsFeatureRequest", "selectByExpression", "setSubsetString", "setFeatureFilter",
        # expressions kept in objects that QGIS evaluates later
        "setExpression", "fromExpression", "setDataDefinedProperty", "setPageNameExpression", "setSortExpression",
        "addExpressionField", "setDisplayExpression", "setMapTipTemplate", "QgsRuleBasedRenderer",
        # a field QGIS reads as an expression when it is not a field's name
        "setFieldName", "QgsCategorizedSymbolRenderer", "QgsGraduatedSymbolRenderer", "setClassAttribute",
        "QgsPalLayerSettings", "getValues", "aggregate",
        # `evaluate` and `prepare` are left out: both need a QgsExpression, whose making is found above
    ),
    guards=(GUARD,),
    literal_ok=True,  # QgsFeatureRequest(), QgsExpression("1"): nothing from anyone else
)
ASSIGNED = ("fieldName", "isExpression")  # QgsPalLayerSettings: a label's field, or its expression
TEMPLATE_ITEMS = ("QgsLayoutItemLabel",)  # its setText is a template: "[% … %]" in it is evaluated

def assigned_outside(root: Path = ROOT) -> list[str]:
    """Assignments to a label's `fieldName` / `isExpression` outside the guard."""
    found = []
    for path in product_files(root):
        relative = str(path.relative_to(root))
        if relative == GUARD:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            found += [f"{relative}:{node.lineno} {t.attr}=" for t in targets
                      if isinstance(t, ast.Attribute) and t.attr in ASSIGNED]
    return sorted(found)


def templates_outside(root: Path = ROOT) -> list[str]:
    """`setText` in a module that makes layout labels (whose text QGIS evaluates as a template), outside the guard."""
    found = []
    for path in product_files(root):
        relative = str(path.relative_to(root))
        source = path.read_text(encoding="utf-8")
        if relative == GUARD or not any(item in source for item in TEMPLATE_ITEMS):
            continue
        found += [f"{relative}:{node.lineno} setText" for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setText"]
    return sorted(found)


def offenders(root: Path = ROOT) -> list[str]:
    return reached_outside(EXPRESSIONS, root) + assigned_outside(root) + templates_outside(root)


def test_product_code_reaches_the_expression_engine_only_through_its_guard():
    left = offenders()
    assert left == [], ("reached outside tools/analysis/expressions.py; use its column_ref, value_literal, "
                        "template_* , field_name, renderer_attribute, id_filter, check_filter or the layouts' "
                        "set_label_template / filter_atlas / atlas_outline_renderer: " + ", ".join(left))


def test_the_guard_itself_is_read_by_the_scan():
    assert any(f.startswith(GUARD) for f in calls_in(EXPRESSIONS))


def _plant(tmp_path: Path, source: str) -> Path:
    (tmp_path / "tools" / "analysis").mkdir(parents=True)
    (tmp_path / "tools" / "analysis" / "expressions.py").write_text("from qgis.core import QgsExpression\n")
    (tmp_path / "tools" / "planted.py").write_text(source)
    return tmp_path


def test_a_planted_filter_is_found(tmp_path):
    root = _plant(tmp_path, "def f(layer, text):\n    return layer.getFeatures(QgsFeatureRequest().setFilterExpression(text))\n")
    assert offenders(root) == ["tools/planted.py:2 setFilterExpression"]


def test_planted_labels_templates_and_literal_free_calls_are_found(tmp_path):
    root = _plant(tmp_path, "from qgis.core import QgsLayoutItemLabel, QgsPalLayerSettings\n"
                            "def f(item, s, name):\n"
                            "    s.fieldName = name\n"
                            "    item.setText(name)\n"
                            "    return QgsExpression.quotedColumnRef(name), QgsPalLayerSettings()\n")
    assert offenders(root) == ["tools/planted.py:5 quotedColumnRef", "tools/planted.py:3 fieldName=",
                               "tools/planted.py:4 setText"]
