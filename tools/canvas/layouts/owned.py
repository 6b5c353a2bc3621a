"""Whose print layout is it: a layout the assistant made carries a mark, so asking again with the same name
changes that layout; a layout of that name the analyst made (or one from before the mark existed) is theirs,
and replacing it asks first (the assessor below) and can be undone (the undo history keeps it as it was)."""

from __future__ import annotations

from typing import Any

from qgis.core import QgsLayoutItemPage, QgsPrintLayout

from ....agent.safety import Assessment

MADE_BY = "stacgis_agent/made_by"  # a layout's custom property: set on the layouts the assistant composed
ASSISTANT = "STAC GIS Agent"


def layout_name(arguments: dict[str, Any], default: str) -> str:
    """The layout a make_print_layout / make_atlas call names: `name`, else its title, as the tools clean it."""
    return " ".join(str(arguments.get("name") or arguments.get("title") or "").split())[:120] or default


def made_by_assistant(layout: Any) -> bool:
    return str(layout.customProperty(MADE_BY, "")) == ASSISTANT


def replacement(project: Any, name: str) -> Assessment:
    """What composing the layout `name` would do to a layout that already has that name."""
    layout = project.layoutManager().layoutByName(name)
    if layout is None or made_by_assistant(layout):
        return Assessment(False)
    items = sum(1 for item in layout.items() if hasattr(item, "uuid") and not isinstance(item, QgsLayoutItemPage))
    return Assessment(True, (f"empties your print layout '{name}' ({items} item{'s' if items != 1 else ''}; the "
                             "assistant did not make it) and composes a new page in it",),
                      undoable=True, action=f"Replace your print layout '{name}'")


def fresh_layout(project: Any, name: str, history: Any) -> tuple[QgsPrintLayout, bool]:
    """The project's layout of that name emptied (the same object, so an open designer follows), or a new one;
    either way marked as the assistant's, and kept as it was by the undo history first."""
    history.layout_changing()
    manager = project.layoutManager()
    layout = manager.layoutByName(name)
    if layout is not None:
        layout.atlas().setEnabled(False)  # make_atlas turns it on again for an atlas
        for item in list(layout.items()):
            if isinstance(item, QgsLayoutItemPage) or not hasattr(item, "uuid"):
                continue
            layout.removeLayoutItem(item)
        layout.setCustomProperty(MADE_BY, ASSISTANT)
        return layout, True
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    layout.setName(name)
    layout.setCustomProperty(MADE_BY, ASSISTANT)
    manager.addLayout(layout)
    return layout, False
