"""collection_statistics against what an analyst would use instead, in one run on one loopback COG server:
odc-stac and stackstac (dask, 8 threads, in their own virtual environment with rasterio's GDAL), on the same
Sentinel-2-L2A-like world (`odc_world.py`: 120 items, 30 dates, clouds, overlapping tiles, a swath edge), the
same area and the same grid. Every tool runs in a fresh process, so no GDAL cache carries over. Prints wall
time, the bytes the server sent (counted at the server) and the largest error of a date's mean NDVI against
a full-resolution numpy truth, at overviews and at full resolution; then the plugin on a separately started
Dask scheduler with 1 and 2 worker processes.

    python bench/bench_vs_odc_stac.py [--repeat N] [--no-dask] [--no-stackstac] [--only overviews|full]

The odc-stac environment is made once under .build/odc-venv (pip install odc-stac stackstac); the world's files
once under $BENCH_DIR (default .build)/bench-vs-odc (about 300 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

import odc_world  # noqa: E402

ROOT = Path(os.environ.get("BENCH_DIR", REPO / ".build")) / "bench-vs-odc"
ODC_VENV = REPO / ".build" / "odc-venv"
THREADS = 8
FULL_RES_DATES = odc_world.JULY


def odc_python() -> str:
    python = ODC_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ODC_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "odc-stac", "stackstac", "dask", "pystac"],
                       check=True)
    return str(python)


async def product(job: dict) -> dict:
    """collection_statistics' own computation (the tool without the MCP wrapper), as the dock runs it."""
    import httpx

    import conftest  # noqa: F401 - makes `stacgis_agent` importable
    from stacgis_agent.agent.config import Settings
    from stacgis_agent.tools.analysis.collection_stats import compute
    from stacgis_agent.tools.deps import ToolDeps

    settings = Settings()
    if job.get("scheduler"):
        settings.dask_scheduler = job["scheduler"]
    async with httpx.AsyncClient(timeout=30) as http:
        deps = ToolDeps.from_settings(settings, http=http, work_dir=job["out"])
        started = time.perf_counter()
        result = await compute(deps, job["items"], {}, job["area"], index="NDVI", asset=None, group_by="date",
                               exact=job["exact"], mask_clouds=True)
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "means": {r["period"]: r["mean"] for r in result["rows"]},
            "resolution": result["resolution"], "reported_bytes": result["bytes_read"], "grid_crs": result["grid_crs"]}


