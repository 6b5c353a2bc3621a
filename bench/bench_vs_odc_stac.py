"""collection_statistics against what an analyst would use instead, in one run on one counting COG server:
odc-stac and stackstac (dask, 8 threads, rasterio's GDAL) and lazycogs (async-geotiff + obstore, no GDAL), each in a
virtual environment of its own, on the same year of Sentinel-2-L2A-like items over two UTM zones (`year_world.py`:
about 353 items, a 204 km × 97 km area, SCL cloud mask), the same grid (the plugin's), the same masks and
scale/offset. Two questions: the monthly mean NDVI of 2023 at overviews (the plugin's default), and one month at
full resolution. Two networks: loopback, and a cloud object store in the same region (NETWORK: latency before each
answer's first byte, a bandwidth shared by every answer). Every tool runs in a fresh process, in rounds, the
order rotated each round; the table gives each tool's median time (and its range), what the server counted
(bytes, requests, HEAD requests, the most requests in flight at once) and the error against a numpy truth at
60 m (`year_world.truth`): the largest error of a monthly mean, and the valid pixels counted against the truth's
(in 60 m pixels). The machine is shared: single times are noisy, medians and ratios are what to read.

    python bench/bench_vs_odc_stac.py [--rounds N] [--tools product,odc-stac,stackstac,lazycogs]
                                      [--only overviews|full] [--network loopback|cloud]

The peers' environments are made once under $BENCH_DIR (default .build): odc-venv (odc-stac, stackstac) and
lazycogs-venv (lazycogs needs Python >= 3.12: pyenv's python3.12 when there is one, else the row says why
it is missing); the world's files once under $BENCH_DIR/bench-year (about 3 GB, a few minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

import year_world  # noqa: E402

BUILD = Path(os.environ.get("BENCH_DIR", REPO / ".build"))
WORLD = BUILD / "bench-year"
THREADS = 8  # the peers' dask threads
NETWORKS = {"loopback": {"latency_s": 0.0, "bandwidth": 0.0},
            "cloud": {"latency_s": 0.040, "bandwidth": 100e6}}  # 40 ms to the first byte, 800 Mbit/s shared
TOOLS = ("product", "odc-stac", "stackstac", "lazycogs")
PEER_PACKAGES = {"odc": ["odc-stac", "stackstac", "dask", "pystac"],
                 "lazycogs": ["lazycogs==0.7.0", "obstore", "async-geotiff", "matplotlib"]}


async def product(job: dict) -> dict:
    """collection_statistics' own computation (the tool without the MCP wrapper), as the dock runs it."""
    import httpx

    import conftest  # noqa: F401 - makes `stacgis_agent` importable
    from stacgis_agent.agent.config import Settings
    from stacgis_agent.tools.analysis.collection_stats import compute
    from stacgis_agent.tools.deps import ToolDeps
    from stacgis_agent.tools.engine import stats_runner

    if os.environ.get("BENCH_PRODUCT_READS"):  # an experiment: the most reads in flight
        stats_runner.MAX_CONCURRENCY = int(os.environ["BENCH_PRODUCT_READS"])
    async with httpx.AsyncClient(timeout=30) as http:
        deps = ToolDeps.from_settings(Settings(), http=http, work_dir=job["out"])
        started = time.perf_counter()
        result = await compute(deps, job["items"], {}, job["area"], index="NDVI", asset=None, group_by="month",
                               exact=job["exact"], mask_clouds=True)
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "months": {r["period"]: [r["mean"], r["valid_pixels"]] for r in result["rows"]},
            "resolution": result["resolution"], "grid_crs": result["grid_crs"], "version": "this plugin"}


def venv_python(name: str) -> str | None:
    """The peers' own environment, made on first use; None when it cannot be made here (and why is printed)."""
    folder = BUILD / f"{name}-venv"
    python = folder / "bin" / "python"
    if not python.exists():
        base = sys.executable if name == "odc" else python312()
        if base is None:
            print(f"  ({name}: no python3.12 on this machine; lazycogs needs Python >= 3.12, its rows are left out)")
            return None
        subprocess.run([base, "-m", "venv", str(folder)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES[name]], check=True)
    return str(python)


