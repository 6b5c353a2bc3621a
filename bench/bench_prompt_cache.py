"""Prompt cache: tokens a real model re-reads per step, for four ways of choosing the tools.

1. Records the /api/chat requests of one scripted chat (3 messages, 2-3 steps each; a raster
   layer is on the map from the second message on) from the
   real agent loop: the plugin's real MCP tools (canvas family included), the offline demo
   catalog, real tool results; only the model's replies are scripted (Ollama emulator).
   Once per tool-set mode: per-step selection (top-10 and the old default top-20),
   per-message selection, one per-chat selection that only grows, all tools in full, and the
   default (all tools, the rarely needed ones named in call_tool's description).
2. Replays them through ONE llama_cpp.Llama object (Gemma 3 270M, the GGUF the suite builds),
   rendered with Qwen's chat template (tools in the system block). llama.cpp keeps the previous
   prompt in its KV cache and evaluates only what follows the longest common token prefix,
   as Ollama does: re-read = prompt tokens - common prefix with what the cache holds.

Prints per mode: prompt tokens, tokens re-read, prefill seconds, and for the later steps the
re-read/added ratio (goal <= 1.2), side by side with the ratio to all-tools.
3. The whole chat per message, with the templates of the models the guide recommends (Qwen3's and
   Llama 3.2's own, Gemma 3's layout; tests/testkit/llm/chat_templates.py): the default mode as the
   plugin sends it (the model's thinking not sent back) beside the same chat with the thinking sent
   back (as before issue 44.4; Qwen3's template drops it at the next message). Goal: the whole chat
   re-reads at most 1.1x the tokens it adds.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_prompt_cache.py [--before OLD_CHECKOUT] [--tokens-only]
(--tokens-only: tokenizer only, the cache taken to hold the previous prompt; seconds not measured).
(--before: also record the chat with an older checkout's code, e.g. `git worktree add /tmp/old <commit>`).
(the replay runs in .build/llama-venv's python; `make setup-test` builds it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "data" / "qwen_chat_template.jinja"
LLAMA_PY = ROOT / ".build" / "llama-venv" / "bin" / "python"
MODEL = ROOT / ".build" / "models" / "gemma-3-270m-q4_k_m.gguf"
DEMO = ROOT / "resources" / "demo_catalog" / "collections"
LYON = [4.79, 45.73, 4.88, 45.79]
# (label, tool_set mode, top_k)
MODES = (("per step, top-20 (before)", "step", 20), ("per step, top-10", "step", 10),
         ("per message, top-10", "message", 10), ("per chat, top-10", "chat", 10), ("all tools", "all", 10),
         ("default: auto (held back)", "auto", 10))


def script():
    """The chat: (user message, scripted model replies)."""
    from testkit.llm.ollama_emulator import Turn

    dem = str(DEMO / "demo-elevation" / "items" / "demo-elevation-lyon.tif")
    return [
        ("What elevation data do we have around Lyon?", [
            Turn(thinking="The user wants elevation data near Lyon. Search the collections for elevation.",
                 tool_calls=[("search_collections", {"query": "elevation"})]),
            Turn(thinking="demo-elevation is a DEM. Find its items over Lyon.",
                 tool_calls=[("search_items", {"collections": ["demo-elevation"], "bbox": LYON})]),
            Turn(content="There is one elevation model over Lyon: item demo-elevation-lyon (collection "
                         "demo-elevation).")]),
        ("What's the elevation at the centre of the map?", [
            Turn(thinking="Read the DEM at the map centre 4.835, 45.76.",
                 tool_calls=[("query_raster_point", {"source": dem, "x": 4.835, "y": 45.76})]),
            Turn(content="The ground is at the value shown above at the centre of the map.")]),
        ("How did NDVI change between June and September here?", [
            Turn(thinking="NDVI over time at the centre: a time series of the demo-ndvi collection.",
                 tool_calls=[("get_timeseries", {"collection": "demo-ndvi", "asset": "ndvi", "lon": 4.835,
                                                 "lat": 45.76, "datetime": "2025-06-01/2025-09-30"})]),
            Turn(thinking="Two dates. Describe the collection for its scale.",
                 tool_calls=[("get_collection_info", {"collection": "demo-ndvi"})]),
            Turn(content="NDVI went from the June value to the September value shown above.")]),
    ]


async def record(mode: str, top_k: int, thinking_back: bool = False) -> list[dict]:
    """The chat's /api/chat requests as the agent loop sends them in this tool-set mode (`thinking_back`: with
    the model's thinking in the history, as the plugin sent it before issue 44.4)."""
    from mcp import Client  # noqa: F401  (fails early without the plugin's requirements)

    from stacgis_agent.agent import conversation

    if thinking_back:
        conversation.NOT_SENT_BACK, kept = (), conversation.NOT_SENT_BACK
        try:
            return await record(mode, top_k)
        finally:
            conversation.NOT_SENT_BACK = kept

    from stacgis_agent.agent.config import Settings
    from stacgis_agent.agent.llm.ollama import OllamaProvider
    from stacgis_agent.agent.llm.types import ChatOptions
    from stacgis_agent.agent.loop import AgentLoop
    from stacgis_agent.agent.map_context import LayerInfo, MapContext
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.server import build_server
    from testkit.llm.ollama_emulator import OllamaEmulator

    known = {f.name for f in dataclasses.fields(Settings)}
    values = {"chat_model": "qwen3:8b", "tool_top_k": top_k, "tool_set": mode}
    settings = Settings.from_dict({k: v for k, v in values.items() if k in known})
    parcels = LayerInfo("parcels", "vector", geometry="Polygon", feature_count=42)
    dem = LayerInfo("demo-elevation-lyon", "raster")

    def context_for(index: int) -> MapContext:
        """From the second message on, a raster layer is on the map (the analyst added the DEM):
        the project's state changes between messages, which used to change the tool list."""
        layers = (parcels,) if index == 0 else (parcels, dem)
        return MapContext(extent=tuple(LYON), crs="EPSG:4326", center_lonlat=(4.835, 45.76), scale=25000,
                          active_layer="parcels", layers=layers)
    with OllamaEmulator() as emu:
        settings = dataclasses.replace(settings, ollama_url=emu.url)
        provider = OllamaProvider(emu.url, settings.chat_model, options=ChatOptions(
            num_ctx=settings.num_ctx, temperature=settings.temperature, keep_alive=settings.keep_alive))
        deps = ToolDeps.from_settings(settings, embed=provider.embed)
        loop = AgentLoop(provider, build_server(deps, canvas=True), settings)
        try:
            for index, (message, turns) in enumerate(script()):
                emu.script(*turns)
                async for _ in loop.run(message, context_for(index)):
                    pass
            if mode == "auto":  # what the default chose with these tools at this num_ctx
                tools = loop.tool_set
                print(f"tool_set=auto with {len(loop.selector.names)} tools (~{tools.all_tools_tokens:,} tokens "
                      f"estimated as sent) at num_ctx {settings.num_ctx:,} chooses: {tools.effective_mode}")
            return emu.chat_requests()
        finally:
            await loop.aclose()
            await provider.aclose()
            await deps.http.aclose()


