"""lazycogs 0.7 (async-geotiff + obstore, no GDAL) doing what `bench_vs_odc_stac.py` asks of every tool: the items
of each date mosaicked onto the given grid (its own nearest resampling from the overview at least as fine as the
grid, the first item with data wins per band), then what lazycogs leaves to its user: scale/offset, nodata, the
SCL classes masked, the area's polygon; per date the sum and count of valid NDVI cells.

Runs in its own virtual environment (Python >= 3.12: lazycogs, obstore, async-geotiff), never with the plugin:
`python lazycogs_runner.py JOB.json` prints one JSON line {"seconds", "dates": {date: [sum, count]}, "version"}.
The items are passed directly to lazycogs' chunk reader: its `open()` searches a geoparquet file through
DuckDB's spatial extension, which DuckDB downloads at run time (not reachable here). Its `store_for` does not
accept an http address: the reads go through an obstore HTTPStore on the COG server.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from importlib.metadata import version
from urllib.parse import urlparse


def _inside(job: dict, width: int, height: int, res: float, minx: float, maxy: float):
    """True on the cells whose centre lies in the area (as collection_statistics counts them)."""
    import numpy as np
    from matplotlib.path import Path

    xs = minx + (np.arange(width) + 0.5) * res
    ys = maxy - (np.arange(height) + 0.5) * res
    gx, gy = np.meshgrid(xs, ys)
    return Path(job["area_crs"]).contains_points(np.column_stack([gx.ravel(), gy.ravel()])).reshape(height, width)


async def run(job: dict) -> dict[str, list[float]]:
    import numpy as np
    from affine import Affine
    from lazycogs import read_chunk_async
    from obstore.store import HTTPStore
    from pyproj import CRS

    items = job["items"]
    base = items[0]["assets"]["red"]["href"]
    store = HTTPStore.from_url(f"{urlparse(base).scheme}://{urlparse(base).netloc}", client_options={"allow_http": True})
    minx, miny, maxx, maxy = job["bounds"]
    res = job["resolution"]
    width, height = round((maxx - minx) / res), round((maxy - miny) / res)
    affine, crs = Affine(res, 0, minx, 0, -res, maxy), CRS.from_user_input(job["crs"])
    inside = _inside(job, width, height, res, minx, maxy)
    by_date: dict[str, list[dict]] = {}
    for item in items:
        by_date.setdefault(item["properties"]["datetime"][:10], []).append(item)

    async def one_date(date: str) -> tuple[str, list[float]]:
        bands = await read_chunk_async(by_date[date], ["red", "nir", "scl"], affine, crs, width, height,
                                       nodata=0, out_dtype=np.dtype("uint16"), dtype_was_explicit=True,
                                       nodata_was_explicit=True, store=store,
                                       path_fn=lambda href: urlparse(href).path.lstrip("/"))
        red, nir, scl = (bands[b][0].astype("float32") for b in ("red", "nir", "scl"))
        has = (red != 0) & (nir != 0) & inside & ~np.isin(scl, job["excluded"])
        red, nir = red * job["scale"] + job["offset"], nir * job["scale"] + job["offset"]
        ndvi = (nir - red) / (nir + red)
        valid = has & np.isfinite(ndvi)
        return date, [float(ndvi[valid].sum(dtype=np.float64)), int(valid.sum())]

    return dict(await asyncio.gather(*(one_date(d) for d in sorted(by_date))))


def main() -> None:
    import lazycogs  # noqa: F401 - imported before the clock starts, as the plugin's are
    import matplotlib.path  # noqa: F401
    import obstore  # noqa: F401

    job = json.loads(open(sys.argv[1]).read())
    started = time.perf_counter()
    dates = asyncio.run(run(job))
    print(json.dumps({"seconds": time.perf_counter() - started, "dates": dates,
                      "version": f"lazycogs {version('lazycogs')}"}))


if __name__ == "__main__":
    main()