def python312() -> str | None:
    """A Python 3.12 that runs: on PATH, or one of pyenv's versions (pyenv's shim on PATH answers only where 3.12
    is the selected version)."""
    candidates = [shutil.which("python3.12"), *sorted(Path.home().glob(".pyenv/versions/3.12*/bin/python3.12"))]
    for candidate in filter(None, candidates):
        if subprocess.run([str(candidate), "-c", "pass"], capture_output=True).returncode == 0:
            return str(candidate)
    return None


def run(tool: str, job: dict, cogs) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({**job, "tool": tool}, f)
    cogs.reset_counts()
    if tool == "product":
        command = [sys.executable, str(Path(__file__)), "--job", f.name]
    elif tool == "lazycogs":
        command = [venv_python("lazycogs"), str(HERE / "lazycogs_runner.py"), f.name]
    else:
        command = [venv_python("odc"), str(HERE / "odc_runner.py"), f.name]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    os.unlink(f.name)
    if done.returncode != 0:
        raise SystemExit(f"{tool} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out.update(served=sum(cogs.bytes_sent.values()), requests=sum(cogs.requests.values()),
               heads=sum(cogs.head_requests.values()), in_flight=cogs.peak_in_flight)
    if "dates" in out:  # the peers give per-date sums and counts: pooled per month as the plugin does
        months: dict[str, list[float]] = {}
        for date, (total, count) in out["dates"].items():
            pooled = months.setdefault(date[:7], [0.0, 0])
            pooled[0] += total
            pooled[1] += count
        out["months"] = {m: [t / c if c else None, c] for m, (t, c) in months.items()}
    return out


def errors(run_out: dict, truth: dict, resolution: float) -> tuple[float, float]:
    """(largest error of a monthly mean, valid pixels counted against the truth's, in %)."""
    worst, counted, true_count = 0.0, 0.0, 0
    cell = (resolution / year_world.PIXEL) ** 2  # 60 m pixels in one grid cell
    for month, t in truth.items():
        mean, count = run_out["months"].get(month, [None, 0])
        true_count += t["count"]
        counted += (count or 0) * cell
        if t["mean"] is not None:
            worst = max(worst, abs(mean - t["mean"]) if mean is not None else float("inf"))
    return worst, 100 * (counted - true_count) / true_count


def row(name: str, runs: list[dict], truth: dict, resolution: float) -> dict:
    secs = sorted(r["seconds"] for r in runs)
    worst, valid = errors(runs[0], truth, resolution)
    return {"tool": name, "median": statistics.median(secs), "min": secs[0], "max": secs[-1],
            "mb": statistics.median(r["served"] for r in runs) / 1e6,
            "requests": int(statistics.median(r["requests"] for r in runs)),
            "heads": int(statistics.median(r["heads"] for r in runs)),
            "in_flight": max(r["in_flight"] for r in runs), "error": worst, "valid": valid}


def print_table(rows: list[tuple[str, str, dict]]) -> None:
    print(f"\n{'question':52}{'network':10}{'tool':11}{'median s (min–max)':>21}{'MB':>7}{'requests (HEAD)':>17}"
          f"{'in flight':>10}{'month err':>10}{'valid px':>9}")
    for question, network, r in rows:
        print(f"{question:52}{network:10}{r['tool']:11}{r['median']:>8.2f} ({r['min']:5.2f}–{r['max']:5.2f})"
              f"{r['mb']:>7.1f}{r['requests']:>10,} ({r['heads']:>4}){r['in_flight']:>10}{r['error']:>10.5f}"
              f"{r['valid']:>+8.2f}%")


