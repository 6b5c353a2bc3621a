"""Driving a real QGIS process (security_host.py) from a test: start it with the endpoint on, read what it
prints, ask it for the project's layers, and stop it the way a user quits QGIS."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..worlds.security_world import SecurityWorld

HOST = Path(__file__).resolve().parent / "security_host.py"


class QgisHost:
    """One QGIS process; its stdout lines are read in the background."""

    def __init__(self, env: dict[str, str], command: list[str] | None = None, inherit_env: bool = True) -> None:
        """`command` defaults to security_host.py under this venv; `inherit_env=False` gives the process
        only `env` (a QGIS that must not see this venv)."""
        full = {**(os.environ if inherit_env else {}), "QT_QPA_PLATFORM": "offscreen", **env}
        self.process = subprocess.Popen(command or [sys.executable, str(HOST)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full)
        self.lines: queue.Queue = queue.Queue()
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines, self.stdout), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, None, self.stderr), daemon=True).start()

    @staticmethod
    def _read(stream, lines, keep) -> None:
        for line in stream:
            keep.append(line)
            if lines is not None:
                lines.put(line.rstrip("\n"))

    def expect(self, *prefixes: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            if line.startswith(prefixes):
                return line
        raise AssertionError(f"QGIS did not print {prefixes}; exit {self.process.poll()}\n"
                             + "".join(self.stdout[-20:]) + "".join(self.stderr[-40:]))

    def ask(self, command: str, timeout: float = 20) -> str:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.expect(command, timeout=timeout).split(" ", 1)[1]

    def layers(self) -> list[str]:
        return json.loads(self.ask("LAYERS"))

    def layouts(self) -> list[str]:
        return json.loads(self.ask("LAYOUTS"))

    def stop(self, timeout: float = 60) -> int:
        if self.process.poll() is None:
            try:
                self.process.stdin.write("QUIT\n")
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


@dataclass
class Running:
    host: QgisHost
    port: int
    token: str
    world: SecurityWorld

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


def start_host(world: SecurityWorld, port: int, env: dict[str, str] | None = None) -> QgisHost:
    """`env`: more settings (STACGIS_CATALOGS: the catalogs a test's attack needs)."""
    return QgisHost({"STACGIS_DATA_DIR": str(world.profile), "STACGIS_MCP_HTTP_ENABLED": "true",
                     "STACGIS_MCP_HTTP_PORT": str(port), "STACGIS_MCP_ALLOWED_FOLDERS": str(world.allowed),
                     "SECURITY_HOST_LAYERS": json.dumps(world.layers), **(env or {})})
