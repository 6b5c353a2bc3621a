"""Ready configurations for outside MCP clients (Claude Desktop, VS Code, Cursor, the MCP Inspector), over the
stdio bridge or the HTTP endpoint, shown in the settings to copy or written into the client's own file.

The token never appears in what is shown or written where the client can fetch it itself: the stdio bridge reads
the profile's token file (`--token-file`); VS Code asks for it once and keeps it in its secret storage
(`${input:…}`); Cursor reads it from an environment variable (`${env:…}`); the Inspector is given it on its
command line from the file (`$(cat …)`). Claude Desktop starts local servers only over stdio, so its HTTP choice
is the bridge too. Writing merges our one entry into the client's file, keeping every other server, after a copy
of the old file (`.bak`). Plain data and files: no Qt, nothing sent anywhere.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CLIENTS = {"claude_desktop": "Claude Desktop", "vscode": "VS Code", "cursor": "Cursor", "inspector": "MCP Inspector"}
TRANSPORTS = ("stdio", "http")
SERVER_NAME = "qgis-stac-agent"
TOKEN_INPUT = "qgis-stac-agent-token"  # nosec B105 # the name of VS Code's prompt for the token, not a token
TOKEN_ENV = "STACGIS_MCP_TOKEN"  # nosec B105 # the variable Cursor reads the token from, not a token
BRIDGE = "stacgis_agent.tools.outside.stdio_bridge"


@dataclass(frozen=True)
class EndpointPlace:
    """Where the endpoint and the bridge are: what every configuration is built from."""

    port: int
    python: str  # the Python that runs the bridge (QGIS's own)
    plugins_dir: Path  # the folder holding stacgis_agent (PYTHONPATH of the bridge)
    token_file: Path  # the profile's token file
    url: str  # the endpoint's address, http://127.0.0.1:<port>/mcp


@dataclass(frozen=True)
class ClientConfig:
    client: str  # a key of CLIENTS
    transport: str  # "stdio" or "http" (what the entry uses: Claude Desktop's "http" is the bridge)
    path: Path | None  # the client's own file, where Write puts it
    key: str  # the top-level object that holds the servers in that file ("mcpServers" or "servers")
    entry: dict[str, Any]  # our server's entry
    extra: dict[str, Any] = field(default_factory=dict)  # other top-level parts (VS Code's "inputs")
    command: str = ""  # a command line to run it with (the Inspector)

    def text(self) -> str:
        """What the settings show and copy: the file's part for our server, and the command when there is one."""
        document = {self.key: {SERVER_NAME: self.entry}, **self.extra}
        shown = json.dumps(document, indent=2, ensure_ascii=False)
        return shown + (f"\n\n{self.command}" if self.command else "")


def client_config(client: str, transport: str, place: EndpointPlace, *, home: Path | None = None,
                  platform: str = sys.platform, environ: dict[str, str] | None = None,
                  inspector_file: Path | None = None) -> ClientConfig:
    """The configuration of `client` for `transport`, with no token in it (see the module's docstring)."""
    if client not in CLIENTS or transport not in TRANSPORTS:
        raise ValueError(f"unknown client {client!r} or transport {transport!r}")
    home = home or Path.home()
    environ = dict(os.environ if environ is None else environ)
    path = config_path(client, home, platform, environ) if client != "inspector" else inspector_file
    stdio = {"command": place.python, "args": ["-m", BRIDGE, "--port", str(place.port),
                                               "--token-file", str(place.token_file)],
             "env": {"PYTHONPATH": str(place.plugins_dir)}}
    if client == "claude_desktop":  # its file starts local (stdio) servers only
        return ClientConfig(client, "stdio", path, "mcpServers", stdio)
    if client == "vscode":
        if transport == "stdio":
            return ClientConfig(client, "stdio", path, "servers", {"type": "stdio", **stdio})
        entry = {"type": "http", "url": place.url, "headers": {"Authorization": f"Bearer ${{input:{TOKEN_INPUT}}}"}}
        inputs = [{"type": "promptString", "id": TOKEN_INPUT, "password": True,  # nosec B105 # VS Code shows dots
                   "description": f"QGIS STAC GIS Agent token (Settings ▸ Outside access, or {place.token_file})"}]
        return ClientConfig(client, "http", path, "servers", entry, {"inputs": inputs})
    if client == "cursor":
        if transport == "stdio":
            return ClientConfig(client, "stdio", path, "mcpServers", stdio)
        entry = {"url": place.url, "headers": {"Authorization": f"Bearer ${{env:{TOKEN_ENV}}}"}}
        return ClientConfig(client, "http", path, "mcpServers", entry,
                            command=f"export {TOKEN_ENV}=\"$(cat {shlex.quote(str(place.token_file))})\"")
    shown_file = shlex.quote(str(inspector_file or "mcp-inspector.json"))
    if transport == "stdio":
        return ClientConfig(client, "stdio", path, "mcpServers", {"type": "stdio", **stdio},
                            command=f"npx @modelcontextprotocol/inspector --cli --config {shown_file} "
                                    f"--server {SERVER_NAME} --method tools/list")
    header = shlex.quote("Authorization: Bearer ") + f"\"$(cat {shlex.quote(str(place.token_file))})\""
    return ClientConfig(client, "http", path, "mcpServers", {"type": "http", "url": place.url},
                        command=f"npx @modelcontextprotocol/inspector --cli --config {shown_file} "
                                f"--server {SERVER_NAME} --header {header} --method tools/list")