def ratios(rows: list[tuple[str, str, dict]]) -> None:
    """The plugin against the best peer on each line: time (the fastest peer's median ÷ the plugin's; above 1 the
    plugin leads), bytes (the plugin's ÷ the fewest a peer fetched), error and valid pixels (the closest peer's)."""
    print("\nthe plugin against the best peer on each line")
    cases = list(dict.fromkeys((q, n) for q, n, _ in rows))
    for question, network in cases:
        mine = next((r for q, n, r in rows if (q, n) == (question, network) and r["tool"] == "product"), None)
        peers = [r for q, n, r in rows if (q, n) == (question, network) and r["tool"] != "product"]
        if mine is None or not peers:
            continue
        fastest = min(peers, key=lambda r: r["median"])
        least = min(peers, key=lambda r: r["mb"])
        closest = min(peers, key=lambda r: r["error"])
        valid = min(peers, key=lambda r: abs(r["valid"]))
        print(f"  {question}, {network}: time {mine['median']:.1f} s vs {fastest['median']:.1f} s ({fastest['tool']}) "
              f"= {fastest['median'] / mine['median']:.2f}x faster; bytes {mine['mb']:.1f} vs {least['mb']:.1f} MB "
              f"({least['tool']}) = {mine['mb'] / least['mb']:.3f}x; month error {mine['error']:.5f} vs "
              f"{closest['error']:.5f} ({closest['tool']}); valid pixels {mine['valid']:+.2f}% vs {valid['valid']:+.2f}% "
              f"({valid['tool']})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--job")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--only", choices=("overviews", "full"), help="one of the two questions")
    parser.add_argument("--network", choices=tuple(NETWORKS), help="one of the two networks")
    args = parser.parse_args()
    if args.job:
        job = json.loads(Path(args.job).read_text())
        print(json.dumps(asyncio.run(product(job))))
        return
    from testkit.servers.cog_server import CogServer

    started = time.perf_counter()
    year_world.make_files(WORLD)
    truth_dates = year_world.truth(WORLD)
    print(f"world ready in {time.perf_counter() - started:.0f} s")
    tools = [t for t in args.tools.split(",") if t != "lazycogs" or venv_python("lazycogs")]
    cogs = CogServer(WORLD).start()
    rows: list[tuple[str, str, dict]] = []
    try:
        items = year_world.items(cogs.url, WORLD)
        base = {"area": year_world.area_lonlat(), "threads": THREADS, "excluded": list(year_world.EXCLUDED),
                "scale": year_world.SCALE, "offset": year_world.OFFSET, "out": str(WORLD / "out")}
        for exact, question in ((False, "year 2023 by month, overviews"), (True, f"{year_world.MONTH}, full resolution")):
            if args.only and args.only != ("full" if exact else "overviews"):
                continue
            chosen = [i for i in items if exact is False or i["properties"]["datetime"][:7] == year_world.MONTH]
            truth = year_world.monthly_truth({d: t for d, t in truth_dates.items()
                                              if any(i["properties"]["datetime"][:10] == d for i in chosen)})
            job = {**base, "items": chosen, "exact": exact}
            plan = run("product", job, cogs)  # the plugin's grid (CRS, resolution, cells) is every tool's
            job.update(grid_of(plan))
            question = f"{question} ({len(chosen)} items, {job['resolution']:g} m)"
            for network, conditions in NETWORKS.items():
                if args.network and args.network != network:
                    continue
                cogs.latency_s, cogs.bandwidth = conditions["latency_s"], conditions["bandwidth"]
                runs: dict[str, list[dict]] = {t: [] for t in tools}
                for k in range(args.rounds):
                    for tool in tools[k % len(tools):] + tools[:k % len(tools)]:
                        runs[tool].append(run(tool, job, cogs))
                for tool in tools:
                    rows.append((question, network, row(tool, runs[tool], truth, job["resolution"])))
                print_table(rows[-len(tools):])
        print(f"\nall together ({args.rounds} rounds, each tool in a fresh process, the order rotated each round; "
              f"NETWORK cloud: {NETWORKS['cloud']['latency_s'] * 1000:g} ms, "
              f"{NETWORKS['cloud']['bandwidth'] * 8 / 1e6:g} Mbit/s shared; a shared 2-core machine: read medians)")
        print_table(rows)
        ratios(rows)
    finally:
        cogs.stop()


def grid_of(plan: dict) -> dict:
    """The plugin's grid as the peers are given it: CRS, resolution, bounds on multiples of the resolution, and
    the area's polygon in that CRS."""
    import re

    crs = plan["grid_crs"]
    resolution = float(re.search(r"(?:at |\()([\d.]+) m", plan["resolution"]).group(1))
    ring = area_in(crs)
    xs, ys = zip(*ring)
    step = resolution
    bounds = [min(xs) // step * step, min(ys) // step * step, -(-max(xs) // step) * step, -(-max(ys) // step) * step]
    return {"crs": crs, "resolution": resolution, "bounds": bounds, "area_crs": ring}


def area_in(crs: str) -> list[list[float]]:
    """The bench's polygon (edges densified) in `crs` ("EPSG:32632")."""
    from testkit.worlds.collection_world import transformer

    tr = transformer(year_world.EPSG, int(crs.split(":")[1]))
    return [list(tr.TransformPoint(x, y)[:2]) for x, y in year_world.area_utm32()]


if __name__ == "__main__":
    main()
