"""The opt-in streamable-HTTP endpoint for outside MCP clients: 127.0.0.1 only, a bearer token per
profile, Host/Origin checked, destructive tools confirmed through elicitation. It runs as a task on
the plugin's event loop, so QGIS never blocks on it."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import json
import logging
import os
import secrets
import socket
import tempfile
from pathlib import Path
from typing import Any, Callable

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from ...agent.paths import PLUGINS_DIR
from ..deps import ToolDeps
from ..server import build_server
from .running_calls import OutsideCalls, StoppableCalls
from .tasks import ToolTasks

log = logging.getLogger(__name__)

CREDENTIAL_FILE_NAME = "stacgis_mcp_token"
MCP_PATH = "/mcp"
LOOPBACK = "127.0.0.1"


def token_path(profile_dir: str | Path) -> Path:
    return Path(profile_dir) / CREDENTIAL_FILE_NAME


def load_or_create_token(profile_dir: str | Path) -> str:
    """The profile's bearer token, created once; the file is made readable by the user only on every call."""
    path = token_path(profile_dir)
    if path.exists():
        token = path.read_text(encoding="utf-8").strip()
        if len(token) >= 32:
            os.chmod(path, 0o600)  # an older or hand-made file may be readable by others
            return token
    return regenerate_token(profile_dir)


