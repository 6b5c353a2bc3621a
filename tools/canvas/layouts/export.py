"""Print layouts written to files: PDF, PNG or SVG into the plugin's output folder, and the small first-page
picture the chat shows.

- Never over a file: QGIS writes a layout of several pages as `<stem>.png`, `<stem>_2.png`, … (the same for
  SVG), so every path the writer will produce is reserved (created empty, exclusively) before it writes.
- Bounded: pages × resolution past a budget asks first (the tool's assessor); one export runs at a time.
- Stoppable and live: an atlas is written page by page, handing the GUI thread back to QGIS between pages (QGIS
  renders a layout only on its main thread, where its map items read the project's layers, as QGIS's own export
  does), so one page is the longest pause and a Stop (the dock's, or an outside client's cancel) ends it there,
  leaving no half-written file.
- Each atlas page's scale bar is refitted to that page's scale, in metres or kilometres."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any, Callable

from mcp_types import CallToolResult
from qgis.core import Qgis, QgsLayoutExporter, QgsLayoutItemScaleBar, QgsPrintLayout

from ....agent.safety import Assessment
from ...common import ToolInputError, ok
from ...output_names import RESERVED_NAMES
from .atlas import PIXEL_BUDGET, pixels_of, round_scales
from .page import fit_units

_UNSAFE = re.compile(r"[^\w.\- ]+")
BREATH_S = 0.01  # a pause between atlas pages long enough for every due timer and callback of the loop
_running: dict[str, str] = {}  # the export under way (at most one): its layout and how far it got


def _stem_of(wanted: str, suffix: str) -> str:
    stem = _UNSAFE.sub("_", Path(str(wanted).replace("\\", "/")).name).strip(" ._") or "layout"
    stem = stem[:100]
    if suffix and stem.lower().endswith(suffix):
        stem = stem[: -len(suffix)]
    if stem.lower() in RESERVED_NAMES:  # NUL, CON…: names Windows refuses, as the tools' other outputs
        stem = f"_{stem}"
    return stem


def reserve_paths(folder: Path, wanted: str, suffix: str, pages: int = 1) -> list[Path]:
    """The files a writer of `pages` pages will produce (`<stem><suffix>`, then `<stem>_2<suffix>`, … as QGIS
    names them), each created empty and exclusively now: none existed, and no other writer can take them."""
    stem = _stem_of(wanted, suffix)
    folder.mkdir(parents=True, exist_ok=True)
    real_folder = folder.resolve()
    for n in range(1, 1000):
        base = stem if n == 1 else f"{stem} ({n})"
        paths = [folder / (f"{base}{suffix}" if page == 0 else f"{base}_{page + 1}{suffix}") for page in range(pages)]
        if any(p.resolve().parent != real_folder for p in paths):
            raise ToolInputError("The file name must be a plain name inside the plugin's output folder.")
        made: list[Path] = []
        try:
            for path in paths:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                made.append(path)
            return paths
        except FileExistsError:
            for path in made:
                path.unlink(missing_ok=True)
    raise ToolInputError(f"Could not find a free file name for '{stem}' in the output folder; clear it and retry.")


def new_output_path(folder: Path, wanted: str, suffix: str) -> Path:
    """One new file in the output folder: one safe name component, the suffix forced, never an existing file."""
    return reserve_paths(folder, wanted, suffix)[0]


def new_output_folder(folder: Path, wanted: str) -> Path:
    """A new folder in the output folder (`<name>`, else `<name> (2)`, …), created here: never an existing one."""
    stem = _stem_of(wanted, "")
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        target = folder / (stem if n == 1 else f"{stem} ({n})")
        if target.resolve().parent != folder.resolve():
            raise ToolInputError("The folder name must be a plain name inside the plugin's output folder.")
        try:
            target.mkdir()
            return target
        except FileExistsError:
            continue
    raise ToolInputError(f"Could not find a free folder name for '{stem}' in the output folder; clear it and retry.")


def page_count(layout: QgsPrintLayout) -> int:
    if layout.atlas().enabled():
        layout.atlas().updateFeatures()
        return layout.atlas().count()
    return layout.pageCollection().pageCount()


def export_assessment(layout: QgsPrintLayout, fmt: str, dpi: int) -> Assessment:
    """An export past the pixel budget asks first: it holds QGIS's drawing for as long as it takes."""
    pages = page_count(layout)
    pixels = pixels_of(layout, pages, dpi)
    if pixels <= PIXEL_BUDGET:
        return Assessment(False)
    return Assessment(True, (f"draws {pages} page(s) of '{layout.name()}' at {dpi} dpi, about {pixels / 1e9:.1f} "
                             f"billion pixels (the budget without asking is {PIXEL_BUDGET / 1e9:.1f}); QGIS draws "
                             "one page at a time, stays usable in between, and the export can be stopped",),
                      undoable=False, action=f"Export {pages} pages of '{layout.name()}' as {fmt.upper()} at {dpi} dpi")


