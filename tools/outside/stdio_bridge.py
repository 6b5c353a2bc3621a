"""Lets a desktop MCP client (one that only launches stdio servers) reach the tools of a running QGIS:
`python -m stacgis_agent.tools.outside.stdio_bridge --port 8765 --token-file <profile>/stacgis_mcp_token`.

It serves MCP on stdin/stdout and forwards each request to the plugin's streamable-HTTP endpoint.
Destructive tools stay refused through the bridge (it cannot ask the desktop user for confirmation).
It finds the plugin's private dependency folder (where the plugin installed mcp, anyio, httpx2) by
itself: next to the plugin in the QGIS profile, or in the profile that holds the token file.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ...agent.paths import (
    PLUGIN_DIR,  # not resolved: a symlinked plugin folder still sits in <profile>/python/plugins
)

log = logging.getLogger(__name__)


def dependency_folders(token_file: str | None) -> list[Path]:
    """Where the plugin's private packages may be, most likely first."""
    from ...host.requirements import private_site_dir

    profiles = []
    if token_file:
        profiles.append(Path(token_file).expanduser().resolve().parent)
    if PLUGIN_DIR.parent.name == "plugins" and PLUGIN_DIR.parent.parent.name == "python":
        profiles.append(PLUGIN_DIR.parents[2])
    return [private_site_dir(p) for p in profiles if private_site_dir(p).is_dir()]


def add_dependency_folders(token_file: str | None) -> None:
    for folder in dependency_folders(token_file):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))  # after this Python's own packages, as the plugin does in QGIS


def _plain_http() -> urllib.request.OpenerDirector:
    """An opener that speaks plain HTTP only (the endpoint listens on loopback): no file:, ftp: or data: URL."""
    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.HTTPHandler(), urllib.request.HTTPDefaultErrorHandler(),
                    urllib.request.HTTPErrorProcessor(), urllib.request.UnknownHandler()):  # any other scheme: URLError
        opener.add_handler(handler)
    return opener


def check_token(url: str, token: str) -> str | None:
    """None when the endpoint accepts the token; else a sentence for the user."""
    body = (b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
            b'"capabilities":{},"clientInfo":{"name":"stacgis-stdio-bridge","version":"1"}}}')
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream"})
    try:
        with _plain_http().open(request, timeout=10):
            return None
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            return ("token rejected by the QGIS MCP endpoint: copy the current token from the plugin settings "
                    "(Outside access) or pass the profile's --token-file; a regenerated token replaces the old one.")
        return f"the QGIS MCP endpoint answered HTTP {exc.code}."
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        return (f"cannot reach the QGIS MCP endpoint at {url} ({reason}). Is QGIS running with the endpoint "
                "enabled in the plugin settings, on this port?")


async def serve_bridge(url: str, token: str) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(300, connect=10))
    async with Client(streamable_http_client(url, http_client=http)) as remote:

        async def list_tools(_ctx: Any, _params: Any) -> Any:
            return await remote.list_tools()

        async def call_tool(_ctx: Any, params: Any) -> Any:
            return await remote.call_tool(params.name, params.arguments or {})

        async def list_resources(_ctx: Any, _params: Any) -> Any:
            return await remote.list_resources()

        async def read_resource(_ctx: Any, params: Any) -> Any:
            return await remote.read_resource(params.uri)

        async def list_prompts(_ctx: Any, _params: Any) -> Any:
            return await remote.list_prompts()

        async def get_prompt(_ctx: Any, params: Any) -> Any:
            return await remote.get_prompt(params.name, params.arguments or {})

        server = Server("stacgis-agent", on_list_tools=list_tools, on_call_tool=call_tool,
                        on_list_resources=list_resources, on_read_resource=read_resource,
                        on_list_prompts=list_prompts, on_get_prompt=get_prompt)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765, help="port of the QGIS plugin's MCP endpoint")
    parser.add_argument("--token-file", help="the profile's token file (or set STACGIS_MCP_TOKEN)")
    args = parser.parse_args(argv)
    token = os.environ.get("STACGIS_MCP_TOKEN", "")
    if args.token_file:
        try:
            token = Path(args.token_file).expanduser().read_text(encoding="utf-8").strip()
        except OSError as exc:
            print(f"Cannot read the token file {args.token_file}: {exc.strerror}. It is in the QGIS profile "
                  "folder once the endpoint has been enabled.", file=sys.stderr)
            return 2
    if not token:
        print("No token: pass --token-file <QGIS profile>/stacgis_mcp_token or set STACGIS_MCP_TOKEN.",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    url = f"http://127.0.0.1:{args.port}/mcp"
    problem = check_token(url, token)
    if problem:
        print(f"STAC GIS Agent bridge: {problem}", file=sys.stderr)  # stderr: desktop clients show it in logs
        return 1
    add_dependency_folders(args.token_file)
    try:
        import anyio
    except ImportError as exc:
        print(f"The plugin's packages were not found ({exc}). Run this with QGIS's Python, after the plugin "
              "installed its requirements.", file=sys.stderr)
        return 2
    try:
        anyio.run(serve_bridge, url, token)
    except Exception as exc:  # reported on stderr, where desktop clients show server logs
        print(f"The connection to the QGIS MCP endpoint on port {args.port} ended: {exc}. Is QGIS still running "
              "with the endpoint enabled?", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
