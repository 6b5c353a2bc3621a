"""The opt-in streamable-HTTP endpoint for outside MCP clients: 127.0.0.1 only, a bearer token per
profile, Host/Origin checked, destructive tools confirmed through elicitation. It runs as a task on
the plugin's event loop, so QGIS never blocks on it."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import secrets
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from .deps import ToolDeps
from .server import build_server

log = logging.getLogger(__name__)

TOKEN_FILE = "stacgis_mcp_token"
MCP_PATH = "/mcp"
LOOPBACK = "127.0.0.1"


def load_or_create_token(profile_dir: str | Path) -> str:
    """The profile's bearer token, created once (readable by the user only)."""
    path = Path(profile_dir) / TOKEN_FILE
    if path.exists():
        token = path.read_text(encoding="utf-8").strip()
        if len(token) >= 32:
            return token
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token)
    return token


def build_external_server(deps: ToolDeps, extra_families: Iterable[ModuleType] = ()) -> MCPServer:
    """The same tools as the embedded server, with destructive calls gated by elicitation (tools.confirmation)."""
    return build_server(deps, extra_families=extra_families)


class _Guard:
    """Refuses requests without the bearer token, or with a Host/Origin other than this endpoint."""

    def __init__(self, app: Any, token: str, port: int) -> None:
        self.app = app
        self.token = token.encode()
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
        supplied = headers.get("authorization", "")
        if not (supplied.startswith("Bearer ") and hmac.compare_digest(supplied[7:].strip().encode(), self.token)):
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


class McpHttpEndpoint:
    def __init__(self, deps: ToolDeps, token: str, port: int, extra_families: Iterable[ModuleType] = ()) -> None:
        self.port = port
        self.server = build_external_server(deps, extra_families)
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
        self._task = asyncio.get_running_loop().create_task(self._uvicorn.serve(), name="stacgis-mcp-http")
        deadline = asyncio.get_running_loop().time() + timeout
        while not self._uvicorn.started:
            if self._task.done() or asyncio.get_running_loop().time() > deadline:
                await self.stop()
                raise RuntimeError(f"The MCP endpoint could not listen on {LOOPBACK}:{self.port}; "
                                   "the port may be in use: pick another in the plugin settings.")
            await asyncio.sleep(0.02)
        log.info("MCP endpoint listening on %s", self.url)

    async def stop(self) -> None:
        self._uvicorn.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, SystemExit):
                await asyncio.wait_for(self._task, 10)
            self._task = None