def render_all(recordings: dict[str, list[dict]], template: str = "") -> dict[str, dict]:
    """Each recording's requests as the model reads them: with Qwen's layout (TEMPLATE) or, when `template`
    names one, with that model's own template."""
    import jinja2

    from testkit.llm.chat_templates import render

    layout = jinja2.Environment().from_string(TEMPLATE.read_text())
    out = {}
    for label, requests in recordings.items():
        texts = [render(template, body) if template else layout.render(
            messages=body["messages"], tools=body.get("tools") or None, add_generation_prompt=True)
            for body in requests]
        out[label] = {"texts": texts, "new_message": [b["messages"][-1]["role"] == "user" for b in requests]}
    return out


def replay(rendered: dict[str, dict], n_ctx: int = 16384, evaluate: bool = True) -> dict[str, list[dict]]:
    """Runs in the llama venv: each recording's rendered requests through one Llama object. Without
    `evaluate`, only the tokenizer runs and the cache is taken to hold the previous prompt (no seconds)."""
    from llama_cpp import Llama

    results: dict[str, list[dict]] = {}
    for label, chat in rendered.items():
        llm = Llama(model_path=str(MODEL), n_ctx=n_ctx, n_batch=512, n_threads=max(1, os.cpu_count() or 1),
                    vocab_only=not evaluate, verbose=False)
        rows, previous = [], []
        for text, new_message in zip(chat["texts"], chat["new_message"]):
            tokens = llm.tokenize(text.encode(), add_bos=not text.startswith("<bos>"), special=True)
            held = list(llm._input_ids[: llm.n_tokens]) if evaluate else previous  # what the KV cache holds
            reused = _common(held, tokens)
            started = time.perf_counter()
            if evaluate:
                llm.create_completion(tokens, max_tokens=1, temperature=0.0)
            rows.append({"tokens": len(tokens), "reread": len(tokens) - reused,
                         "added": len(tokens) - _common(previous, tokens) if previous else len(tokens),
                         "grew": len(tokens) - len(previous),
                         "prefill_s": time.perf_counter() - started if evaluate else 0.0,
                         "new_message": new_message})
            previous = tokens
        results[label] = rows
        del llm
    return results


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _turns(rows: list[dict]) -> list[list[dict]]:
    turns: list[list[dict]] = []
    for row in rows:
        if row["new_message"] or not turns:
            turns.append([])
        turns[-1].append(row)
    return turns


