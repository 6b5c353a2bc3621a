"""The legend of a page as a client reads it: each layer's name once (with its unit when it has one), its
classes or its colour ramp with rounded labels, and nothing of QGIS's inner words ("Band 1: … (Gray)"). Made to
fit its space: long names wrapped to its width, then more columns, then smaller text; never off the page."""

from __future__ import annotations

import textwrap
from typing import Any

from qgis.core import (
    QgsLayoutExporter,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsMapLayer,
    QgsMapLayerLegendUtils,
    QgsPrintLayout,
    QgsRasterLayer,
)

from ..project_access import layer_abstract
from .page_parts import place, plain


def add_legend(layout: QgsPrintLayout, main: QgsLayoutItemMap, layers: list[QgsMapLayer],
               space: tuple[float, ...], units: dict[str, str]) -> tuple[QgsLayoutItemLegend, str]:
    """A legend of exactly these layers in `space`; `units` by layer id ("m") go into the layer's title.
    Returns the legend and, when it had to be made smaller, how."""
    legend = QgsLayoutItemLegend(layout)
    legend.setTitle("Legend")
    legend.setLinkedMap(main)
    legend.setAutoUpdateModel(False)
    legend.model().setLayerStyleOverrides(main.layerStyleOverrides())  # the outlines the page draws, not the canvas's fills
    root = legend.model().rootGroup()
    root.clear()
    texts = []  # per layer: its node, its title and its entries' own texts, before any wrapping
    for layer in layers:
        node = root.addLayer(layer)
        shown = _without_band_header(legend, node, layer)
        entries = [str(legend.model().layerLegendNodes(node)[i].data(0) or "") for i in shown]
        texts.append((node, layer_title(layer, units.get(layer.id(), "")), shown, entries))
    layout.addLayoutItem(legend)
    place(legend, *space)
    legend.setResizeToContents(True)
    fitted, base = "", _text_sizes(legend)
    for scale, columns in ((s, c) for s in (1.0, 0.9, 0.8, 0.7, 0.6) for c in (1, 2, 3)):
        legend.setColumnCount(columns)  # more columns for a tall legend; smaller text for a wide one
        _set_text_sizes(legend, base, scale)
        width = (space[2] / columns - 12) / (0.19 * base["SymbolLabel"] * scale)  # characters a line holds
        for node, title, shown, entries in texts:
            _set_texts(legend, node, title, shown, entries, max(12, int(width)))
        legend.refresh()
        _paint_once(layout, space)  # a legend knows its size only once painted (QgsLayoutItemLegend::adjustBoxSize)
        legend.adjustBoxSize()
        size = legend.sizeWithUnits()
        if size.width() <= space[2] and size.height() <= space[3]:
            if (columns, scale) != (1, 1.0):
                fitted = f"legend in {columns} column(s)" + (f", text at {scale:.0%}" if scale != 1.0 else "")
            break
    size = legend.sizeWithUnits()
    if size.width() > space[2] or size.height() > space[3]:
        legend.setColumnCount(1)
        legend.setResizeToContents(False)  # the last resort: clipped inside its frame, never off the page
        place(legend, space[0], space[1], min(size.width(), space[2]), min(size.height(), space[3]))
        fitted = "legend cut to its space: too many entries; name fewer layers"
    return legend, fitted


def layer_title(layer: QgsMapLayer, unit: str) -> str:
    """The layer's name once, its formula when the name does not say it, and its unit: "DEM (m)"."""
    name = layer.name()
    formula = formula_of(layer)
    parts = [name]
    if formula and formula.split("=", 1)[-1].strip() not in name:
        parts.append(f"({formula})")
    if unit and f"({unit})" not in name and not _ramp_says(layer, unit):
        parts.append(f"({unit})")
    return " ".join(parts)


def _ramp_says(layer: QgsMapLayer, unit: str) -> bool:
    """True when the layer's colour ramp labels already end in the unit ("160 m")."""
    renderer = layer.renderer() if isinstance(layer, QgsRasterLayer) else None
    shader = renderer.shader() if renderer is not None and hasattr(renderer, "shader") else None
    function = shader.rasterShaderFunction() if shader is not None else None
    settings = function.legendSettings() if function is not None and hasattr(function, "legendSettings") else None
    return settings is not None and settings.suffix().strip() == unit


def _without_band_header(legend: QgsLayoutItemLegend, node: Any, layer: QgsMapLayer) -> list[int]:
    """The legend entries shown for a layer: a raster's colour ramp without QGIS's header line "Band 1: <band
    description> (Gray)", which repeats the layer's own name in the words of the data file."""
    nodes = legend.model().layerLegendNodes(node)
    order = list(range(len(nodes)))
    if isinstance(layer, QgsRasterLayer) and len(nodes) > 1 and type(nodes[0]).__name__ == "QgsSimpleLegendNode":
        order = order[1:]
        QgsMapLayerLegendUtils.setLegendNodeOrder(node, order)
        legend.model().refreshLayerLegend(node)
    return list(range(len(order)))


def _set_texts(legend: QgsLayoutItemLegend, node: Any, title: str, shown: list[int], entries: list[str],
               width: int) -> None:
    """A layer's title and entries (class names) wrapped at `width` characters and made inert."""
    node.setCustomProperty("legend/title-label", _wrapped(plain(title), width))
    for index, text in zip(shown, entries):
        wrapped = _wrapped(plain(text), width)
        if text and wrapped != text:
            QgsMapLayerLegendUtils.setLegendNodeUserLabel(node, index, wrapped)
    legend.model().refreshLayerLegend(node)


def _wrapped(text: str, width: int) -> str:
    """Lines of at most `width` characters, broken at spaces (a legend breaks a line at "\n")."""
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def _paint_once(layout: QgsPrintLayout, region: tuple[float, ...]) -> None:
    """Paints one small image of `region` (no map item lies there yet), so the legend measures itself."""
    from qgis.PyQt.QtCore import QRectF, QSize

    QgsLayoutExporter(layout).renderRegionToImage(QRectF(*region), QSize(), 30)


_LEGEND_PARTS = ("Title", "Group", "Subgroup", "SymbolLabel")


def _text_sizes(legend: QgsLayoutItemLegend) -> dict[str, float]:
    from qgis.core import QgsLegendStyle

    sizes = {}
    for part in _LEGEND_PARTS:
        style = legend.style(getattr(QgsLegendStyle, part))
        # QGIS 3.30+ keeps the size in the style's text format; its font() is deprecated and may not carry it
        size = style.textFormat().size() if hasattr(style, "textFormat") else style.font().pointSizeF()
        sizes[part] = size if size > 0 else 10.0
    return sizes


def _set_text_sizes(legend: QgsLayoutItemLegend, base: dict[str, float], scale: float) -> None:
    from qgis.core import QgsLegendStyle

    for part in _LEGEND_PARTS:
        style = legend.style(getattr(QgsLegendStyle, part))
        if hasattr(style, "textFormat"):
            text_format = style.textFormat()
            text_format.setSize(max(5.0, base[part] * scale))
            style.setTextFormat(text_format)
        else:
            font = style.font()
            font.setPointSizeF(max(5.0, base[part] * scale))
            style.setFont(font)
        legend.setStyle(getattr(QgsLegendStyle, part), style)


def formula_of(layer: QgsMapLayer) -> str:
    """An index layer's formula, as compute_index wrote it into the layer's abstract ("NDVI = …. Items: …")."""
    abstract = layer_abstract(layer)
    head = abstract.split(". Items:", 1)[0]
    return head if "=" in head and len(head) < 80 else ""
