"""Tool selection: latency at 20/100/300 tools, recall@K on the labelled requests, and prompt
tokens per step with selection vs offering every tool.

Embeddings are the Ollama emulator's deterministic bag-of-words vectors (no real model can run
here), so recall measures the scoring rule and the catalogue text, not a neural model.
Run: .venv/bin/python bench/bench_agent_selection.py
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
from stacgis_agent.agent.tool_selection import ToolSelector, ToolText  # noqa: E402
from testkit.ollama_replies import embed_text  # noqa: E402

DATA = ROOT / "tests" / "data"
VARIANTS = ("", " (GDAL)", " (GRASS)", " (SAGA)", " (batch)")


async def _embed(texts):
    return [embed_text(t) for t in texts]


def catalogue() -> list[dict]:
    return json.loads((DATA / "tool_catalogue.json").read_text())["tools"]


def tools_of_size(n: int) -> list[ToolText]:
    base = catalogue()
    out = []
    for i in range(n):  # beyond the catalogue: processing-provider variants, as a real toolbox has
        t = base[i % len(base)]
        v = VARIANTS[i // len(base)]
        suffix = v.strip(" ()").lower()
        out.append(ToolText(t["name"] + (f"_{suffix}" if suffix else ""), t["description"] + v))
    return out


async def latency() -> None:
    labels = json.loads((DATA / "tool_selection_labels.json").read_text())["labels"]
    queries = [(lbl["request"], embed_text(lbl["request"])) for lbl in labels]
    print("selection latency per step (query embedding excluded: it is one call to the server)")
    print(f"{'tools':>6} {'median ms':>10} {'p95 ms':>8}")
    for n in (20, 100, 300):
        selector = ToolSelector(_embed, top_k=20)
        await selector.index(tools_of_size(n))
        allowed = set(selector.names[: n - 3])
        times = []
        for _ in range(5):
            for text, vec in queries:
                t0 = time.perf_counter()
                selector.select(text, vec, allowed=allowed, required=[selector.names[0]])
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"{n:>6} {statistics.median(times):>10.3f} {times[int(len(times) * 0.95)]:>8.3f}")


async def recall() -> None:
    labels = json.loads((DATA / "tool_selection_labels.json").read_text())["labels"]
    tools = [ToolText(t["name"], t["description"]) for t in catalogue()]
    print(f"\nrecall@K on {len(labels)} labelled requests, {len(tools)} tools")
    print(f"{'K':>4} {'cosine only':>12} {'cos+0.1*kw':>11} {'keywords only':>14}")
    for k in (5, 10, 20):
        row = []
        for weight, use_vec in ((0.0, True), (0.1, True), (0.1, False)):
            selector = ToolSelector(_embed if use_vec else None, top_k=k, keyword_weight=weight)
            await selector.index(tools)
            hits = total = 0
            for lbl in labels:
                chosen = selector.select(lbl["request"], embed_text(lbl["request"]) if use_vec else None)
                hits += sum(e in chosen for e in lbl["expected"])
                total += len(lbl["expected"])
            row.append(hits / total)
        print(f"{k:>4} {row[0]:>12.3f} {row[1]:>11.3f} {row[2]:>14.3f}")


def prompt_tokens() -> None:
    raw = catalogue()
    tools = [{"name": t["name"], "description": t["description"],
              "inputSchema": {"type": "object", "properties": {
                  "layer": {"type": "string", "description": "layer name or id"},
                  "distance": {"type": "number"}}, "required": ["layer"]}} for t in raw]
    specs = format_tools(tools)
    est = TokenEstimator()
    system = [{"role": "system", "content": "x" * 1800}, {"role": "user", "content": "Buffer the rivers by 100 m"}]
    all_tokens = est.estimate(system, specs)
    top20 = est.estimate(system, specs[:20])
    print("\nprompt tokens per step (system prompt + message + tool definitions, estimated)")
    print(f"{'all ' + str(len(specs)) + ' tools':>16} {'top-20 selected':>16} {'ratio':>7}")
    print(f"{all_tokens:>16} {top20:>16} {all_tokens / top20:>6.1f}x")


async def main() -> None:
    await latency()
    await recall()
    prompt_tokens()


if __name__ == "__main__":
    asyncio.run(main())