def regenerate_token(profile_dir: str | Path) -> str:
    """A new token, written atomically (a temp file at 0600 renamed over the old one): a client never
    reads half a token, and the old file's permissions are not inherited."""
    path = token_path(profile_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd, temp = tempfile.mkstemp(prefix=f".{CREDENTIAL_FILE_NAME}.", dir=str(path.parent))  # mkstemp creates it 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(token)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return token


class TokenFile:
    """The current token, re-read when the file changes: Regenerate in the settings revokes the old
    token at once, without restarting the endpoint."""

    def __init__(self, profile_dir: str | Path) -> None:
        self.path = token_path(profile_dir)
        self._stamp: int | None = None
        self._token = load_or_create_token(profile_dir)

    def __call__(self) -> str:
        try:
            stamp = self.path.stat().st_mtime_ns
        except OSError:
            return self._token
        if stamp != self._stamp:
            text = self.path.read_text(encoding="utf-8").strip()
            if len(text) >= 32:
                self._token, self._stamp = text, stamp
        return self._token


class EndpointAccess:
    """What the settings dialog shows about the endpoint: the token, a new one, and ready client configs."""

    def __init__(self, profile_dir: str | Path, python: str | None = None, plugins_dir: str | Path | None = None):
        self.profile_dir = Path(profile_dir)
        self.python = python or "python3"
        self.plugins_dir = Path(plugins_dir) if plugins_dir else PLUGINS_DIR

    def token(self) -> str:
        return load_or_create_token(self.profile_dir)

    def regenerate(self) -> str:
        return regenerate_token(self.profile_dir)

    def client_config(self, port: int) -> str:
        """JSON for MCP clients' "mcpServers": one stdio entry (through the bridge) and one HTTP entry."""
        stdio = {"command": self.python,
                 "args": ["-m", "stacgis_agent.tools.outside.stdio_bridge", "--port", str(port),
                          "--token-file", str(token_path(self.profile_dir))],
                 "env": {"PYTHONPATH": str(self.plugins_dir)}}
        http = {"type": "http", "url": f"http://{LOOPBACK}:{port}{MCP_PATH}",
                "headers": {"Authorization": f"Bearer {self.token()}"}}
        return json.dumps({"mcpServers": {"qgis-stac-agent": stdio, "qgis-stac-agent-http": http}}, indent=2)


def build_external_server(deps: ToolDeps, canvas: bool = False, tasks: ToolTasks | None = None,
                          calls: OutsideCalls | None = None) -> MCPServer:
    """The same tools as the embedded server, with destructive calls gated by elicitation (tools.confirmation),
    and long analyses offered as MCP tasks to clients that declare the tasks extension (tools.outside.tasks);
    with `calls`, every call is listed there while it runs and the dock can stop it (running_calls.py)."""
    server = build_server(deps, canvas=canvas, tasks=tasks)
    if calls is not None:
        server.middleware.append(StoppableCalls(calls))  # innermost: around the work, a task's job included
    return server


class _Guard:
    """Refuses requests without the bearer token, or with a Host/Origin other than this endpoint."""

    def __init__(self, app: Any, token: str | Callable[[], str], port: int) -> None:
        self.app = app
        self.token = token if callable(token) else (lambda: token)
        self.hosts = {f"{LOOPBACK}:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if headers.get("host") not in self.hosts:
            return await _deny(send, 403, "Host not allowed: connect to http://127.0.0.1 on this port.")
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return await _deny(send, 403, "Origin not allowed: browsers on other sites may not use this endpoint.")
        scheme, _, supplied = headers.get("authorization", "").strip().partition(" ")
        if not (scheme.lower() == "bearer" and hmac.compare_digest(supplied.strip().encode(), self.token().encode())):
            return await _deny(send, 401, "Missing or wrong bearer token: copy it from the plugin settings "
                                          "(MCP endpoint) into your MCP client.")
        return await self.app(scope, receive, send)


async def _deny(send: Any, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="stacgis-mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _QuietServer(uvicorn.Server):
    # Signals belong to QGIS: uvicorn must not install its own handlers on the main thread.
    def install_signal_handlers(self) -> None:
        pass

    @contextlib.contextmanager
    def capture_signals(self):
        yield


def bind_loopback(port: int) -> socket.socket:
    """A listening-ready socket on 127.0.0.1:port, or RuntimeError with what the user can do."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart may find its old socket in TIME_WAIT
    try:
        listener.bind((LOOPBACK, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise RuntimeError(f"MCP endpoint not started: port {port} is in use by another program: "
                               "pick another port in Settings (Outside access).") from None
        raise RuntimeError(f"MCP endpoint not started: cannot listen on {LOOPBACK}:{port} ({exc.strerror}); "
                           "pick another port in Settings (Outside access).") from None
    listener.setblocking(False)
    return listener


class McpHttpEndpoint:
    def __init__(self, deps: ToolDeps, token: str | Callable[[], str], port: int, canvas: bool = False,
                 calls: OutsideCalls | None = None) -> None:
        self.port = port
        self.tasks = ToolTasks()
        self.server = build_external_server(deps, canvas, self.tasks, calls)
        security = TransportSecuritySettings(allowed_hosts=[f"{LOOPBACK}:{port}", f"localhost:{port}"],
                                             allowed_origins=[f"http://{LOOPBACK}:{port}", f"http://localhost:{port}"])
        app = self.server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=security,
                                              host=LOOPBACK)
        config = uvicorn.Config(_Guard(app, token, port), host=LOOPBACK, port=port, log_level="warning",
                                lifespan="on")
        self._uvicorn = _QuietServer(config)
        self._task: asyncio.Task | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}{MCP_PATH}"

    async def start(self, timeout: float = 10.0) -> None:
        """Listens, or raises RuntimeError saying why; never exits the host (uvicorn calls sys.exit on
        a bind failure, which inside QGIS would quit QGIS): the socket is bound here first."""
        listener = bind_loopback(self.port)
        self._task = asyncio.get_running_loop().create_task(self._serve(listener), name="stacgis-mcp-http")
        deadline = asyncio.get_running_loop().time() + timeout
        while not self._uvicorn.started:
            if self._task.done() or asyncio.get_running_loop().time() > deadline:
                failure = self._task.exception() if self._task.done() and not self._task.cancelled() else None
                await self.stop()
                listener.close()
                raise RuntimeError(f"The MCP endpoint did not start on {LOOPBACK}:{self.port}"
                                   f"{f' ({failure})' if failure else ''}; see the QGIS log (STAC GIS Agent tab).")
            await asyncio.sleep(0.02)
        log.info("MCP endpoint listening on %s", self.url)

    async def _serve(self, listener: socket.socket) -> None:
        try:
            await self._uvicorn.serve(sockets=[listener])
        except SystemExit as exc:  # uvicorn's way of failing: turned into an error of this task only
            raise RuntimeError(f"the HTTP server stopped (exit status {exc.code})") from None
        finally:
            listener.close()

    async def stop(self) -> None:
        await self.tasks.close()  # a task's job would outlive the server it reports to
        self._uvicorn.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, SystemExit):
                await asyncio.wait_for(self._task, 10)
            self._task = None
