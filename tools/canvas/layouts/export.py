"""Print layouts written to files: PDF, PNG or SVG into the plugin's output folder (never over a file), and
the small first-page picture the chat shows. An atlas is written page by page, handing the GUI thread back
to QGIS between pages: QGIS renders a layout only on its main thread (its map items read the project's
layers there, as QGIS's own export does), so one page is the longest pause, not the whole atlas."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from qgis.core import Qgis, QgsLayoutExporter, QgsPrintLayout

from ...common import ToolInputError
from ...output_names import RESERVED_NAMES

_UNSAFE = re.compile(r"[^\w.\- ]+")
BREATH_S = 0.01  # a pause between atlas pages long enough for every due timer and callback of the loop


def new_output_path(folder: Path, wanted: str, suffix: str) -> Path:
    """A new file in the output folder: one safe name component, the suffix forced, never an existing file."""
    stem = _UNSAFE.sub("_", Path(str(wanted).replace("\\", "/")).name).strip(" ._") or "layout"
    stem = stem[:100]
    if suffix and stem.lower().endswith(suffix):
        stem = stem[: -len(suffix)]
    if stem.lower() in RESERVED_NAMES:  # NUL, CON…: names Windows refuses, as the tools' other outputs
        stem = f"_{stem}"
    folder.mkdir(parents=True, exist_ok=True)
    target, n = folder / f"{stem}{suffix}", 2
    while target.exists():
        target, n = folder / f"{stem} ({n}){suffix}", n + 1
    resolved = target.resolve()
    if resolved.parent != folder.resolve():
        raise ToolInputError("The file name must be a plain name inside the plugin's output folder.")
    return target


def thumbnail_of(layout: QgsPrintLayout, target: Path, dpi: int = 30) -> Path:
    """A small picture of the first page, for the chat (an atlas shows its first feature's page)."""
    from qgis.PyQt.QtCore import QSize

    if layout.atlas().enabled():
        layout.atlas().beginRender()
        layout.atlas().first()
    image = QgsLayoutExporter(layout).renderPageToImage(0, QSize(), dpi)
    if layout.atlas().enabled():
        layout.atlas().endRender()
    image.save(str(target), "PNG")
    return target


def _as_text(settings: Any) -> Any:
    """Text stays text in a PDF or SVG (searchable, selectable, read by screen readers): newer QGIS
    writes it as outlines by default."""
    settings.textRenderFormat = _always_text()
    return settings


async def export(layout: QgsPrintLayout, target: Path, fmt: str, dpi: int) -> None:
    exporter = QgsLayoutExporter(layout)
    if layout.atlas().enabled():
        if fmt != "pdf":
            raise ToolInputError("An atlas is exported as one PDF (a page per feature); use format 'pdf'.")
        await export_atlas_pdf(layout, target, dpi)
        return
    if fmt == "pdf":
        settings = _as_text(QgsLayoutExporter.PdfExportSettings())
        settings.dpi = dpi
        result = exporter.exportToPdf(str(target), settings)
    elif fmt == "svg":
        settings = _as_text(QgsLayoutExporter.SvgExportSettings())
        settings.dpi = dpi
        result = exporter.exportToSvg(str(target), settings)
    else:
        settings = QgsLayoutExporter.ImageExportSettings()
        settings.dpi = dpi
        result = exporter.exportToImage(str(target), settings)
    if result != QgsLayoutExporter.Success or not target.exists():
        raise ToolInputError(f"QGIS could not export the layout ({exporter.errorMessage() or result}); "
                             "check the output folder's free space and permissions.")


async def export_atlas_pdf(layout: QgsPrintLayout, target: Path, dpi: int) -> int:
    """One PDF page per atlas feature, drawn by QGIS's own page renderer with text kept as text, giving the
    event loop back between pages (the chat, the canvas and the Stop button stay live); returns the pages."""
    from qgis.core import QgsLayoutRenderContext
    from qgis.PyQt.QtCore import QMarginsF, QSizeF
    from qgis.PyQt.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    atlas = layout.atlas()
    if not atlas.beginRender() or atlas.count() == 0:
        raise ToolInputError("The atlas has no feature to print; check its layer and filter.")
    context = layout.renderContext()
    saved = (context.dpi(), context.textRenderFormat(), context.flags())
    painter, done = None, False
    try:
        context.setDpi(dpi)
        context.setTextRenderFormat(_always_text())
        context.setFlag(QgsLayoutRenderContext.FlagForceVectorOutput, False)
        page = layout.pageCollection().page(0)
        size = layout.convertToLayoutUnits(page.pageSize())
        writer = QPdfWriter(str(target))
        writer.setResolution(dpi)
        writer.setCreator("STAC GIS Agent (QGIS)")
        writer.setTitle(layout.name())
        writer.setPageLayout(QPageLayout(QPageSize(QSizeF(size.width(), size.height()), QPageSize.Unit.Millimeter),
                                         QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        for number in range(atlas.count()):
            if not atlas.seekTo(number):
                raise ToolInputError(f"QGIS could not prepare atlas page {number + 1}.")
            if painter is None:
                painter = QPainter(writer)
            else:
                writer.newPage()
            QgsLayoutExporter(layout).renderPage(painter, 0)
            await asyncio.sleep(BREATH_S)  # the GUI thread's turn between two pages: its timers and events
        done = True
        return atlas.count()
    finally:
        if painter is not None:
            painter.end()
        atlas.endRender()
        context.setDpi(saved[0])
        context.setTextRenderFormat(saved[1])
        context.setFlags(saved[2])
        if not done:  # no half-written atlas left in the outputs folder
            target.unlink(missing_ok=True)


def _always_text() -> Any:
    from qgis.core import QgsRenderContext

    return getattr(getattr(Qgis, "TextRenderFormat", None), "AlwaysText", None) \
        or QgsRenderContext.TextFormatAlwaysText
