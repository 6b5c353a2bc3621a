"""Tool selection on the plugin's real tools: recall@5/10/20 on the labelled analyst requests,
prompt size of the tool list at each K, and selection latency at 20/100/300 tools.

The tools are the embedded MCP server's own (QGIS offscreen for the canvas family), with
their real descriptions and schemas. Embeddings are the Ollama emulator's deterministic
bag-of-words vectors (no neural embedding model can run here), so recall measures the
scoring rule and the descriptions, not nomic-embed-text.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_agent_selection.py
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import conftest  # noqa: E402,F401  (makes stacgis_agent and testkit importable)
from stacgis_agent.agent.context_window import TokenEstimator  # noqa: E402
from stacgis_agent.agent.llm.schema import format_tools  # noqa: E402
from stacgis_agent.agent.tool_ranking import ToolSelector, ToolText  # noqa: E402
from testkit.llm.ollama_replies import embed_text  # noqa: E402

DATA = ROOT / "tests" / "data"
LABELS = DATA / "analyst_requests.json"
VARIANTS = ("", " (GDAL)", " (GRASS)", " (SAGA)", " (batch)")


async def _embed(texts):
    return [embed_text(t) for t in texts]


async def plugin_tools() -> list:
    """The MCP tools the plugin offers the model, canvas family included."""
    from mcp import Client

    from stacgis_agent.agent.config import Settings
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server

    deps = ToolDeps.from_settings(Settings())
    try:
        async with Client(build_server(deps, canvas=True)) as client:
            return list((await client.list_tools()).tools)
    finally:
        await deps.http.aclose()


def tools_of_size(base: list[ToolText], n: int) -> list[ToolText]:
    out = []
    for i in range(n):  # beyond the real tools: processing-provider variants, as a real toolbox has
        t = base[i % len(base)]
        suffix = VARIANTS[(i // len(base)) % len(VARIANTS)].strip(" ()").lower()
        out.append(ToolText(t.name + (f"_{suffix}{i // (len(base) * len(VARIANTS)) or ''}" if suffix else ""),
                            t.description))
    return out


async def recall_table(tools: list[ToolText], labels: list[dict]) -> dict[tuple[str, int], float]:
    print(f"recall@K on {len(labels)} labelled analyst requests ({LABELS.name}), {len(tools)} real tools")
    print(f"{'K':>4} {'keywords only':>14} {'cosine only':>12} {'cosine+keywords':>16}")
    out = {}
    for k in (5, 10, 20):
        row = []
        for label, weight, use_vec in (("kw", 0.1, False), ("cos", 0.0, True), ("both", 0.1, True)):
            selector = ToolSelector(_embed if use_vec else None, top_k=k, keyword_weight=weight)
            await selector.index(tools)
            hits = total = 0
            for lbl in labels:
                chosen = selector.select(lbl["request"], embed_text(lbl["request"]) if use_vec else None)
                hits += sum(e in chosen for e in lbl["expected"])
                total += len(lbl["expected"])
            out[(label, k)] = hits / total
            row.append(hits / total)
        print(f"{k:>4} {row[0]:>14.3f} {row[1]:>12.3f} {row[2]:>16.3f}")
    return out


async def misses(tools: list[ToolText], labels: list[dict], k: int) -> None:
    selector = ToolSelector(_embed, top_k=k)
    await selector.index(tools)
    missed = []
    for lbl in labels:
        chosen = selector.select(lbl["request"], embed_text(lbl["request"]))
        lost = [e for e in lbl["expected"] if e not in chosen]
        if lost:
            missed.append(f"  {lbl['request']!r}: missed {', '.join(lost)}")
    print(f"\nrequests missing an expected tool at K={k}: {len(missed)}")
    print("\n".join(missed[:25]))


def prompt_size(mcp_tools: list) -> None:
    specs = format_tools(mcp_tools)
    est = TokenEstimator()
    chars = lambda s: len(json.dumps(s, separators=(",", ":"), ensure_ascii=False))  # noqa: E731
    print("\nprompt size of the tool list (JSON as sent; tokens estimated at 3.6 chars/token)")
    print(f"{'tools':>6} {'chars':>8} {'~tokens':>8}")
    for k in (5, 10, 20, len(specs)):
        part = specs[:k]
        print(f"{k:>6} {chars(part):>8} {est.estimate([], part):>8}")


async def latency(base: list[ToolText], labels: list[dict]) -> None:
    queries = [(lbl["request"], embed_text(lbl["request"])) for lbl in labels]
    print("\nselection latency per request (query embedding excluded: one call to the server)")
    print(f"{'tools':>6} {'median ms':>10} {'p95 ms':>8}")
    for n in (20, 100, 300):
        selector = ToolSelector(_embed, top_k=10)
        await selector.index(tools_of_size(base, n))
        allowed = set(selector.names[: n - 3])
        times = []
        for _ in range(3):
            for text, vec in queries:
                t0 = time.perf_counter()
                selector.select(text, vec, allowed=allowed, required=[selector.names[0]])
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"{n:>6} {statistics.median(times):>10.3f} {times[int(len(times) * 0.95)]:>8.3f}")


async def main() -> None:
    mcp_tools = await plugin_tools()
    tools = [ToolText(t.name, t.description or "") for t in mcp_tools]
    labels = json.loads(LABELS.read_text())["labels"]
    await recall_table(tools, labels)
    await misses(tools, labels, 10)
    prompt_size(mcp_tools)
    await latency(tools, labels)


if __name__ == "__main__":
    asyncio.run(main())