def report(results: dict[str, list[dict]]) -> None:
    labels = list(results)
    print(f"\nOne chat of 3 messages ({len(next(iter(results.values())))} requests), replayed through one "
          "llama.cpp model (Gemma 3 270M, Qwen chat template):")
    print(f"{'':34}" + "".join(f"{lbl:>28}" for lbl in labels))

    def line(name: str, values: list[str]) -> None:
        print(f"{name:34}" + "".join(f"{v:>28}" for v in values))

    total = {lbl: sum(r["tokens"] for r in rows) for lbl, rows in results.items()}
    reread = {lbl: sum(r["reread"] for r in rows) for lbl, rows in results.items()}
    prefill = {lbl: sum(r["prefill_s"] for r in rows) for lbl, rows in results.items()}
    line("prompt tokens, all requests", [f"{total[lbl]:,}" for lbl in labels])
    line("tokens re-read, all requests", [f"{reread[lbl]:,}" for lbl in labels])
    if any(prefill.values()):
        line("prefill seconds, all requests", [f"{prefill[lbl]:.1f}" for lbl in labels])
    line("first request: tokens", [f"{rows[0]['tokens']:,}" for rows in results.values()])
    later = {lbl: rows[1:] for lbl, rows in results.items()}
    line("later requests: re-read / grew", [
        f"{sum(r['reread'] for r in rows):,} / {sum(max(r['grew'], 0) for r in rows):,}" for rows in later.values()])
    line("  worst step: re-read / grew", [
        f"{max(r['reread'] / max(r['grew'], 1) for r in rows):.2f}x" for rows in later.values()])
    base = "all tools" if "all tools" in results else labels[-1]
    line(f"re-read vs {base}", [f"{reread[lbl] / max(reread[base], 1):.2f}x" for lbl in labels])
    if any(prefill.values()):
        line(f"prefill vs {base}", [f"{prefill[lbl] / max(prefill[base], 1e-9):.2f}x" for lbl in labels])
    print("\nper turn (one user message and its steps): tokens re-read" + (", prefill s" if any(prefill.values()) else ""))
    for turn, rows_of_turn in enumerate(zip(*[_turns(rows) for rows in results.values()]), start=1):
        line(f"  turn {turn}", [f"{sum(r['reread'] for r in t):,}" + (
            f", {sum(r['prefill_s'] for r in t):.1f} s" if any(prefill.values()) else "") for t in rows_of_turn])
    print("\nper request (tokens in prompt / re-read):")
    for i in range(len(next(iter(results.values())))):
        cells = [f"{rows[i]['tokens']:,} / {rows[i]['reread']:,}" for rows in results.values()]
        kind = "message" if next(iter(results.values()))[i]["new_message"] else "step"
        line(f"  request {i + 1} ({kind})", cells)


