"""Generates the offline demo STAC catalog shipped in resources/demo_catalog.

Three small collections around Lyon (UTM 31N, 30 m pixels, 200 × 200), each asset a COG:
an elevation model, an RGB scene at two dates (June and September 2025) and an NDVI index band
at the same dates, stored as int16 with STAC scale/offset and nodata. Deterministic: running it
again gives the same files. Usage: python scripts/make_demo_catalog.py [OUTPUT_DIR]
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
from osgeo import gdal, osr

EPSG = 32631
SIZE = 200
PIXEL = 30.0
ORIGIN = (639_700.0, 5_072_000.0)  # top-left, in EPSG:32631; Lyon's centre is inside
TRANSFORM = [PIXEL, 0.0, ORIGIN[0], 0.0, -PIXEL, ORIGIN[1]]
DATES = ("2025-06-15T10:30:00Z", "2025-09-15T10:30:00Z")
NDVI_SCALE, NDVI_NODATA = 0.0001, -32768
STAC_EXT = [
    "https://stac-extensions.github.io/projection/v1.1.0/schema.json",
    "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
    "https://stac-extensions.github.io/eo/v1.1.0/schema.json",
]


def _grid():
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype("float64") / SIZE
    return x, y


def elevation() -> np.ndarray:
    x, y = _grid()
    hills = 320 * np.exp(-((x - 0.25) ** 2 + (y - 0.3) ** 2) / 0.02) + 180 * np.exp(-((x - 0.7) ** 2 + (y - 0.65) ** 2) / 0.05)
    dem = 165 + 90 * y + hills + 6 * np.sin(x * 40) * np.cos(y * 33)
    dem[150:170, 20:45] = -9999  # a hole of nodata (lake mask)
    return dem.astype("float32")


def fields(season: int) -> tuple[np.ndarray, np.ndarray]:
    """RGB (uint8, 3 bands) and NDVI (float) for a pattern of parcels; September has a harvested block."""
    x, y = _grid()
    parcel = (np.floor(x * 8) + 3 * np.floor(y * 6)) % 5
    green = 0.25 + 0.12 * parcel
    if season == 1:
        green = green - 0.15
        green[60:120, 100:170] = 0.08  # harvested: the change the demo finds
    river = np.abs(y - 0.55 - 0.1 * np.sin(x * 9)) < 0.025
    ndvi = np.where(river, -0.3, green).clip(-1, 1)
    red = (120 - 110 * ndvi).clip(0, 255)
    grn = (100 + 90 * ndvi).clip(0, 255)
    blue = np.where(river, 150, 70 - 20 * ndvi).clip(0, 255)
    rgb = np.stack([red, grn, blue]).astype("uint8")
    return rgb, ndvi


def write_cog(path: Path, bands: np.ndarray, nodata=None, scale=None) -> None:
    bands = bands if bands.ndim == 3 else bands[None]
    dtype = {"float32": gdal.GDT_Float32, "uint8": gdal.GDT_Byte, "int16": gdal.GDT_Int16}[str(bands.dtype)]
    mem = gdal.GetDriverByName("MEM").Create("", SIZE, SIZE, bands.shape[0], dtype)
    mem.SetGeoTransform((ORIGIN[0], PIXEL, 0, ORIGIN[1], 0, -PIXEL))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(EPSG)
    mem.SetProjection(srs.ExportToWkt())
    for i, band in enumerate(bands, start=1):
        mem.GetRasterBand(i).WriteArray(band)
        if nodata is not None:
            mem.GetRasterBand(i).SetNoDataValue(nodata)
        if scale is not None:  # also in the file, so GDAL/QGIS read physical values without STAC
            mem.GetRasterBand(i).SetScale(scale)
            mem.GetRasterBand(i).SetOffset(0.0)
    gdal.GetDriverByName("COG").CreateCopy(str(path), mem, options=[
        "COMPRESS=DEFLATE", "BLOCKSIZE=128", "OVERVIEWS=AUTO", "OVERVIEW_RESAMPLING=AVERAGE"])


def _bbox_lonlat() -> list[float]:
    src = osr.SpatialReference()
    src.ImportFromEPSG(EPSG)
    dst = osr.SpatialReference()
    dst.ImportFromEPSG(4326)
    dst.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    src.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(src, dst)
    xmax, ymin = ORIGIN[0] + SIZE * PIXEL, ORIGIN[1] - SIZE * PIXEL
    corners = [ct.TransformPoint(x, y)[:2] for x in (ORIGIN[0], xmax) for y in (ymin, ORIGIN[1])]
    lons, lats = zip(*corners)
    return [round(min(lons), 6), round(min(lats), 6), round(max(lons), 6), round(max(lats), 6)]


def _stats(values: np.ndarray, nodata) -> dict:
    valid = values[values != nodata] if nodata is not None else values.ravel()
    return {"minimum": float(valid.min()), "maximum": float(valid.max()), "mean": float(valid.mean()),
            "stddev": float(valid.std())}


def _item(item_id: str, collection: str, when: str, assets: dict, bbox: list[float]) -> dict:
    w, s, e, n = bbox
    return {
        "type": "Feature", "stac_version": "1.0.0", "stac_extensions": STAC_EXT, "id": item_id,
        "collection": collection, "bbox": bbox,
        "geometry": {"type": "Polygon", "coordinates": [[[w, s], [e, s], [e, n], [w, n], [w, s]]]},
        "properties": {"datetime": when, "proj:epsg": EPSG, "proj:code": f"EPSG:{EPSG}",
                       "proj:shape": [SIZE, SIZE], "proj:transform": TRANSFORM, "platform": "demo"},
        "assets": assets,
        "links": [{"rel": "collection", "href": "../collection.json", "type": "application/json"},
                  {"rel": "parent", "href": "../collection.json", "type": "application/json"},
                  {"rel": "root", "href": "../../../catalog.json", "type": "application/json"}],
    }


def _collection(cid: str, title: str, description: str, keywords: list[str], bbox: list[float],
                interval: list, item_ids: list[str], item_assets: dict) -> dict:
    return {
        "type": "Collection", "stac_version": "1.0.0", "stac_extensions": STAC_EXT, "id": cid, "title": title,
        "description": description, "keywords": keywords, "license": "CC0-1.0",
        "extent": {"spatial": {"bbox": [bbox]}, "temporal": {"interval": [interval]}},
        "item_assets": item_assets,
        "links": [{"rel": "root", "href": "../../catalog.json", "type": "application/json"},
                  {"rel": "parent", "href": "../../catalog.json", "type": "application/json"}]
                 + [{"rel": "item", "href": f"./items/{i}.json", "type": "application/geo+json"} for i in item_ids],
    }


def build(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    bbox = _bbox_lonlat()
    cog = "image/tiff; application=geotiff; profile=cloud-optimized"
    specs = []  # (collection dict, [(item dict)])

    # Elevation
    coll_dir = out / "collections" / "demo-elevation"
    (coll_dir / "items").mkdir(parents=True)
    dem = elevation()
    write_cog(coll_dir / "items" / "demo-elevation-lyon.tif", dem, nodata=-9999)
    dem_band = {"name": "elevation", "nodata": -9999, "data_type": "float32", "unit": "m",
                "statistics": _stats(dem, -9999)}
    item = _item("demo-elevation-lyon", "demo-elevation", "2025-01-01T00:00:00Z", {
        "elevation": {"href": "./demo-elevation-lyon.tif", "type": cog, "title": "Elevation (m)",
                      "roles": ["data"], "raster:bands": [dem_band]}}, bbox)
    specs.append((_collection("demo-elevation", "Demo elevation around Lyon",
                              "A small synthetic digital elevation model (metres) around Lyon, France.",
                              ["elevation", "dem", "terrain", "lyon"], bbox,
                              ["2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z"], [item["id"]],
                              {"elevation": {"type": cog, "roles": ["data"], "raster:bands": [dem_band]}}),
                  coll_dir, [item]))

    # RGB scenes and NDVI at two dates
    rgb_dir = out / "collections" / "demo-rgb"
    ndvi_dir = out / "collections" / "demo-ndvi"
    (rgb_dir / "items").mkdir(parents=True)
    (ndvi_dir / "items").mkdir(parents=True)
    rgb_items, ndvi_items = [], []
    eo_bands = [{"name": "red", "common_name": "red"}, {"name": "green", "common_name": "green"},
                {"name": "blue", "common_name": "blue"}]
    for season, when in enumerate(DATES):
        day = when[:10]
        rgb, ndvi = fields(season)
        rid, nid = f"demo-rgb-{day}", f"demo-ndvi-{day}"
        write_cog(rgb_dir / "items" / f"{rid}.tif", rgb)
        raw = np.round(ndvi / NDVI_SCALE).astype("int16")
        raw[:12, :12] = NDVI_NODATA  # a corner without data
        write_cog(ndvi_dir / "items" / f"{nid}.tif", raw, nodata=NDVI_NODATA, scale=NDVI_SCALE)
        rgb_items.append(_item(rid, "demo-rgb", when, {
            "visual": {"href": f"./{rid}.tif", "type": cog, "title": "True colour", "roles": ["visual"],
                       "eo:bands": eo_bands}}, bbox))
        ndvi_band = {"name": "ndvi", "nodata": NDVI_NODATA, "data_type": "int16", "scale": NDVI_SCALE,
                     "offset": 0.0, "statistics": _stats(raw.astype("float64") * NDVI_SCALE, NDVI_NODATA * NDVI_SCALE)}
        ndvi_items.append(_item(nid, "demo-ndvi", when, {
            "ndvi": {"href": f"./{nid}.tif", "type": cog, "title": "NDVI", "roles": ["data"],
                     "raster:bands": [ndvi_band]}}, bbox))
    interval = [DATES[0], DATES[1]]
    specs.append((_collection("demo-rgb", "Demo RGB scenes over Lyon",
                              "True-colour scenes of fields and the river around Lyon in June and September 2025.",
                              ["rgb", "true colour", "optical", "imagery", "lyon"], bbox, interval,
                              [i["id"] for i in rgb_items],
                              {"visual": {"type": cog, "roles": ["visual"], "eo:bands": eo_bands}}),
                  rgb_dir, rgb_items))
    specs.append((_collection("demo-ndvi", "Demo NDVI index over Lyon",
                              "NDVI vegetation index (int16, scale 0.0001) at the same two dates as the RGB scenes.",
                              ["ndvi", "index", "vegetation", "lyon"], bbox, interval,
                              [i["id"] for i in ndvi_items],
                              {"ndvi": {"type": cog, "roles": ["data"],
                                        "raster:bands": [{"nodata": NDVI_NODATA, "scale": NDVI_SCALE,
                                                          "offset": 0.0, "data_type": "int16"}]}}),
                  ndvi_dir, ndvi_items))

    catalog = {"type": "Catalog", "stac_version": "1.0.0", "id": "stacgis-demo",
               "title": "STAC GIS Agent demo catalog",
               "description": "Tiny offline catalog shipped with the plugin: elevation, RGB at two dates, NDVI.",
               "links": [{"rel": "root", "href": "./catalog.json", "type": "application/json"}]
                        + [{"rel": "child", "href": f"./collections/{c['id']}/collection.json",
                            "type": "application/json"} for c, _, _ in specs]}
    _write_json(out / "catalog.json", catalog)
    for coll, folder, items in specs:
        _write_json(folder / "collection.json", coll)
        for item in items:
            _write_json(folder / "items" / f"{item['id']}.json", item)
    for aux in out.rglob("*.aux.xml"):
        aux.unlink()


def _write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    gdal.UseExceptions()
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "resources" / "demo_catalog"
    build(target)
    total = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    print(f"demo catalog written to {target} ({total / 1024:.0f} KiB)")
