"""add_result_layer: puts a raster a tool produced (detect_change's difference, a Processing
output) on the map, styled for what it is: a difference gets a diverging ramp centred on zero."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from osgeo import gdal
from pydantic import Field
from qgis.core import QgsRasterLayer

from ...common import WRITE, ToolInputError, ok, policy
from ...declare import deps_of, tool
from ...deps import ToolDeps
from ...engine.gdal_names import GdalName, dataset, own_file
from ..project_access import add_to_project
from .raster_styles import pseudocolor

SAMPLE_PIXELS = 512 * 512  # percentiles from an overview-sized read


@tool(annotations=WRITE, meta=policy(requires=["qgis"]))
async def add_result_layer(
    ctx: Context,
    path: Annotated[str, Field(description="A raster file a tool returned (e.g. detect_change's difference_file)")],
    name: Annotated[str, Field(description="Layer name; default the file name")] = "",
    style: Annotated[Literal["auto", "difference", "continuous"], Field(
        description="'difference' = diverging ramp centred on 0 (blue loss, red gain); 'continuous' = 2–98 % "
                    "viridis; 'auto' picks 'difference' for change rasters")] = "auto",
) -> CallToolResult:
    """Add a raster file produced by a tool in this session (a difference map, a Processing output) to the map, with a fitting colour ramp."""
    deps = deps_of(ctx)
    file = _inside_outputs(deps, path)
    if style == "auto":
        style = "difference" if file.name.startswith("change-") else "continuous"
    checked = own_file(file, deps.output_dir())
    low, high = await asyncio.to_thread(_percentiles, checked)
    layer = QgsRasterLayer(dataset(checked), name or file.stem, "gdal")
    if not layer.isValid():
        raise ToolInputError(f"QGIS cannot open {file.name} as a raster; nothing was added to the map.")
    if style == "difference":
        bound = max(abs(low), abs(high)) or 1.0
        pseudocolor(layer, 1, -bound, bound, "RdBu", invert=True)
    else:
        pseudocolor(layer, 1, low, high, "Viridis")
    add_to_project(deps, [layer])
    return ok({"layer": layer.name(), "style": style, "min": low, "max": high},
              f"Added '{layer.name()}' with a {style} ramp ({low:.4g} to {high:.4g})")


def _inside_outputs(deps: ToolDeps, path: str) -> Path:
    # Only files the tools themselves wrote: the model must not open arbitrary files on disk.
    outputs = deps.output_dir().resolve()
    file = Path(path)
    file = (outputs / file if not file.is_absolute() else file).resolve()
    if outputs not in file.parents:
        raise ToolInputError(f"add_result_layer only adds files that tools wrote to {outputs}; for catalog data "
                             "use load_stac_asset or load_stac_items.")
    if not file.is_file():
        raise ToolInputError(f"{file.name} does not exist in the tools' output folder; run the tool that makes it first.")
    return file


def _percentiles(path: GdalName) -> tuple[float, float]:
    raster = gdal.Open(dataset(path))
    band = raster.GetRasterBand(1)
    scale = max(1.0, (raster.RasterXSize * raster.RasterYSize / SAMPLE_PIXELS) ** 0.5)
    data: Any = band.ReadAsArray(buf_xsize=max(1, int(raster.RasterXSize / scale)),
                                 buf_ysize=max(1, int(raster.RasterYSize / scale))).astype("float64")
    nodata = band.GetNoDataValue()
    valid = data[np.isfinite(data) & ((data != nodata) if nodata is not None else True)]
    if valid.size == 0:
        raise ToolInputError("The raster has no valid pixels; nothing was added to the map.")
    low, high = np.percentile(valid, [2, 98])
    return float(low), float(high)
