"""What the core (no Qt) writes for the dock is said in the dock's language when handed its translation, and in
English without it: every phrase the undo history writes (in English, kept with the project) is one of
undo_words.PHRASES, so the dock finds its translation, and with the German catalog no English phrase is left in
an outcome; settings problems, a team server's notices and the shared queue's are German with it too, and so are
the errors a turn ends with (read back from the session log too) and the Markdown export and script comments made
from the dock."""

from __future__ import annotations

import ast
import asyncio
import sys
from pathlib import Path

import httpx

from stacgis_agent.agent.chat_slot import chat_slot
from stacgis_agent.agent.config import CatalogConfig, Settings
from stacgis_agent.agent.context_window import fitted_said
from stacgis_agent.agent.dock_text import say, translatable
from stacgis_agent.agent.events import (
    Content,
    Done,
    Error,
    ToolError,
    ToolResult,
    ToolStart,
    UserMessage,
    event_from_dict,
    event_to_dict,
)
from stacgis_agent.agent.llm.http_errors import status_error, transport_error
from stacgis_agent.agent.llm.http_provider import overflow_notice
from stacgis_agent.agent.permissions import Policy
from stacgis_agent.agent.settings_validation import validate_settings
from stacgis_agent.agent.stores.base import SessionInfo, SessionRecord
from stacgis_agent.agent.stores.errors import StoreUnavailable
from stacgis_agent.agent.stores.server_health import ServerHealth
from stacgis_agent.tools.canvas.undo.words import PHRASES, StepReport, TurnEntry, entry_in_words, in_words
from stacgis_agent.ui.exports import session_to_markdown
from stacgis_agent.ui.script_words import ABOUT, ascii_text, comment_lines

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import i18n_strings  # noqa: E402

WRITERS = ("tools/canvas/undo/history.py", "tools/canvas/undo/turns.py", "tools/canvas/undo/words.py")
NOT_PHRASES = {"X:X", "untracked-X", "outside-X", "'X'", "(?P<X>.+)",  # keys, ids and a pattern, never shown
               "Turn X · XX", " · X more",  # a row's title: said piece by piece (below)
               "print layout 'X' ", "X print layout 'X'"}  # halves of the phrases composed below
COMPOSED = ["print layout 'X' as you edited it", "print layout 'X' stays deleted (you deleted it)",
            "made print layout 'X'", "rebuilt print layout 'X'", "Turn X", "by an outside MCP client", "X more",
            "no change", "moved the map", "changed the map background", "the map view you set",
            "the map background you chose", "put the map view back", "put the map background back"]


def _marked(text: str) -> str:
    return f"‹{text}›"


def _german():
    entries = i18n_strings.read_catalog(i18n_strings.catalog_path("de", REPO))
    return lambda text: entries.get(text, ("", ""))[0] or text


