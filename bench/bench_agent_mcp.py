"""An in-process MCP tool call (agent ToolHost -> mcp Client -> MCPServer) vs calling the same
Python function directly. Run: .venv/bin/python bench/bench_agent_mcp.py"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402

import conftest  # noqa: E402,F401
from stacgis_agent.agent.tool_host import ToolHost  # noqa: E402

N = 400


def field_mean(values: list[float]) -> dict:
    return {"mean": sum(values) / len(values), "count": len(values)}


async def async_field_mean(values: list[float]) -> dict:
    return field_mean(values)


def build() -> MCPServer:
    server = MCPServer("bench")
    server.tool(name="field_mean_sync", annotations=ToolAnnotations(readOnlyHint=True))(field_mean)
    server.tool(name="field_mean_async", annotations=ToolAnnotations(readOnlyHint=True))(async_field_mean)
    return server


async def timed(fn, n: int = N) -> float:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6  # microseconds


async def main() -> None:
    values = [float(i) for i in range(100)]
    host = ToolHost(build())
    t0 = time.perf_counter()
    await host.start()
    connect_ms = (time.perf_counter() - t0) * 1000
    args = {"values": values}
    assert (await host.call("field_mean_sync", args)).value["mean"] == 49.5

    async def direct_sync():
        field_mean(values)

    async def direct_async():
        await async_field_mean(values)

    async def validated_call(name):
        assert not host.validate(name, args)
        await host.call(name, args)

    rows = [
        ("plain def (worker thread)", await timed(direct_sync), await timed(lambda: validated_call("field_mean_sync"))),
        ("async def (loop thread)", await timed(direct_async), await timed(lambda: validated_call("field_mean_async"))),
    ]
    async def validate_only():
        host.validate("field_mean_sync", args)

    validation = await timed(validate_only)
    await host.aclose()
    print(f"connect + list_tools: {connect_ms:.1f} ms; schema validation alone: {validation:.1f} µs")
    print(f"{'tool kind':<28} {'direct µs':>10} {'via MCP µs':>11} {'ratio':>8}")
    for name, direct, via in rows:
        print(f"{name:<28} {direct:>10.1f} {via:>11.1f} {via / direct:>7.0f}x")
    print("(via MCP includes JSON-schema validation of the arguments, as the loop does)")


if __name__ == "__main__":
    asyncio.run(main())
