"""Issue 27.4: the dock as a person sees it, in a narrow (320 px) and a wide column, driven as a person
does (type, Enter, click) and judged on the screen: a place name several places share reads as a choice,
not as a red "zoom_to_location failed" carrying the assistant's instructions; the answer buttons wrap
instead of being cut; an Ollama outage is said in the same words wherever it shows; a failed turn's stats
line does not read "0 tokens in · 0 out"; every button's text fits in the narrow dock.

With STACGIS_SCREENSHOTS=<folder> each state is also saved as a picture (QT_SCALE_FACTOR=2 for HiDPI)."""

from __future__ import annotations

import pytest
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.activity_feed import ERROR_COLOR
from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import Turn
from testkit.llm.reactive_emulator import tool_messages
from testkit.qgis_drivers.analyst_view import dock_status, feed, status_lines
from testkit.qgis_drivers.plugin_driver import process_until, send, wait_turn
from testkit.qgis_drivers.screen_checks import clipped_texts, outside_parent, save_shot, show_dock_at
from testkit.servers.loopback import free_port

WIDTHS = (320, 720)
OPTIONS = ["Springfield, Massachusetts", "Springfield, Illinois", "Springfield, Missouri",
           "Springfield, Oregon, United States (the city of 60,870 people on the Willamette River)"]


def _feed_item(plugin, start: str):
    tree = plugin.runtime.panel.feed
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return next(item for item in items if item.text(0).startswith(start))


def _question(plugin) -> AskUserWidget:
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 30), \
        feed(plugin)
    return [w for w in conversation.items() if isinstance(w, AskUserWidget)][-1]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_place_name_several_places_share_reads_as_a_choice_with_whole_buttons(plugin, emu, width):
    show_dock_at(plugin, width)
    emu.script(Turn(tool_calls=[("zoom_to_location", {"place": "Springfield"})]),
               Turn(tool_calls=[("ask_user", {"question": "Which Springfield do you mean?", "options": OPTIONS})]),
               lambda body: Turn(content="You chose " + tool_messages(body, "ask_user")[0]["content"]))
    send(plugin, "Zoom to Springfield")
    card = _question(plugin)
    process_until(lambda: False, 0.3)

    line = _feed_item(plugin, "zoom_to_location")
    text = line.text(0)
    assert text.startswith("zoom_to_location needs your choice: Several places are called 'Springfield'"), text
    assert "Nothing was moved." in text
    for words_for_the_model in ("ask_user", "call zoom_to_location again", "Fix the arguments", "failed"):
        assert words_for_the_model not in text, text
    assert line.foreground(0).color() != ERROR_COLOR
    assert "ask_user" in line.child(0).text(0)  # what the assistant was told, one click away

    assert plugin.dock.width() == width  # the answers do not hold the dock wider than the analyst made it
    assert [b.text() for b in card.buttons] == OPTIONS
    assert clipped_texts(card) == [] and outside_parent(card) == []
    for button in card.buttons:  # each answer whole, inside the card: on one line, or wrapped inside its button
        label = button.label
        one_line = label.fontMetrics().horizontalAdvance(button.text()) <= label.width()
        assert one_line or button is card.buttons[-1], (button.text(), label.width())  # only the long one wraps
        assert label.heightForWidth(label.width()) <= label.height(), button.text()
        assert label.geometry().right() <= button.width() and button.geometry().right() < card.options.width()
    if width < 400:  # three answers do not fit one line at 320 px: they wrap, the card grows
        assert len({b.y() for b in card.buttons}) > 1
    save_shot(plugin, "ask-user-choice")

    QTest.mouseClick(card.buttons[0], Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    assert plugin.runtime.panel.conversation.bubbles()[-1].text().startswith("You chose")
    assert "Springfield, Massachusetts" in plugin.runtime.panel.conversation.bubbles()[-1].text()


@pytest.mark.parametrize("width", WIDTHS)
def test_an_outage_is_said_in_the_same_words_everywhere_and_the_turn_ends_on_it(make_plugin, width):
    url = f"http://127.0.0.1:{free_port()}"
    plugin = make_plugin(ollama_url=url)
    show_dock_at(plugin, width)
    same = f"Ollama is not reachable at {url}: nothing answers at that address"
    welcome = plugin.runtime.panel.welcome
    assert process_until(lambda: same in welcome.connection.text(), 10), welcome.connection.text()
    assert process_until(lambda: dock_status(plugin).startswith(same), 10), dock_status(plugin)
    assert "ollama serve" in dock_status(plugin)
    save_shot(plugin, "outage-welcome")

    send(plugin, "What data do I have?")
    wait_turn(plugin, 30)
    told = [t for t in status_lines(plugin) + feed(plugin) if "Ollama" in t and "embedding" not in t]
    assert told and all(t.startswith(same) for t in told), told
    # said once in the chat and once in the status line; the feed points at the chat instead of repeating it
    assert sum(same in t for t in status_lines(plugin)) == 1, status_lines(plugin)
    assert not any(same in t for t in feed(plugin)), feed(plugin)
    assert feed(plugin)[-2:] == ["Error: what happened and what to do is in the chat", "Ended by the error above"]
    assert process_until(lambda: dock_status(plugin).startswith(same), 10), dock_status(plugin)
    assert feed(plugin)[-1] == "Ended by the error above"
    stats = plugin.runtime.panel.stats.text()
    assert "0 tokens in" not in stats and "error" in stats, stats
    save_shot(plugin, "outage-turn")
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)


def test_the_dock_fits_a_320_px_column_with_every_tab_whole(plugin):
    show_dock_at(plugin, 320)
    assert process_until(lambda: "ready" in dock_status(plugin), 10)
    save_shot(plugin, "welcome")
    assert plugin.dock.width() == 320, plugin.dock.minimumSizeHint()
    assert clipped_texts(plugin.dock) == [], clipped_texts(plugin.dock)
    panel = plugin.runtime.panel
    welcome = panel.welcome
    welcome.verticalScrollBar().setValue(welcome.verticalScrollBar().maximum())  # the examples, scrolled to
    save_shot(plugin, "welcome-examples")
    for button in welcome.example_buttons:  # each example's words wrap inside its button, none cut
        assert button.label.heightForWidth(button.label.width()) <= button.label.height(), button.text()
        assert button.geometry().right() <= button.parentWidget().width()
    panel.tabs.setCurrentWidget(panel.sessions)  # the Sessions tab, as a person clicks it
    process_until(lambda: False, 0.3)
    assert plugin.dock.width() == 320
    assert clipped_texts(plugin.dock) == [] and outside_parent(panel.sessions) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "sessions")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_confirmation_card_is_whole_in_the_dock(plugin, emu, width):
    from qgis.core import QgsProject, QgsVectorLayer

    QgsProject.instance().addMapLayer(QgsVectorLayer("Point?crs=EPSG:4326", "parcels", "memory"))
    show_dock_at(plugin, width)
    emu.script(Turn(tool_calls=[("remove_layer", {"layer": "parcels"})]), Turn(content="I kept the parcels."))
    send(plugin, "Remove the parcels layer")
    card = _question(plugin)
    assert plugin.dock.width() == width  # the card does not hold the dock wider than the analyst made it
    assert clipped_texts(plugin.dock) == [] and outside_parent(card) == [], clipped_texts(plugin.dock)
    save_shot(plugin, "confirmation-card")
    QTest.mouseClick(next(b for b in card.buttons if b.text() == "No"), Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    assert [lyr.name() for lyr in QgsProject.instance().mapLayers().values()] == ["parcels"]
