"""Place names are matched as whole names, whatever the case, accents or punctuation."""

from stacgis_agent.tools.engine.place_names import (
    EXACT,
    FUZZY,
    PREFIX,
    Place,
    choose,
    is_name_field,
    match_tier,
    normalise,
)


def test_normalise_ignores_case_accents_and_punctuation():
    assert normalise(" Saint-Étienne ") == "saint etienne"
    assert normalise("MÜNCHEN") == normalise("München") == "munchen"
    assert normalise("Straße") == "strasse"


def test_a_name_inside_an_id_is_not_a_match_but_whole_names_prefixes_and_typos_are():
    assert match_tier("lyon", ["sentinel-2-lyon-2023"]) is None
    assert match_tier("lyon", ["Lyon"]) == EXACT
    assert match_tier("lyon", ["Lyon 3e Arrondissement"]) == PREFIX
    assert match_tier("lyon", ["Lyon 3e Arrondissement"], allow_prefix=False) is None
    assert match_tier("marseile", ["Marseille"]) == FUZZY
    assert match_tier("nice", ["Venice"]) is None


def test_name_like_fields_are_recognised_in_several_languages():
    assert all(is_name_field(f) for f in ("name", "NAME_EN", "nom_com", "Gemeinde", "city", "label"))
    assert not any(is_name_field(f) for f in ("id", "collection", "datetime", "href"))


def test_a_far_bigger_city_is_the_one_meant_and_comparable_ones_are_asked_about():
    paris = Place("Paris", "city", "g", 2.35, 48.85, population=2_138_551, context="France")
    texas = Place("Paris", "city", "g", -95.55, 33.66, population=24_782, context="Texas, United States")
    chosen, others = choose([texas, paris])
    assert chosen is paris and others == [texas]
    a = Place("Springfield", "city", "g", -93.3, 37.2, population=170_188)
    b = Place("Springfield", "city", "g", -72.6, 42.1, population=154_341)
    assert choose([a, b]) == (None, [a, b])
