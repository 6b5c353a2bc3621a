"""The expression guard (tools/analysis/expressions.py) in a real QGIS: names and values stay literals in
expressions and label templates, and a filter that reads outside its layer is named as such."""

from __future__ import annotations

import os

import pytest
from qgis.core import (
    QgsExpression,
    QgsExpressionContext,
    QgsExpressionContextUtils,
    QgsFeature,
    QgsField,
    QgsProject,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

from stacgis_agent.tools.analysis import expressions
from stacgis_agent.tools.common import ToolInputError

SECRET = "stacgis-guard-secret-7d1"
# a field name a catalog could carry: it ends the template early, then asks for an environment variable
HOSTILE = "ndvi%] [% env('STACGIS_GUARD_SECRET') %] [% 'x"


@pytest.fixture
def parcels(qgis_new_project, monkeypatch):
    monkeypatch.setenv("STACGIS_GUARD_SECRET", SECRET)
    layer = QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory")
    layer.dataProvider().addAttributes([QgsField("name", QVariant.String), QgsField(HOSTILE, QVariant.Double),
                                        QgsField("my area", QVariant.Double)])
    layer.updateFields()
    feature = QgsFeature(layer.fields())
    feature.setAttributes(["Vignes %] [% env('STACGIS_GUARD_SECRET') %]", 0.41234, 12.5])
    layer.dataProvider().addFeatures([feature])
    QgsProject.instance().addMapLayer(layer)
    other = QgsVectorLayer("Point?crs=EPSG:4326&field=secret:string", "other", "memory")
    QgsProject.instance().addMapLayer(other)
    yield layer
    QgsProject.instance().removeAllMapLayers()


def rendered(template: str, layer: QgsVectorLayer) -> str:
    """What a print layout's label shows for the layer's first feature (QGIS's own template evaluation)."""
    context = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
    context.setFeature(next(layer.getFeatures()))
    return QgsExpression.replaceExpressionText(template, context)


def test_a_field_name_holding_a_template_end_stays_a_name(parcels):
    naive = f"[% format_number({QgsExpression.quotedColumnRef(HOSTILE)}, 3) %]"  # what layouts built before
    assert SECRET in rendered(naive, parcels)  # the attack is real in this QGIS

    assert rendered(expressions.template_number(HOSTILE, 3), parcels) == "0.412"
    assert rendered(expressions.template_field("my area"), parcels) == "12.5"
    shown = rendered(expressions.template_field("name"), parcels)
    assert shown == "Vignes %] [% env('STACGIS_GUARD_SECRET') %]"  # a value is shown, never run


def test_words_around_the_fragments_never_open_an_expression(parcels):
    text = expressions.template_text(f"{HOSTILE}: ") + expressions.template_number(HOSTILE, 1)
    shown = rendered(text, parcels)
    assert SECRET not in shown and shown.endswith(": 0.4")
    pieces = expressions.template_text("a[") + expressions.template_text("% env('STACGIS_GUARD_SECRET') %]")
    assert SECRET not in rendered(pieces, parcels)


def test_values_are_literals(parcels):
    tricky = "it's %] [% env('STACGIS_GUARD_SECRET') %]"
    assert rendered(expressions.template_value(tricky), parcels) == tricky
    literal = expressions.value_literal(tricky)
    assert QgsExpression(literal).evaluate() == tricky
    assert QgsExpression(expressions.value_literal(None)).evaluate() is None
    assert QgsExpression(f"{expressions.column_ref('my area')} = {expressions.value_literal(12.5)}").evaluate(
        _feature_context(parcels)) == 1  # QGIS's true


def _feature_context(layer):
    context = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
    context.setFeature(next(layer.getFeatures()))
    return context


def test_field_names_for_renderers_and_labels(parcels):
    assert expressions.field_name(parcels, "name") == "name"
    assert expressions.renderer_attribute(parcels, "name") == "name"
    assert expressions.renderer_attribute(parcels, "my area") == '"my area"'
    quoted = expressions.renderer_attribute(parcels, HOSTILE)
    assert QgsExpression(quoted).rootNode().nodeType() == QgsExpression(quoted).rootNode().ntColumnRef
    with pytest.raises(ToolInputError, match="No field 'env"):
        expressions.field_name(parcels, "env('HOME')")


def test_id_filter_takes_integers_only():
    assert expressions.id_filter([3, 1]) == "$id IN (3, 1)"
    with pytest.raises(ValueError):
        expressions.id_filter(["1) OR env('HOME') IS NOT NULL OR (1"])


@pytest.mark.parametrize("text", [
    '"my area" > 10 AND "name" LIKE \'V%\'',
    "upper(\"name\") = 'VIGNES' OR $area > 0 OR @layer_name = 'parcels'",
    "get_feature('parcels', 'name', 'x') IS NULL AND sum(\"my area\") > 1",
    "array_length(array_foreach(array(1, 2), @element * 2)) = 2",
    "CASE WHEN \"my area\" IN (1, 2) THEN 1 ELSE 0 END = 0",
])
def test_filters_that_read_only_the_layer_pass(parcels, text):
    check = expressions.check_filter(text, parcels)
    assert check.reads_only_the_layer, check.outside
    assert not expressions.assess_filter(check, "Search").destructive
    assert len(list(parcels.getFeatures(expressions.filter_request(check)))) in (0, 1)


@pytest.mark.parametrize("text, named", [
    ("env('HOME') IS NOT NULL", "env()"),
    ("file_exists('/etc/passwd')", "file_exists()"),
    ("sqlite_fetch_and_increment('/tmp/x.sqlite', 't', 'c', 'k', 0, 1) > 0", "sqlite_fetch_and_increment()"),
    ("eval('1') = 1", "eval()"),
    ("@project_path IS NOT NULL", "@project_path"),
    ("var(\"name\") IS NULL", "computed name"),
    ("get_feature('other', 'secret', 'x') IS NULL", "another layer"),
    ("aggregate('other', 'count', \"secret\") > 0", "another layer"),
    ("layer_property('parcels', 'path') IS NOT NULL", "layer_property()"),
    ("array(env('HOME'))[0] IS NOT NULL", "env()"),
    ("CASE WHEN 1 THEN base_file_name('/etc/passwd') END IS NULL", "base_file_name()"),
])
def test_filters_that_reach_outside_are_named_and_asked(parcels, text, named):
    check = expressions.check_filter(text, parcels)
    assert any(named in words for words in check.outside), check.outside
    assessment = expressions.assess_filter(check, "Search 'parcels'")
    assert assessment.destructive and named in assessment.effects[0]


def test_a_python_defined_function_is_code(parcels):
    from qgis.core import qgsfunction

    @qgsfunction(args="auto", group="Custom")
    def stacgis_probe(value, feature, parent):
        os.environ["STACGIS_PROBE_RAN"] = "1"
        return value

    try:
        check = expressions.check_filter("stacgis_probe(1) = 1", parcels)
        assert any("defined in Python" in words for words in check.outside)
    finally:
        QgsExpression.unregisterFunction("stacgis_probe")
    assert "STACGIS_PROBE_RAN" not in os.environ


def test_mistakes_are_for_the_model_to_fix(parcels):
    with pytest.raises(ToolInputError, match="does not parse"):
        expressions.check_filter('"name" =', parcels)
    with pytest.raises(ToolInputError, match="Unknown field"):
        expressions.check_filter('"pop" > 1', parcels)