def run(tool: str, job: dict, cogs) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({**job, "tool": tool}, f)
    cogs.reset_counts()
    python = sys.executable if tool == "product" else odc_python()
    script = str(Path(__file__)) if tool == "product" else str(HERE / "odc_runner.py")
    done = subprocess.run([python, script, "--job", f.name] if tool == "product" else [python, script, f.name],
                          capture_output=True, text=True, timeout=1800)
    os.unlink(f.name)
    if done.returncode != 0:
        raise SystemExit(f"{tool} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["served"] = sum(cogs.bytes_sent.values())
    out["requests"] = sum(cogs.requests.values())
    return out


def error(means: dict, truth: dict, dates) -> float:
    return max(abs(means[d] - truth[d]) for d in dates if truth.get(d) is not None and means.get(d) is not None)


def missing(means: dict, truth: dict, dates) -> list[str]:
    return [d for d in dates if truth.get(d) is not None and means.get(d) is None]


def table(title: str, rows: list[tuple[str, list[dict]]], truth: dict, dates) -> None:
    print(f"\n{title}")
    print(f"{'tool':44}{'wall s (min–max)':>20}{'MB served':>11}{'requests':>10}{'max date error':>16}")
    for name, runs in rows:
        secs = [r["seconds"] for r in runs]
        served = runs[0]["served"] / 1e6
        gone = missing(runs[0]["means"], truth, dates)
        err = f"{error(runs[0]['means'], truth, dates):.5f}" + (f" ({len(gone)} date(s) lost)" if gone else "")
        print(f"{name:44}{min(secs):>10.1f} – {max(secs):<7.1f}{served:>11.1f}{runs[0]['requests']:>10}{err:>16}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--job")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--no-stackstac", action="store_true")
    parser.add_argument("--only", choices=("overviews", "full"), help="one of the two comparisons")
    parser.add_argument("--zones", type=int, choices=(1, 2), default=1,
                        help="2: the east tiles stored in UTM 33N (every tool warps them onto the grid)")
    args = parser.parse_args()
    if args.job:
        job = json.loads(Path(args.job).read_text())
        print(json.dumps(asyncio.run(product(job))))
        return
    from testkit.servers.cog_server import CogServer

    odc_world.make_files(ROOT)
    truth = odc_world.truth(ROOT)
    if args.zones == 2:
        odc_world.make_other_zone(ROOT)
        print("two UTM zones: the east tiles in 33N (the same stored values warped by nearest), the others in 32N; "
              "the error is against the one-zone truth")
    cogs = CogServer(ROOT).start()
    try:
        items = odc_world.items(cogs.url, ROOT, args.zones)
        base = {"area": odc_world.area_lonlat(), "threads": THREADS, "excluded": list(odc_world.EXCLUDED),
                "scale": odc_world.SCALE, "offset": odc_world.OFFSET, "out": str(ROOT / "out")}
        for exact, dates, title in ((False, odc_world.DATES, "overviews (the plugin's default)"),
                                    (True, FULL_RES_DATES, "full resolution (exact=true), one month")):
            if args.only and args.only != ("full" if exact else "overviews"):
                continue
            chosen = [i for i in items if i["properties"]["datetime"][:10] in dates]
            job = {**base, "items": chosen, "exact": exact}
            ours = [run("product", job, cogs) for _ in range(args.repeat)]
            crs = ours[0]["grid_crs"]  # every tool gets the plugin's grid: its CRS, resolution and cells
            ring = area_in(crs)
            xs, ys = zip(*ring)
            job["crs"], job["area_crs"] = crs, ring
            # "overviews at 160 m pixels (…)" or "full resolution (10 m pixels)"
            resolution = float(re.search(r"(?:at |\()([\d.]+) m", ours[0]["resolution"]).group(1))
            step = resolution
            bounds = [min(xs) // step * step, min(ys) // step * step, -(-max(xs) // step) * step,
                      -(-max(ys) // step) * step]
            job = {**job, "resolution": resolution, "bounds": bounds}
            rows = [(f"this plugin, in-process ({THREADS} reads)", ours),
                    (f"odc-stac + dask, {THREADS} threads", [run("odc-stac", job, cogs) for _ in range(args.repeat)])]
            if not exact and not args.no_stackstac:
                rows.append((f"stackstac + dask, {THREADS} threads", [run("stackstac", job, cogs)]))
            if not exact and not args.no_dask:
                rows += dask_rows(job, cogs)
            table(f"{title}: {len(chosen)} items, {resolution:g} m grid", rows, truth, dates)
            print(f"  the plugin's own estimate of bytes read: {ours[0]['reported_bytes'] / 1e6:.1f} MB "
                  f"({100 * ours[0]['reported_bytes'] / ours[0]['served']:.0f} % of what the server sent); "
                  f"odc-stac's GDAL {rows[1][1][0]['gdal']}, the plugin's {gdal_version()}")
            ratio_t = min(r["seconds"] for r in rows[1][1]) / min(r["seconds"] for r in ours)
            ratio_b = rows[1][1][0]["served"] / max(1, ours[0]["served"])
            print(f"  odc-stac / plugin: time {ratio_t:.2f}×, bytes {ratio_b:.2f}× (above 1: the plugin leads)")
    finally:
        cogs.stop()


def area_in(crs: str) -> list[list[float]]:
    """The bench's polygon in `crs` ("EPSG:32632")."""
    from osgeo import osr

    src, dst = osr.SpatialReference(), osr.SpatialReference()
    src.ImportFromEPSG(odc_world.EPSG)
    dst.ImportFromEPSG(int(crs.split(":")[1]))
    for s in (src, dst):
        s.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    tr = osr.CoordinateTransformation(src, dst)
    return [list(tr.TransformPoint(x, y)[:2]) for x, y in odc_world.AREA_UTM]


def gdal_version() -> str:
    from osgeo import gdal

    return gdal.__version__


def dask_rows(job: dict, cogs) -> list[tuple[str, list[dict]]]:
    from testkit.servers.dask_processes import dask_cli, dask_processes

    dask = dask_cli()
    if dask is None:
        return []
    rows = []
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as folder, dask_processes(Path(folder), workers, dask) as address:
            rows.append((f"this plugin, Dask: {workers} worker process(es)",
                         [run("product", {**job, "scheduler": address}, cogs)]))
    return rows


if __name__ == "__main__":
    main()