def _written_phrases() -> list[str]:
    """The f-strings of the history's writers, each value as X."""
    found = []
    for name in WRITERS:
        for node in ast.walk(ast.parse((REPO / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                found.append("".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values))
    return found


def test_every_phrase_the_history_writes_has_its_translation():
    written = _written_phrases()
    assert len(written) > 20  # the scan read the writers
    phrases = [text for text in written if text not in NOT_PHRASES] + COMPOSED
    unknown = [text for text in phrases if not in_words(text, _marked).startswith("‹")]
    assert unknown == [], "phrases the dock cannot translate (add them to undo_words.PHRASES):\n" + "\n".join(unknown)
    collected = set(i18n_strings.collect(REPO))
    assert all(p in collected for p in PHRASES)  # and the catalogs hold each of them


def test_in_english_a_step_reads_as_it_did_and_in_german_it_is_all_german():
    report = StepReport(turns=[3, 2], done=["removed layer 'a'", "put the map view back"],
                        kept=["layer 'b' (you added it)", "restyled 'c' (could not be undone; see the QGIS log)"],
                        lost=["'f.tif' (overwritten in turn 2)"])
    assert report.message(target=1) == (
        "Back to turn 1. Undid turns 3 and 2: removed layer 'a'; put the map view back. Kept your own changes: "
        "layer 'b' (you added it); restyled 'c' (could not be undone; see the QGIS log). Cannot be brought back: "
        "'f.tif' (overwritten in turn 2).")
    assert StepReport(turns=[4], kept=["the map view you set"]).message(redo=True, target=4) == (
        "Redid turn 4, but nothing in it could be redone. Not redone, you changed them since: the map view you set.")
    german = report.message(target=1, tr=_german())
    assert german == (
        "Zurück zu Antwort 1. Antworten 3 und 2 zurückgenommen: Layer „a“ entfernt; Kartenansicht zurückgesetzt. "
        "Ihre eigenen Änderungen bleiben: Layer „b“ (Sie haben ihn hinzugefügt); Stil von „c“ geändert (konnte "
        "nicht zurückgenommen werden; siehe QGIS-Protokoll). Nicht wiederherstellbar: „f.tif“ (in Antwort 2 "
        "überschrieben).")


def test_a_history_row_is_said_piece_by_piece_and_the_request_as_written():
    entry = TurnEntry(2, "Turn 2 · added layer 'NDVI · June' · moved the map", "add the NDVI",
                      ["added layer 'NDVI'", "zoomed to Lyon"], ["Cannot be undone: overwrote file 'a.tif'"],
                      undone=False, current=True)
    shown = entry_in_words(entry, _german())
    assert shown.title.startswith("Antwort 2 · ") and shown.title.endswith(" · Karte verschoben")
    assert shown.details == ["Layer „NDVI“ hinzugefügt", "auf Lyon gezoomt"]
    assert shown.warnings == ["Nicht rückgängig zu machen: Datei „a.tif“ überschrieben"]
    assert shown.request == "add the NDVI" and entry_in_words(entry) == entry


def test_settings_problems_and_store_notices_are_said_in_the_dock_language():
    settings = Settings(ollama_url="nope", chat_model="", catalogs=[CatalogConfig("x", "", "api")])
    english, german = validate_settings(settings), validate_settings(settings, _german())
    assert len(english) == len(german) >= 3 and not set(english) & set(german)
    assert "Katalog 1 (x) braucht eine URL oder einen Pfad." in german

    told = []
    health = ServerHealth("Redis", "conversations and chat slots", told.append, tr=_german())
    health.failed(StoreUnavailable.said("Redis at {where} failed while {what} ({why}); check that the server is "
                                        "running and the URL in the plugin settings is right",
                                        where="redis://h", what="saving a session", why="refused"))
    health.sent("{n} session(s) copied back", 2)
    health.recovered()
    assert told == [
        "Redis unter redis://h ist beim Speichern einer Sitzung ausgefallen (refused); prüfen Sie, ob der Server "
        "läuft und die URL in den Einstellungen des Plugins stimmt. Bis der Server wieder da ist, bleiben Gespräche "
        "und Chat-Plätze auf diesem Rechner; nichts geht verloren, und das Plugin verbindet sich von selbst wieder, "
        "sobald er zurück ist.", "Redis ist wieder erreichbar (2 Sitzung(en) zurückkopiert)."]


class _GateDown:
    async def acquire(self, session_id, timeout=None):
        raise StoreUnavailable.said("{server} took longer than {seconds} s while {what}", server="Redis", seconds="3",
                                    what="taking a chat slot")


def test_a_shared_queue_that_fails_is_said_in_the_dock_language():
    told = []

    async def turn() -> None:
        async with chat_slot(_GateDown(), "s1", lambda _place: None, told.append, _german()):
            pass

    asyncio.run(turn())
    assert told == ["Die gemeinsame Chat-Warteschlange ist nicht erreichbar (Redis hat beim Belegen eines "
                    "Chat-Platzes länger als 3 s gebraucht); diese Nachricht läuft ohne sie."]


def _french():
    entries = i18n_strings.read_catalog(i18n_strings.catalog_path("fr", REPO))
    return lambda text: entries.get(text, ("", ""))[0] or text


def test_the_errors_a_turn_ends_with_are_said_in_the_dock_language_and_read_back_from_the_log():
    url = "http://127.0.0.1:9"
    down = transport_error(httpx.ConnectError("refused"), server="Ollama", url=url, model="qwen3:8b", timeout_s=5,
                           produced=False)
    assert str(down) == (  # English, what the log and the model's history keep, as before
        f"Ollama is not reachable at {url}: nothing answers at that address. Start it with `ollama serve` (install "
        "it from https://ollama.com), or set the Ollama URL with the Settings… button.")
    event = event_from_dict(event_to_dict(Error(str(down), said=down.said)))  # a reopened chat
    assert event.said.text(_german()) == (
        f"Ollama ist unter {url} nicht erreichbar: unter dieser Adresse antwortet niemand. Starten Sie es mit "
        "`ollama serve` (Installation von https://ollama.com) oder stellen Sie die Ollama-URL mit der Schaltfläche "
        "Einstellungen… ein.")
    refused = status_error(503, "CUDA out of memory", server="The OpenAI-compatible server", url=url, model="m")
    assert refused.said.text(_french()) == (  # the server's own words as it wrote them, inside French
        f"Le serveur compatible OpenAI à {url} a échoué (503)\u00a0: CUDA out of memory. Réessayez\u00a0; si l’échec "
        "persiste, "
        "consultez le journal du serveur.")
    missing = status_error(404, "model 'llama9' not found", server="Ollama", url=url, model="llama9")
    assert missing.said.text(_german()) == (
        f"Das Modell „llama9“ ist auf {url} nicht installiert: führen Sie `ollama pull llama9` aus, oder wählen Sie "
        "ein installiertes Modell in den Einstellungen des Plugins.")
    assert Error("written as text").said.text(_german()) == ""  # nothing to say: the dock shows the message


def _failed_turn() -> SessionRecord:
    down = transport_error(httpx.ConnectError("refused"), server="Ollama", url="http://h:1", model="m", timeout_s=5,
                           produced=False)
    unknown = say(translatable("Unknown tool '{tool}'."), tool="buffer_all")
    events = [event_to_dict(e) for e in (
        UserMessage("Puffer um die Parzellen", "m1"), ToolStart(1, "c1", "buffer_all", {"distance": 10}),
        ToolError(1, "c1", "buffer_all", unknown.text() + " Use one of the tools you were given: x.", unknown),
        ToolStart(2, "c2", "zoom_to_location", {"place": "Lyon"}),
        ToolResult(2, "c2", "zoom_to_location", {"extent": [0, 0, 1, 1]}, 12.0),
        Error(str(down), said=down.said), Done("s1", "m1", "", 1.0),
        UserMessage("noch einmal", "m2"), Content("Gut."), Done("s1", "m2", "", 2.0, stopped=True))]
    return SessionRecord(SessionInfo("s1", "default", "Parzellen", 0.0, 1.0, 2), {}, events)


def test_the_markdown_export_from_the_dock_is_in_its_language_and_english_without_it():
    english = session_to_markdown(_failed_turn())
    for line in ("**You:**", "> Called `buffer_all`", "> `buffer_all` failed: Unknown tool 'buffer_all'. Use one of",
                 "> `zoom_to_location` completed in 12 ms", "> Error: Ollama is not reachable at http://h:1",
                 "**Assistant:**", "_Stopped by the user._"):
        assert line in english, english
    german = session_to_markdown(_failed_turn(), _german())
    for line in ("**Sie:**", "Puffer um die Parzellen", "> `buffer_all` aufgerufen",
                 "> `buffer_all` fehlgeschlagen: Unbekanntes Werkzeug „buffer_all“.",
                 "> `zoom_to_location` abgeschlossen in 12 ms",
                 "> Fehler: Ollama ist unter http://h:1 nicht erreichbar: unter dieser Adresse antwortet niemand.",
                 "**Assistent:**", "Gut.", "_Vom Benutzer angehalten._"):
        assert line in german, german
    for word in ("You:", "Called", "failed", "completed", "Error:", "Unknown tool", "not reachable", "Stopped"):
        assert word not in german, word


def test_the_script_comments_are_in_the_dock_language_and_only_ever_comments():
    german = comment_lines(ABOUT, _german())
    assert german.startswith("# Baut die QGIS-Karte einer Unterhaltung") and "Erweiterungen > Python-Konsole" in german
    assert "# So fuehren Sie es aus:" in german and german.isascii()  # the console reads the file as cp1252
    hostile = comment_lines(["x"], lambda _text: "Zeile\nimport os; os.remove('a')\r\u2028print(1)\x00 «fin»")
    assert all(line.startswith("# ") for line in hostile.splitlines()) and hostile.isascii()
    compile(hostile + "VALUE = 1\n", "script", "exec")  # comments only: nothing a translation says can run
    assert ascii_text("Schließen à l’écran – „gut“") == "Schliessen a l'ecran - \"gut\""


def test_a_call_that_must_wait_says_what_it_needs_in_the_dock_language_and_the_model_reads_english():
    policy = Policy.from_tools([{"name": "zonal_statistics", "_meta": {"stacgis": {
        "requires": ["qgis", "selection", "vector_layer"]}}}])
    policy.set_state({"qgis"})
    assert policy.why_not_allowed("zonal_statistics").startswith(
        "Tool 'zonal_statistics' is not available yet: it needs selection, vector layer.")
    said = event_from_dict(event_to_dict(ToolError(1, "c1", "zonal_statistics", "…",
                                                   policy.why_not_allowed_said("zonal_statistics")))).said
    assert said.text(_german()) == "„zonal_statistics“ kann noch nicht laufen: es braucht ausgewählte Objekte, " \
                                   "einen Vektorlayer."
    assert said.text(_french()) == "«\u00a0zonal_statistics\u00a0» ne peut pas encore s’exécuter\u00a0: il lui faut " \
                                   "des entités sélectionnées, une couche vecteur."
    policy.set_state({"qgis", "selection", "vector_layer"})
    assert policy.why_not_allowed_said("zonal_statistics").template == ""  # it may run: nothing to say


def test_what_was_done_to_fit_the_context_window_is_said_in_the_dock_language():
    fitted = fitted_said([say(translatable("compacted {count} tool result(s) of earlier requests"), count=3),
                          say(translatable("dropped the {count} oldest turn(s) of the conversation"), count=2)])
    assert fitted.text() == ("To fit the model's context window I compacted 3 tool result(s) of earlier requests and "
                             "dropped the 2 oldest turn(s) of the conversation.")
    assert fitted.text(_german()) == ("Um ins Kontextfenster des Modells zu passen, habe ich 3 Werkzeugergebnis(se) "
                                      "früherer Anfragen verdichtet und die 2 ältesten Fragen und Antworten der "
                                      "Unterhaltung weggelassen.")
    dropped = overflow_notice(9000, 4000, 4096)
    assert "read only 4000 tokens" in dropped.text() and dropped.text(_french()).startswith(
        "La discussion (environ 9000 jetons) dépasse la fenêtre de contexte du modèle (4096 jetons)")
