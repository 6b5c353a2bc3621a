"""Faults on the model side, met through the real plugin: Ollama down at start, killed mid-stream, a model
that is not installed or cannot call tools, an error line in the stream. Each leaves QGIS running, tells the
analyst what happened and what to do, and loses nothing (the message is saved, the next one works)."""

from __future__ import annotations

from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

from stacgis_agent.ui.ask_user_widget import AskUserWidget
from testkit.llm.ollama_emulator import OllamaEmulator, Turn
from testkit.qgis_drivers.analyst_view import chat, dock_status, feed, saved_events, status_lines
from testkit.qgis_drivers.plugin_driver import process_until, run_coroutine, send, wait_turn
from testkit.servers.loopback import free_port


def _user_messages_saved(plugin) -> list[str]:
    return [e["text"] for e in saved_events(plugin) if e["type"] == "user_message"]


def _errors(plugin) -> str:
    return " ".join(status_lines(plugin))


def test_ollama_down_at_start_says_what_to_run_and_keeps_the_message(make_plugin):
    url = f"http://127.0.0.1:{free_port()}"
    plugin = make_plugin(ollama_url=url)
    assert process_until(lambda: "not reachable" in dock_status(plugin), 10), dock_status(plugin)
    assert "ollama serve" in dock_status(plugin) and "ollama.com" in dock_status(plugin)

    send(plugin, "What data do I have?")
    wait_turn(plugin, 30)
    assert "ollama serve" in _errors(plugin) or "not reachable" in _errors(plugin), status_lines(plugin)
    assert chat(plugin)[0] == ("user", "What data do I have?")
    assert _user_messages_saved(plugin) == ["What data do I have?"]


def test_ollama_killed_mid_stream_then_back(make_plugin, tmp_path):
    emu = OllamaEmulator().start()
    plugin = make_plugin(ollama_url=emu.url)
    emu.script(Turn(content="A long answer that will be cut " * 20, chunk_chars=4, drop_after=6))
    try:
        send(plugin, "Tell me about Lyon")
        wait_turn(plugin, 30)
        assert "closed the connection in the middle of the answer" in _errors(plugin) and "Try again" in _errors(plugin)
        assert chat(plugin)[1][1].startswith("A long answer")  # what had arrived stays visible
        emu.script(Turn(content="Back again."))
        send(plugin, "Are you back?")
        wait_turn(plugin, 30)
        assert chat(plugin)[-1] == ("assistant", "Back again.")
        assert _user_messages_saved(plugin) == ["Tell me about Lyon", "Are you back?"]
    finally:
        emu.stop()


def test_model_not_installed_says_ollama_pull(plugin, emu):
    emu.remove_model("qwen3:8b")
    plugin.runtime.tasks.start(plugin.runtime.refresh_connection(), name="recheck")
    assert process_until(lambda: "ollama pull qwen3:8b" in dock_status(plugin), 10), dock_status(plugin)
    send(plugin, "What data do I have?")
    wait_turn(plugin, 30)
    assert "ollama pull qwen3:8b" in _errors(plugin), status_lines(plugin)
    assert _user_messages_saved(plugin) == ["What data do I have?"]

    emu.add_model("qwen3:8b", ("completion", "tools", "thinking"), 40960)
    emu.script(Turn(content="Now I can answer."))
    send(plugin, "And now?")
    wait_turn(plugin)
    assert chat(plugin)[-1] == ("assistant", "Now I can answer.")


def test_a_model_without_native_tools_is_driven_by_constrained_json(make_plugin, emu):
    emu.add_model("gemma3:1b", ("completion",), 32768)
    plugin = make_plugin(chat_model="gemma3:1b")
    # list_catalogs is held back: the constrained JSON names it through call_tool
    emu.script(Turn(content='{"tool": "call_tool", "arguments": {"name": "list_catalogs", "arguments": {}}}'),
               Turn(content='{"answer": "One catalog: the offline demo."}'))
    send(plugin, "Which catalogs do I have?")
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", "One catalog: the offline demo.")
    assert any("constrained JSON" in e for e in feed(plugin))
    fed_back = emu.chat_requests()[1]["messages"][-1]["content"]
    assert fed_back.startswith("Result of list_catalogs: 1 catalog(s): Demo (offline)")  # the named tool ran
    assert "format" in emu.chat_requests()[0] and "tools" not in emu.chat_requests()[0]


def test_400_does_not_support_tools_switches_to_constrained_json(plugin, emu):
    emu.script(Turn(http_status=400, http_error="registry.ollama.ai/library/qwen3:8b does not support tools"),
               Turn(content='{"answer": "Answered without native tools."}'))
    send(plugin, "What data do I have?")
    wait_turn(plugin, 30)
    assert chat(plugin)[-1] == ("assistant", "Answered without native tools.")
    assert any("answered that it does not support tools" in e for e in feed(plugin))
    assert _user_messages_saved(plugin) == ["What data do I have?"]


def test_error_line_in_the_stream_is_shown_and_the_chat_goes_on(plugin, emu):
    emu.script(Turn(content="Starting an answer that breaks", chunk_chars=5, error_line_after=3,
                    error_message="model runner has unexpectedly stopped"))
    send(plugin, "Describe the demo data")
    wait_turn(plugin, 30)
    assert "unexpectedly stopped" in _errors(plugin), status_lines(plugin)
    emu.script(Turn(content="Recovered."))
    send(plugin, "Try again")
    wait_turn(plugin)
    assert chat(plugin)[-1] == ("assistant", "Recovered.")
    assert _user_messages_saved(plugin) == ["Describe the demo data", "Try again"]


def test_a_thousand_tool_calls_in_one_turn_leave_qgis_running_and_tell_the_analyst(plugin, emu):
    emu.script(Turn(tool_calls=[("list_catalogs", {})] * 1000), Turn(content="One catalog: Demo (offline)."))
    send(plugin, "List the catalogs again and again")
    conversation = plugin.runtime.panel.conversation
    assert process_until(lambda: any(isinstance(w, AskUserWidget) for w in conversation.items()), 30)
    question = next(w for w in conversation.items() if isinstance(w, AskUserWidget))
    assert "look-up calls" in question.question.text()
    QTest.mouseClick(next(b for b in question.buttons if b.text() == "Stop and summarise"),
                     Qt.MouseButton.LeftButton)
    wait_turn(plugin, 30)
    # Only the first 10 calls ran, the analyst was told so, and the model answered from them.
    assert any("asked for 1000 tool calls in one step; only the first 10 run" in e for e in feed(plugin))
    events = saved_events(plugin)
    assert events[-1]["type"] == "done" and sum(e["type"] == "tool_result" for e in events) == 10
    assert chat(plugin)[-1] == ("assistant", "One catalog: Demo (offline).")

    run_coroutine(plugin.runtime.panel.new_session())
    emu.script(Turn(content="Fresh start."))
    send(plugin, "Hello")
    wait_turn(plugin)
    assert chat(plugin) == [("user", "Hello"), ("assistant", "Fresh start.")]