async def export_layout(deps: Any, layout: QgsPrintLayout, fmt: str, dpi: int, file_name: str | None,
                        progress: Callable[[int, int], Any] | None = None) -> CallToolResult:
    """export_print_layout: the files, reserved first; one export at a time."""
    if _running:
        [(name, where)] = _running.items()
        raise ToolInputError(f"Another export is running ('{name}', {where}); wait for it to finish or stop it.")
    atlas = layout.atlas().enabled()
    if atlas and fmt != "pdf":
        raise ToolInputError("An atlas is exported as one PDF (a page per feature); use format 'pdf'.")
    pages = 1 if atlas or fmt == "pdf" else layout.pageCollection().pageCount()
    targets = reserve_paths(deps.output_dir(), file_name or layout.name(), "." + fmt, pages)
    _running[layout.name()] = "starting"
    try:
        if atlas:
            await export_atlas_pdf(layout, targets[0], dpi, progress)
        else:
            _export_pages(layout, targets, fmt, dpi)
        thumbnail = thumbnail_of(layout, new_output_path(deps.output_dir(), f"{targets[0].stem} page 1", ".png"))
    except BaseException:
        for target in targets:  # reserved and not (fully) written: nothing half-done stays
            target.unlink(missing_ok=True)
        raise
    finally:
        _running.clear()
    written = [t for t in targets if t.exists() and t.stat().st_size > 0]
    for empty in set(targets) - set(written):  # pages QGIS chose not to write (empty pages)
        empty.unlink(missing_ok=True)
    target = targets[0]
    return ok({"layout": layout.name(), "path": str(target), "format": fmt, "dpi": dpi,
               "bytes": target.stat().st_size, "thumbnail_file": str(thumbnail),
               **({"files": [str(t) for t in written]} if len(written) > 1 else {})},
              f"Exported '{layout.name()}' to {target} ({fmt.upper()}, {dpi} dpi"
              + (f", {len(written)} files: one per page" if len(written) > 1 else "") + ").")


def thumbnail_of(layout: QgsPrintLayout, target: Path, dpi: int = 30) -> Path:
    """A small picture of the first page, for the chat (an atlas shows its first feature's page)."""
    from qgis.PyQt.QtCore import QSize

    if layout.atlas().enabled():
        round_scales(layout)
        layout.atlas().beginRender()
        layout.atlas().first()
        _refit_scale_bars(layout)
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


def _export_pages(layout: QgsPrintLayout, targets: list[Path], fmt: str, dpi: int) -> None:
    exporter = QgsLayoutExporter(layout)
    target = str(targets[0])
    if fmt == "pdf":
        settings = _as_text(QgsLayoutExporter.PdfExportSettings())
        settings.dpi = dpi
        result = exporter.exportToPdf(target, settings)
    elif fmt == "svg":
        settings = _as_text(QgsLayoutExporter.SvgExportSettings())
        settings.dpi = dpi
        result = exporter.exportToSvg(target, settings)
    else:
        settings = QgsLayoutExporter.ImageExportSettings()
        settings.dpi = dpi
        result = exporter.exportToImage(target, settings)
    if result != QgsLayoutExporter.Success or not targets[0].exists() or targets[0].stat().st_size == 0:
        raise ToolInputError(f"QGIS could not export the layout ({exporter.errorMessage() or result}); "
                             "check the output folder's free space and permissions.")


async def export_atlas_pdf(layout: QgsPrintLayout, target: Path, dpi: int,
                           progress: Callable[[int, int], Any] | None = None) -> int:
    """One PDF page per atlas feature, drawn by QGIS's own page renderer with text kept as text, giving the
    event loop back between pages (the chat, the canvas and the Stop button stay live); returns the pages."""
    from qgis.core import QgsLayoutRenderContext
    from qgis.PyQt.QtCore import QMarginsF, QSizeF
    from qgis.PyQt.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    atlas = layout.atlas()
    round_scales(layout)
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
            _refit_scale_bars(layout)
            if painter is None:
                painter = QPainter(writer)
            else:
                writer.newPage()
            QgsLayoutExporter(layout).renderPage(painter, 0)
            _running[layout.name()] = f"page {number + 1} of {atlas.count()}"
            if progress is not None:
                await progress(number + 1, atlas.count())
            await asyncio.sleep(BREATH_S)  # the GUI thread's turn between two pages: its timers, events, a Stop
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


def _refit_scale_bars(layout: QgsPrintLayout) -> None:
    """Each scale bar of a page the assistant made in this page's unit (metres for a parcel, kilometres for a
    commune), its segments refitted; an analyst's own layout keeps the scale bars they set."""
    from .owned import made_by_assistant

    if not made_by_assistant(layout):
        return
    for item in layout.items():
        if isinstance(item, QgsLayoutItemScaleBar) and item.style() != "Numeric" and item.linkedMap() is not None:
            fit_units(item)


def _always_text() -> Any:
    from qgis.core import QgsRenderContext

    return getattr(getattr(Qgis, "TextRenderFormat", None), "AlwaysText", None) \
        or QgsRenderContext.TextFormatAlwaysText
