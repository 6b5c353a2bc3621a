"""What an analyst would run instead of collection_statistics, as `bench_vs_odc_stac.py` times it: odc-stac (or
stackstac) loading the items over the area with dask, the SCL classes masked, the mean NDVI per date.

Runs in its own virtual environment (odc-stac, stackstac, rasterio with its own GDAL), never with the plugin:
`python odc_runner.py JOB.json` prints one JSON line {"seconds", "dates": {date: [sum, count]}, "version"}. The job names the tool, the
items (STAC 1.0 dicts), the area (GeoJSON in lon/lat), the output CRS, resolution and bounds, and the threads.
"""

from __future__ import annotations

import json
import sys
import time


def _masked_sums(red, nir, scl, excluded, scale, offset):
    """Per date, the sum and the count of the valid NDVI cells."""
    red, nir = red.astype("float32"), nir.astype("float32")
    has = (red != 0) & (nir != 0)
    red, nir = red * scale + offset, nir * scale + offset
    ndvi = (nir - red) / (nir + red)
    ndvi = ndvi.where(has & ~scl.isin(list(excluded)))
    return ndvi.sum(dim=("x", "y")), ndvi.count(dim=("x", "y"))


def _per_date(sums, counts) -> dict[str, list[float]]:
    import dask

    sums, counts = dask.compute(sums, counts)
    return {str(t)[:10]: [float(s), int(c)] for t, s, c in zip(sums.time.values, sums.values, counts.values)}


def _inside(array, job):
    """True on the pixels whose centre lies in the area (as collection_statistics counts them)."""
    import xarray as xr
    from rasterio.features import geometry_mask
    from rasterio.transform import from_origin

    xs, ys = array.x.values, array.y.values
    res = float(xs[1] - xs[0])
    transform = from_origin(float(xs[0]) - res / 2, float(ys[0]) + res / 2, res, res)
    outside = geometry_mask([{"type": "Polygon", "coordinates": [job["area_crs"]]}], out_shape=(len(ys), len(xs)),
                            transform=transform)
    return xr.DataArray(~outside, coords={"y": ys, "x": xs}, dims=("y", "x"))


def run_odc(job: dict):
    import odc.stac
    import pystac
    from odc.geo.geom import Geometry

    items = [pystac.Item.from_dict(i) for i in job["items"]]
    area = Geometry(job["area"], crs="EPSG:4326")
    data = odc.stac.load(items, bands=["red", "nir", "scl"], crs=job["crs"], resolution=job["resolution"],
                         geopolygon=area, groupby="solar_day", chunks={"x": 2048, "y": 2048},
                         resampling={"red": "average", "nir": "average", "scl": "nearest"})
    inside = _inside(data.red, job)
    return _per_date(*_masked_sums(data.red.where(inside, 0), data.nir.where(inside, 0), data.scl,
                                   job["excluded"], job["scale"], job["offset"]))


def run_stackstac(job: dict):
    import stackstac
    from rasterio.enums import Resampling

    def stack(assets, resampling):
        return stackstac.stack(job["items"], assets=assets, epsg=int(job["crs"].split(":")[1]),
                               resolution=job["resolution"], bounds=tuple(job["bounds"]), resampling=resampling,
                               chunksize=2048, rescale=False, fill_value=float("nan"), dtype="float64")

    bands, scl = stack(["red", "nir"], Resampling.average), stack(["scl"], Resampling.nearest)
    bands = bands.groupby("time").map(stackstac.mosaic)  # per date, the first tile with data wins
    scl = scl.groupby("time").map(stackstac.mosaic)
    inside = _inside(bands, job)
    return _per_date(*_masked_sums(bands.sel(band="red").where(inside, 0), bands.sel(band="nir").where(inside, 0),
                                   scl.sel(band="scl"), job["excluded"], job["scale"], job["offset"]))


def main() -> None:
    from importlib.metadata import version

    import dask
    import odc.stac  # noqa: F401 - imported before the clock starts, as the plugin's are
    import rasterio
    import stackstac  # noqa: F401
    import xarray  # noqa: F401
    from rasterio.features import geometry_mask  # noqa: F401

    job = json.loads(open(sys.argv[1]).read())
    started = time.perf_counter()
    with dask.config.set(scheduler="threads", num_workers=job["threads"]):
        dates = run_odc(job) if job["tool"] == "odc-stac" else run_stackstac(job)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "dates": dates,
                      "version": f"{job['tool']} {version(job['tool'])}, GDAL {rasterio.__gdal_version__}"}))


if __name__ == "__main__":
    main()