def config_path(client: str, home: Path, platform: str, environ: dict[str, str]) -> Path:
    """Where the client reads its MCP servers, per operating system (the user-level file)."""
    if platform.startswith("win"):
        appdata = Path(environ.get("APPDATA") or home / "AppData" / "Roaming")
        folders = {"claude_desktop": appdata / "Claude", "vscode": appdata / "Code" / "User"}
    elif platform == "darwin":
        support = home / "Library" / "Application Support"
        folders = {"claude_desktop": support / "Claude", "vscode": support / "Code" / "User"}
    else:
        config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
        folders = {"claude_desktop": config / "Claude", "vscode": config / "Code" / "User"}
    folders["cursor"] = home / ".cursor"
    names = {"claude_desktop": "claude_desktop_config.json", "vscode": "mcp.json", "cursor": "mcp.json"}
    return folders[client] / names[client]


def write_config(config: ClientConfig) -> Path:
    """Puts our entry into the client's file, keeping everything else there; the old file is copied to .bak first.
    A file that is not a JSON object is left alone (ValueError says so)."""
    if config.path is None:
        raise ValueError("this client has no file to write; copy the text instead")
    path = config.path
    document: dict[str, Any] = {}
    if path.exists():
        try:
            document = json.loads(path.read_text(encoding="utf-8") or "{}")
        except ValueError as exc:
            raise ValueError(f"{path} is not valid JSON ({exc}); fix or move it, then write again") from exc
        if not isinstance(document, dict):
            raise ValueError(f"{path} does not hold a JSON object; fix or move it, then write again")
        shutil.copy2(path, path.with_name(path.name + ".bak"))
    servers = document.get(config.key)
    document[config.key] = {**(servers if isinstance(servers, dict) else {}), SERVER_NAME: config.entry}
    for key, value in config.extra.items():  # VS Code's inputs: ours replaced, the others kept
        if key == "inputs" and isinstance(document.get(key), list):
            ours = {item.get("id") for item in value}
            value = [item for item in document[key] if item.get("id") not in ours] + value
        document[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(temp, path)
    return path


def place_of(access: Any, port: int) -> EndpointPlace:
    """The place of the endpoint the settings describe (`access`: a tools.outside.http_endpoint.EndpointAccess)."""
    from .http_endpoint import LOOPBACK, MCP_PATH, token_path

    return EndpointPlace(port, access.python, Path(access.plugins_dir), token_path(access.profile_dir),
                         f"http://{LOOPBACK}:{port}{MCP_PATH}")


def inspector_file(access: Any) -> Path:
    """Where the Inspector's configuration is written: beside the token, in the QGIS profile."""
    return Path(access.profile_dir) / "stacgis_mcp_inspector.json"
