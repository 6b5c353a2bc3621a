"""A tool's reason for failing, in the dock's language: the templates scripts/tool_error_templates.py extracts
from the errors the tools raise (ui/tool_messages.py) recognise the messages they write, after the host has framed
them for the model, give each value back as written, and do not take each other's messages."""

from __future__ import annotations

import string
import sys
from pathlib import Path

import pytest

from stacgis_agent.agent.events import Done, ToolError, ToolStart, UserMessage, event_to_dict
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.agent.tool_host import failed
from stacgis_agent.ui.exports import session_to_markdown
from stacgis_agent.ui.tool_error_text import HOST_HINT, for_analyst, matching_template, tool_failure
from stacgis_agent.ui.tool_messages import TEMPLATES

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import i18n_strings  # noqa: E402
import tool_error_templates  # noqa: E402


def _sample(template: str) -> tuple[str, dict[str, str]]:
    """The message a tool writes from `template`, each value a distinct made-up word, and those values."""
    names = [name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None]
    values = {name: f"Qx{i}z" for i, name in enumerate(dict.fromkeys(names))}
    return template.format(**values), values


def _catalog(lang: str):
    entries = i18n_strings.read_catalog(i18n_strings.catalog_path(lang, REPO))
    return lambda text: entries.get(text, ("", ""))[0] or text


def test_the_tools_errors_were_extracted():
    assert len(TEMPLATES) >= 150  # ~170 raise sites in tools/**
    templates = [entry[0] for entry in TEMPLATES]
    assert "Say where to zoom: lon and lat, a bbox, a layer (optionally feature_id), or a place name." in templates
    assert "Catalog '{catalog}' has nothing at {url} (HTTP 404)." in templates  # CatalogError, a ToolInputError


@pytest.mark.parametrize("entry", TEMPLATES, ids=lambda entry: entry[0][:60])
def test_each_template_recognises_its_own_message_framed_by_the_host_and_gives_its_values_back(entry):
    message, values = _sample(entry[0])
    shown = failed("some_tool", message).text  # what the model reads and the ToolError event carries
    found = matching_template(shown.removesuffix(HOST_HINT), TEMPLATES)
    assert found is not None, shown
    (_template, told, hints), got = found
    # Another template may take it only when it is the same sentence (its values named otherwise): what the dock
    # shows, in English and in German, is then the same.
    for tr in (str, _catalog("de")):
        assert tr(told).format(**got) == tr(entry[1]).format(**values), f"{shown!r} was taken by {found[0][0]!r}"
    assert hints.format(**got) == entry[2].format(**values)
    if found[0] == entry:
        assert got == values


def test_a_reason_is_said_in_german_and_french_with_its_names_as_written():
    model_reads = failed("zoom_to_location", "No layer named 'Flurstücke 2024'. Layers in the project: a, b").text
    told, hints = tool_failure(model_reads, _catalog("de"))
    assert told == "Kein Layer namens „Flurstücke 2024“. Layer im Projekt: a, b"
    assert hints == HOST_HINT  # what the model was told to do next stays as it read it
    told, hints = tool_failure(model_reads, _catalog("fr"))
    assert told == "Aucune couche nommée «\u00a0Flurstücke 2024\u00a0». Couches du projet\u00a0: a, b"


def test_instructions_to_the_model_stay_english_and_out_of_the_reason():
    message = failed("zoom_to_location", "Several places are called 'Springfield': Springfield, Illinois; "
                     "Springfield, Massachusetts. Nothing was moved. Ask the user which one they mean "
                     "(ask_user), then call zoom_to_location again with place and country (e.g. place='Paris', "
                     "country='US'), or with layer and feature_id, or with lon/lat.").text
    told, hints = tool_failure(message, _catalog("de"))
    assert told == ("Mehrere Orte heißen „Springfield“: Springfield, Illinois; Springfield, Massachusetts. "
                    "Die Karte wurde nicht verschoben.")
    assert hints.startswith("Ask the user which one they mean (ask_user)") and hints.endswith(HOST_HINT)


def test_a_message_no_template_wrote_is_shown_as_written():
    message = failed("load_stac_asset", "The server said: teapot. Call it again with corrected arguments.").text
    assert tool_failure(message, _catalog("de")) == for_analyst(message)


