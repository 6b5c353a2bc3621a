"""What the analyst sees in QGIS after a turn, read from the real objects: chat bubbles, activity feed,
layer tree, canvas, and the conversation as saved by the session store."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsLayerTreeGroup,
    QgsLayerTreeLayer,
    QgsProject,
    QgsRectangle,
)

from .plugin_driver import run_coroutine


def chat(plugin) -> list[tuple[str, str]]:
    return [(b.role, b.text()) for b in plugin.runtime.panel.conversation.bubbles()]


def feed(plugin) -> list[str]:
    return plugin.runtime.panel.feed.entries()


def status_lines(plugin) -> list[str]:
    """Notes and errors shown in the conversation between bubbles (plain labels)."""
    from qgis.PyQt.QtWidgets import QLabel

    return [w.text() for w in plugin.runtime.panel.conversation.items() if type(w) is QLabel]


def dock_status(plugin) -> str:
    return plugin.dock.status.text()


def layer_tree() -> dict[str, list[str]]:
    """Group name ('' for the root) → layer names in it, top first."""
    out: dict[str, list[str]] = {}

    def walk(node, group: str) -> None:
        for child in node.children():
            if isinstance(child, QgsLayerTreeGroup):
                out.setdefault(child.name(), [])
                walk(child, child.name())
            elif isinstance(child, QgsLayerTreeLayer):
                out.setdefault(group, []).append(child.name())

    walk(QgsProject.instance().layerTreeRoot(), "")
    return out


def layers_named(name: str) -> list:
    return QgsProject.instance().mapLayersByName(name)


def show_lonlat(iface, bbox: list[float]) -> QgsRectangle:
    canvas = iface.mapCanvas()
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    canvas.setExtent(QgsRectangle(*bbox))
    canvas.refresh()
    return canvas.extent()


def saved_sessions(plugin):
    store = plugin.runtime.stores.sessions
    return run_coroutine(store.list(plugin.runtime.settings.user))


def saved_events(plugin, session_id: str | None = None) -> list[dict]:
    store = plugin.runtime.stores.sessions
    sid = session_id or plugin.runtime.session.session_id
    return run_coroutine(store.history(sid)).events