def report_whole_chat(results: dict[str, list[dict]]) -> None:
    """Per message and over the whole chat: tokens re-read / tokens the prompt grew by (1.00x = only the new)."""
    labels = list(results)
    print("\nThe whole chat per message, by chat template: tokens re-read / tokens added (goal: whole chat <= 1.1x)")
    print(f"{'':22}" + "".join(f"{lbl:>34}" for lbl in labels))
    per_label = {lbl: _turns(rows) for lbl, rows in results.items()}
    for turn in range(len(next(iter(per_label.values())))):
        cells = []
        for lbl in labels:
            rows = per_label[lbl][turn]
            reread, grew = sum(r["reread"] for r in rows), sum(max(r["grew"], 0) for r in rows)
            cells.append(f"{reread:,} / {grew:,} ({reread / max(grew, 1):.2f}x)")
        print(f"{f'  message {turn + 1}':22}" + "".join(f"{c:>34}" for c in cells))
    for name, rows_of in (("whole chat", lambda rows: rows), ("  after the first request", lambda rows: rows[1:])):
        cells = []
        for lbl in labels:
            rows = rows_of(results[lbl])
            reread, grew = sum(r["reread"] for r in rows), sum(max(r["grew"], 0) for r in rows)
            cells.append(f"{reread:,} / {grew:,} ({reread / max(grew, 1):.2f}x)")
        print(f"{name:22}" + "".join(f"{c:>34}" for c in cells))


def _arg(name: str) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def _before(checkout: str) -> dict[str, list[dict]]:
    """The same chat recorded by an older checkout of the plugin (its own code, tools, prompts)."""
    out = Path(tempfile.mkdtemp()) / "before.json"
    script_copy = Path(checkout) / "bench" / "bench_prompt_cache_record.py"
    script_copy.write_text(Path(__file__).read_text())
    try:
        subprocess.run([sys.executable, str(script_copy), "--record-only", str(out)], check=True)
    finally:
        script_copy.unlink()
    return {"code before (its default)": json.loads(out.read_text())}


def main() -> None:
    if "--replay" in sys.argv:  # inside the llama venv
        src, dst = sys.argv[sys.argv.index("--replay") + 1:][:2]
        evaluate = "--tokens-only" not in sys.argv
        Path(dst).write_text(json.dumps(replay(json.loads(Path(src).read_text()), evaluate=evaluate)))
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import conftest  # noqa: F401  (makes stacgis_agent and testkit importable)

    if _arg("--record-only"):  # an older checkout: its default mode only
        Path(_arg("--record-only")).write_text(json.dumps(asyncio.run(record("auto", 10))))
        return
    recordings = _before(_arg("--before")) if _arg("--before") else {}
    recordings.update({label: asyncio.run(record(mode, k)) for label, mode, k in MODES})
    for label, requests in recordings.items():
        names = [len(b.get("tools") or ()) for b in requests]
        print(f"{label:28} {len(requests)} requests, tools offered per request: {names}")
    default = recordings[MODES[-1][0]]
    thinking_back = asyncio.run(record(MODES[-1][1], MODES[-1][2], thinking_back=True))
    if not (LLAMA_PY.exists() and MODEL.exists()):
        print(f"\nNo real model to replay with ({LLAMA_PY} and {MODEL}); run `make setup-test` first.")
        sys.exit(1)
    from testkit.llm.chat_templates import RENDERERS

    by_template = {}
    for name in RENDERERS:
        for label, chat in (("sent", default), ("thinking back (before)", thinking_back)):
            by_template.update({f"{name}, {label}": v for v in render_all({"": chat}, name).values()})
    tokens_only = ["--tokens-only"] if "--tokens-only" in sys.argv else []
    report(_replayed(render_all(recordings), tokens_only))
    report_whole_chat(_replayed(by_template, ["--tokens-only"]))


def _replayed(rendered: dict[str, dict], flags: list[str]) -> dict[str, list[dict]]:
    """`rendered` replayed in the llama venv (its own process: llama-cpp-python lives there)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "requests.json", Path(tmp) / "results.json"
        src.write_text(json.dumps(rendered))
        subprocess.run([str(LLAMA_PY), __file__, "--replay", str(src), str(dst), *flags], check=True)
        return json.loads(dst.read_text())

if __name__ == "__main__":
    main()