def test_the_host_adds_the_words_the_dock_takes_off():
    assert failed("t", "bbox must be four numbers").text.endswith(" " + HOST_HINT)


def test_the_extractor_reads_strings_and_f_strings_of_the_tools_error_classes_and_skips_the_rest(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "family.py").write_text(
        "class CatalogError(ToolInputError): ...\n"
        "class NotFound(CatalogError): ...\n"
        "def f(layer, item, n):\n"
        "    raise ToolInputError('Give a bbox {west, south}.')\n"
        "    raise NotFound(f\"Layer '{layer.name()}' has no item {item['id']} \" f'({len(n)} of them).')\n"
        "    raise CatalogError(f\"{layer} is not '{layer}' in {item.get('id')}\")\n"
        "    raise ToolInputError(message)\n"
        "    raise ToolError('Unknown ramp. Use one of: ' + ', '.join(n))\n"
        "    raise ValueError('not a tool error')\n", encoding="utf-8")
    found = tool_error_templates.extract(tmp_path)
    assert found.templates == ["Give a bbox {{west, south}}.", "Layer '{name}' has no item {id} ({number_of_n} of them).",
                               "{layer} is not '{layer}' in {id}"]
    assert [line.split(" ")[1] for line in found.skipped] == ["Name:", "BinOp:"]
    pattern, _own = __import__("stacgis_agent.ui.tool_error_text", fromlist=["x"]).template_pattern(found.templates[2])
    assert pattern.fullmatch("a is not 'a' in x") and not pattern.fullmatch("a is not 'b' in x")  # one value, twice


def test_the_markdown_export_says_a_tools_reason_in_the_dock_language_and_the_instruction_as_the_model_read_it():
    error = failed("zoom_to_location", "Say where to zoom: lon and lat, a bbox, a layer (optionally feature_id), "
                                       "or a place name.").text
    events = [event_to_dict(e) for e in (UserMessage("Zoom bitte", "m1"), ToolStart(1, "c1", "zoom_to_location", {}),
                                         ToolError(1, "c1", "zoom_to_location", error), Done("s1", "m1", "", 1.0))]
    record = SessionRecord(SessionInfo("s1", "default", "Zoom", 0.0, 1.0, 1), {}, events)
    german = session_to_markdown(record, _catalog("de"))
    assert ("> `zoom_to_location` fehlgeschlagen: Sagen Sie, wohin gezoomt werden soll: lon und lat, ein "
            "Begrenzungsrahmen (bbox), ein Layer (optional feature_id) oder ein Ortsname.") in german, german
    assert f"> Dem Assistenten gesagt: {HOST_HINT}" in german and "Say where" not in german
    assert f"> `zoom_to_location` failed: {error}" in session_to_markdown(record)  # English: all of it, as before


def test_the_check_fails_when_the_generated_templates_are_stale_or_one_has_no_translation(tmp_path):
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "tool_error_text.py").write_text((REPO / "ui" / "tool_error_text.py").read_text("utf-8"), "utf-8")
    (tmp_path / "tools").mkdir()
    family = tmp_path / "tools" / "family.py"
    family.write_text("def f(name):\n    raise ToolInputError(f\"No layer named '{name}'.\")\n", encoding="utf-8")
    assert any("ui/tool_messages.py is behind" in p for p in i18n_strings.problems(tmp_path))
    i18n_strings.update(tmp_path)  # writes the module and the catalogs
    found = i18n_strings.problems(tmp_path)
    assert not any("tool_messages" in p for p in found)
    assert any("no translation for \"No layer named '{name}'.\"" in p for p in found), found
    family.write_text(family.read_text("utf-8") + "    raise ToolInputError('Give a bbox first.')\n", "utf-8")
    assert any("ui/tool_messages.py is behind" in p for p in i18n_strings.problems(tmp_path))


def test_a_fact_before_an_instruction_in_one_sentence_is_the_analysts():
    message = failed("delete_memory", "No memory with id 'm-42'; use search_memories to find ids.").text
    told, hints = tool_failure(message, _catalog("de"))
    assert told == "Keine Erinnerung mit der ID „m-42“."
    assert hints == f"use search_memories to find ids. {HOST_HINT}"
