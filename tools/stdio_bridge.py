"""Lets a desktop MCP client (one that only launches stdio servers) reach the tools of a running QGIS:
`python -m stacgis_agent.tools.stdio_bridge --port 8765 --token-file <profile>/stacgis_mcp_token`.

It serves MCP on stdin/stdout and forwards each request to the plugin's streamable-HTTP endpoint.
Destructive tools stay refused through the bridge (it cannot ask the desktop user for confirmation).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

import anyio

log = logging.getLogger(__name__)


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
        token = Path(args.token_file).read_text(encoding="utf-8").strip()
    if not token:
        print("No token: pass --token-file <QGIS profile>/stacgis_mcp_token or set STACGIS_MCP_TOKEN.",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        anyio.run(serve_bridge, f"http://127.0.0.1:{args.port}/mcp", token)
    except Exception as exc:  # reported on stderr, where desktop clients show server logs
        print(f"Cannot reach the QGIS MCP endpoint on port {args.port}: {exc}. Is QGIS running with the "
              "endpoint enabled in the plugin settings?", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
