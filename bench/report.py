"""One table of the headline figures of every benchmark, each a ratio against a baseline measured in the
same run, ready to paste as the README's "Performance" section.

Runs every bench/bench_*.py in its own process (as `make bench` does) and reads the figures from what it
prints. A benchmark that fails, times out, or prints something this script cannot read gets a row that
says so, so a broken benchmark never disappears from the table silently.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/report.py            # everything (several minutes)
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/report.py --quick    # smaller sizes, skips the slowest
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent


@dataclass
class Row:
    bench: str
    figure: str
    measured: str
    baseline: str
    ratio: str


Extractor = Callable[[str], list[Row]]


def _num(text: str) -> float:
    return float(text.replace(",", "").replace("\u202f", ""))


def _find(pattern: str, text: str) -> re.Match:
    match = re.search(pattern, text, re.MULTILINE)
    if match is None:
        raise ValueError(f"no line matches {pattern!r}")
    return match


def _ratio(value: float, base: float, digits: int = 2) -> str:
    return f"{value / base:.{digits}f}×" if base else "n/a"


# ---- one reader per benchmark: the figures its README line is about ------------------------------
def agent_mcp(out: str) -> list[Row]:
    rows = []
    for label in ("async def (loop thread)", "plain def (worker thread)"):
        m = _find(re.escape(label) + r"\s+([\d.]+)\s+([\d.]+)", out)
        direct, via = _num(m[1]), _num(m[2])
        rows.append(Row("agent_mcp", f"tool call through in-process MCP, {label}", f"{via:.0f} µs",
                        f"direct call {direct:.1f} µs", _ratio(via, direct, 0)))
    return rows


def agent_overhead(out: str) -> list[Row]:
    m = _find(r"\(excl\. LLM and tool time\)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", out)
    median, goal = _num(m[1]), _num(m[3])
    return [Row("agent_overhead", "agent overhead per step (excl. LLM and tools), median", f"{median:.2f} ms",
                f"goal {goal:g} ms", _ratio(median, goal))]


def agent_selection(out: str) -> list[Row]:
    tokens = _find(r"^\s+(\d+)\s+(\d+)\s+[\d.]+x\s*$", out)
    everything, selected = _num(tokens[1]), _num(tokens[2])
    recall = _find(r"^\s+20\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", out)
    cosine, hybrid = _num(recall[1]), _num(recall[2])
    latency = _find(r"^\s+300\s+([\d.]+)\s+([\d.]+)", out)
    return [Row("agent_selection", "prompt tokens per step, top-20 tools selected", f"{selected:.0f}",
                f"all tools {everything:.0f}", _ratio(selected, everything)),
            Row("agent_selection", "tool recall@20, cosine + 0.1×keywords", f"{hybrid:.3f}",
                f"cosine only {cosine:.3f}", _ratio(hybrid, cosine)),
            Row("agent_selection", "selection latency per step among 300 tools, median", f"{_num(latency[1]):.3f} ms",
                "—", "—")]


def canvas_render(out: str) -> list[Row]:
    one = _find(r"one COG 4096² via load_stac_asset\s+\d+\s+([\d.]+)\s+([\d.]+)", out)
    bare = _find(r"one COG as bare QgsRasterLayer\s+\d+\s+([\d.]+)", out)
    tiles = _find(r"9 tiles via load_stac_items \(VRT\)\s+\d+\s+([\d.]+)\s+([\d.]+)", out)
    bare9 = _find(r"9 tiles as 9 bare layers\s+\d+\s+([\d.]+)", out)
    foot = _find(r"ratio per footprint ([\d.]+)×", out)
    one_layer = _find(r"footprints as one layer in a group: ([\d.]+) s \(([\d.]+) ms per footprint", out)
    per_item = _find(r"footprints as one layer each: ([\d.]+) s \(([\d.]+) ms per footprint", out)
    return [Row("canvas_render", "tool call → rendered canvas, one 4096² COG", f"{_num(one[1]):.2f} s",
                f"bare QgsRasterLayer {_num(bare[1]):.2f} s", f"{_num(one[2]):.2f}×"),
            Row("canvas_render", "tool call → rendered canvas, 9 tiles as one VRT mosaic", f"{_num(tiles[1]):.2f} s",
                f"9 bare layers {_num(bare9[1]):.2f} s", f"{_num(tiles[2]):.2f}×"),
            Row("canvas_render", "footprints, one layer for all (per footprint)", f"{_num(one_layer[2]):.2f} ms",
                f"one layer each {_num(per_item[2]):.1f} ms", f"1/{_num(foot[1]):.0f}")]


def model_protocol(out: str) -> list[Row]:
    speed = _find(r"provider relative to bare httpx on the same server ([\d.]+)", out)
    seen = _find(r"tokens/s seen / server's own timing \(median of \d+\): provider ([\d.]+)", out)
    tokens = _find(r"^\s+20 \|\s+(\d+) \|\s+(\d+) \|\s+([\d.]+)", out)
    return [Row("model_protocol", "tokens/s through the provider (real model)", "provider",
                "bare httpx, same server", f"{_num(speed[1]):.3f}×"),
            Row("model_protocol", "tokens/s the user sees vs the server's own timing", "seen", "server timing",
                f"{_num(seen[1]):.3f}×"),
            Row("model_protocol", "prompt tokens for 20 tools, constrained JSON", f"{_num(tokens[2]):.0f}",
                f"native tools {_num(tokens[1]):.0f}", f"{_num(tokens[3]):.2f}×")]


def provider_ollama(out: str) -> list[Row]:
    bare = _find(r"bare httpx \+ json\.loads\s+([\d,]+) chunks/s", out)
    provider = _find(r"OllamaProvider\.chat_stream\s+([\d,]+) chunks/s", out)
    return [Row("provider_ollama", "streamed chunks/s through OllamaProvider", f"{_num(provider[1]):,.0f}/s",
                f"bare httpx {_num(bare[1]):,.0f}/s", _ratio(_num(provider[1]), _num(bare[1])))]


def raster_stats(out: str) -> list[Row]:
    overview = _find(r"^overview\s+([\d.]+)\s+([\d.]+)", out)
    exact = _find(r"^exact\s+([\d.]+)\s+([\d.]+)", out)
    download = _find(r"^download\s+([\d.]+)\s+([\d.]+)", out)
    error = _find(r"overview mean differs from exact by ([\d.]+)%", out)
    return [Row("raster_stats", "window mean of a COG over HTTP, overview read", f"{_num(overview[1]):.2f} s",
                f"whole-file download {_num(download[1]):.2f} s", _ratio(_num(overview[1]), _num(download[1]), 3)),
            Row("raster_stats", "bytes fetched, exact (full-resolution) read", f"{_num(exact[2]):.1f} MB",
                f"whole file {_num(download[2]):.1f} MB", _ratio(_num(exact[2]), _num(download[2]))),
            Row("raster_stats", "overview mean error vs exact", f"{_num(error[1]):.3f}%", "exact mean", "—")]


def collection_stats(out: str) -> list[Row]:
    time_ = _find(r"^time\s+([\d.]+) s\s+([\d.]+) s", out)
    rate = _find(r"^items/s\s+([\d.]+)\s+([\d.]+)", out)
    share = _find(r"^% of the files\s+([\d.]+) %\s+([\d.]+) %", out)
    return [Row("collection_stats", "NDVI statistics, 1,000 items over 100 km × 100 km", f"{_num(time_[1]):.1f} s",
                f"naive full-res read {_num(time_[2]):.0f} s (projected)", _ratio(_num(time_[1]), _num(time_[2]), 3)),
            Row("collection_stats", "items per second", f"{_num(rate[1]):.1f}/s", f"naive {_num(rate[2]):.2f}/s",
                _ratio(_num(rate[1]), _num(rate[2]), 0)),
            Row("collection_stats", "bytes read, share of the files", f"{_num(share[1]):.2f} %",
                f"naive {_num(share[2]):.1f} %", _ratio(_num(share[1]), _num(share[2]), 3))]


def stac_search(out: str) -> list[Row]:
    small = _find(r"^\s+10\s+([\d.]+)\s+\d+\s+\d+\s+[\d.]+\s+([\d.]+)", out)
    large = _find(r"^\s+1000\s+([\d.]+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)", out)
    return [Row("stac_search", "search_items, 1000 items (pages followed linearly)", f"{_num(large[1]):.2f} s",
                f"10 items {_num(small[1]):.3f} s", f"{_num(large[4]):.1f}× for 100× items"),
            Row("stac_search", "time per item at 1000 items", f"{_num(large[5]):.2f} ms",
                f"at 10 items {_num(small[2]):.2f} ms", _ratio(_num(large[5]), _num(small[2])))]


def stores_gate(out: str) -> list[Row]:
    local = _find(r"local, 1 client\s+(\d+)", out)
    redis = _find(r"redis, 1 client\s+(\d+)", out)
    race = _find(r"redis, 20 clients racing\s+(\d+)\s+(\d+)", out)
    return [Row("stores_gate", "chat-slot acquire+release, Redis gate", f"{_num(redis[1]):,.0f}/s",
                f"in-process gate {_num(local[1]):,.0f}/s", _ratio(_num(redis[1]), _num(local[1]), 4)),
            Row("stores_gate", "peak slot holders, 20 Redis clients racing for 4 slots", race[2], "limit 4",
                _ratio(_num(race[2]), 4))]


def stores_memory(out: str) -> list[Row]:
    rows = []
    sizes = sorted({int(m[1]) for m in re.finditer(r"^\s+(\d+) sqlite\+numpy", out, re.MULTILINE)})
    if not sizes:
        raise ValueError("no sqlite+numpy line")
    n = sizes[-1]
    sqlite = _find(rf"^\s+{n} sqlite\+numpy\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+([\d.]+)", out)
    hnsw = _find(rf"^\s+{n} pgvector hnsw\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+([\d.]+)", out)
    exact = _find(rf"^\s+{n} pgvector exact\s+([\d.]+)\s+[\d.]+\s+([\d.]+)", out)
    rows.append(Row("stores_memory", f"top-5 memory search p50, {n:,} memories, pgvector HNSW",
                    f"{_num(hnsw[1]):.2f} ms (recall {_num(hnsw[2]):.3f})",
                    f"pgvector exact {_num(exact[1]):.2f} ms", _ratio(_num(hnsw[1]), _num(exact[1]))))
    rows.append(Row("stores_memory", f"top-5 memory search p50, {n:,} memories, SQLite + numpy",
                    f"{_num(sqlite[1]):.2f} ms (recall {_num(sqlite[2]):.3f})",
                    f"pgvector exact {_num(exact[1]):.2f} ms", _ratio(_num(sqlite[1]), _num(exact[1]))))
    return rows


def stores_sessions(out: str) -> list[Row]:
    rows = []
    lines = [ln for ln in out.splitlines() if re.match(r"^\S.*\s[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s*$", ln)]
    parsed = []
    for line in lines:
        parts = line.split()
        parsed.append((" ".join(parts[:-5]), [_num(p) for p in parts[-5:]]))
    if not parsed:
        raise ValueError("no backend line")
    base_name, base = parsed[0]
    for name, values in parsed[1:]:
        rows.append(Row("stores_sessions", f"save after a message p50, {name}", f"{values[0]:.2f} ms",
                        f"{base_name} {base[0]:.2f} ms", _ratio(values[0], base[0])))
    rows.append(Row("stores_sessions", f"save after a message p50, {base_name}", f"{base[0]:.2f} ms", "—", "—"))
    return rows


def stream_parser(out: str) -> list[Row]:
    rows = []
    for m in re.finditer(r"^(.+?)\s+json\.loads\s+([\d,]+) lines/s \| parser\s+([\d,]+) chunks/s", out, re.MULTILINE):
        label, baseline, parser = m[1].strip(), _num(m[2]), _num(m[3])
        rows.append(Row("stream_parser", f"stream parser, {label}", f"{parser:,.0f} chunks/s",
                        f"bare json.loads {baseline:,.0f} lines/s", _ratio(parser, baseline)))
    if not rows:
        raise ValueError("no parser line")
    return rows


UI_FIGURES = {"max_stall_ms": ("longest UI stall per turn (median)", "{:.1f} ms"),
              "worst_turn_ms": ("longest UI stall of any turn", "{:.1f} ms"),
              "text_updates": ("chat text repaints per turn", "{:.0f}")}


def ui_stall(out: str) -> list[Row]:
    rows = []
    for key, (label, fmt) in UI_FIGURES.items():
        m = _find(rf"^\s*{key}\s+([\d.]+)\s+([\d.]+)", out)
        batched, every = _num(m[1]), _num(m[2])
        rows.append(Row("ui_stall", f"{label}, repaints batched at 30/s", fmt.format(batched),
                        "every fragment " + fmt.format(every), _ratio(batched, every)))
    return rows


def layer_stall(out: str) -> list[Row]:
    rows = []
    for key, label in (("max_stall_ms", "longest GUI stall loading STAC layers (median of runs)"),
                       ("worst_run_ms", "longest GUI stall loading STAC layers (worst run)")):
        m = _find(rf"^\s*{key}\s+([\d.]+)\s+([\d.]+)", out)
        before, after = _num(m[1]), _num(m[2])
        rows.append(Row("layer_stall", f"{label}, GDAL in a worker", f"{after:.1f} ms",
                        f"opened on the GUI thread {before:.1f} ms", _ratio(after, before)))
    return rows


def vs_odc_stac(out: str) -> list[Row]:
    """The plugin against the best of odc-stac, stackstac and lazycogs, per question and network."""
    rows = []
    line = (r"^\s+(?P<q>year|\S+).*?, (?P<net>\w+): time (?P<t>[\d.]+) s vs (?P<pt>[\d.]+) s \((?P<peer>[\w-]+)\) = "
            r"[\d.]+x faster; bytes (?P<mb>[\d.]+) vs (?P<pmb>[\d.]+) MB \((?P<least>[\w-]+)\) = [\d.]+x; month error "
            r"(?P<e>[\d.]+) vs (?P<pe>[\d.]+)")
    for m in re.finditer(line, out, re.MULTILINE):
        name = f"{'overviews, a year' if m['q'] == 'year' else 'full resolution, a month'}, {m['net']}"
        rows.append(Row("vs_odc_stac", f"collection statistics, {name}: median wall time (month error {m['e']})",
                        f"{_num(m['t']):.1f} s", f"{m['peer']} {_num(m['pt']):.1f} s (error {m['pe']})",
                        _ratio(_num(m['t']), _num(m['pt']))))
        rows.append(Row("vs_odc_stac", f"collection statistics, {name}: MB served", f"{_num(m['mb']):.1f}",
                        f"{m['least']} {_num(m['pmb']):.1f}", _ratio(_num(m['mb']), _num(m['pmb']))))
    if not rows:
        raise ValueError("no comparison table")
    return rows


@dataclass
class Bench:
    name: str
    read: Extractor
    quick_args: tuple[str, ...] = ()
    slow: bool = False  # skipped by --quick
    timeout_s: float = 900


BENCHES = [
    Bench("agent_mcp", agent_mcp), Bench("agent_overhead", agent_overhead),
    Bench("agent_selection", agent_selection), Bench("canvas_render", canvas_render), Bench("layer_stall", layer_stall),
    Bench("collection_stats", collection_stats, slow=True),
    Bench("model_protocol", model_protocol, slow=True), Bench("provider_ollama", provider_ollama),
    Bench("raster_stats", raster_stats, slow=True), Bench("stac_search", stac_search),
    Bench("stores_gate", stores_gate, quick_args=("--pairs", "500")),
    Bench("stores_memory", stores_memory, quick_args=("--sizes", "1000,10000", "--queries", "50")),
    Bench("stores_sessions", stores_sessions), Bench("stream_parser", stream_parser), Bench("ui_stall", ui_stall),
    Bench("vs_odc_stac", vs_odc_stac, slow=True, timeout_s=1800),
]


def run_bench(bench: Bench, quick: bool) -> tuple[list[Row], float, str]:
    script = HERE / f"bench_{bench.name}.py"
    args = [sys.executable, str(script), *(bench.quick_args if quick else ())]
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    started = time.perf_counter()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=bench.timeout_s, env=env, cwd=HERE.parent)
    except subprocess.TimeoutExpired:
        return [Row(bench.name, f"did not finish within {bench.timeout_s:.0f} s", "—", "—", "—")], bench.timeout_s, ""
    seconds = time.perf_counter() - started
    failure = []
    if done.returncode != 0:  # figures printed before a crash at exit are still shown, with the failure
        last = (done.stderr.strip().splitlines() or ["no output"])[-1][:120]
        failure = [Row(bench.name, f"FAILED (exit {done.returncode}): {last}", "—", "—", "—")]
    try:
        return bench.read(done.stdout) + failure, seconds, done.stdout
    except ValueError as exc:
        return failure or [Row(bench.name, f"output not understood ({exc}); see its output", "—", "—", "—")], \
            seconds, done.stdout


def markdown(rows: list[Row]) -> str:
    lines = ["| benchmark | figure | measured | baseline (same run) | ratio |", "|---|---|---|---|---|"]
    lines += [f"| {r.bench} | {r.figure} | {r.measured} | {r.baseline} | {r.ratio} |" for r in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes; skip the slowest benchmarks")
    parser.add_argument("--only", default="", help="comma-separated benchmark names, e.g. agent_mcp,stac_search")
    parser.add_argument("--raw", type=Path, help="also save every benchmark's own output in this folder")
    args = parser.parse_args()
    wanted = {n.strip() for n in args.only.split(",") if n.strip()}
    rows: list[Row] = []
    failed = False
    for bench in BENCHES:
        if wanted and bench.name not in wanted:
            continue
        if args.quick and bench.slow:
            rows.append(Row(bench.name, "skipped (--quick)", "—", "—", "—"))
            continue
        print(f"running bench_{bench.name}.py …", file=sys.stderr, flush=True)
        found, seconds, output = run_bench(bench, args.quick)
        failed |= any(r.measured == "—" and r.figure.startswith(("FAILED", "did not", "output")) for r in found)
        print(f"  {seconds:.0f} s", file=sys.stderr, flush=True)
        if args.raw:
            args.raw.mkdir(parents=True, exist_ok=True)
            (args.raw / f"bench_{bench.name}.txt").write_text(output, encoding="utf-8")
        rows += found
    print(markdown(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
