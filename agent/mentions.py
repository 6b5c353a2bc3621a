"""@-mentions in a message: the analyst names a layer (`@parcels`, `@"Routes d'été"`), the selection
(`@selection`) or the view (`@view`), and what was named goes to the model as structured context with the
message, exact names and ids, so a small model does not have to guess which layer "the roads" is.

A name of letters, digits, `_`, `-` and `.` (any script) is written bare; any other (spaces, quotes, brackets) is
quoted, `"` and `\\` escaped with a backslash. Only the project's own layer names count: an unknown name (an e-mail
address, a typo) stays text. `@selection` and `@view` are words of their own; a layer that happens to be called
"view" is named `@"view"`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Iterable

from .map_context import MapContext

SELECTION, VIEW = "selection", "view"
WORDS = (SELECTION, VIEW)
_BARE = re.compile(r"[\w.\-]+")
# an @ at the start or after a space or an opening bracket (not inside "me@example.org"), then a name
_MENTION = re.compile(r'(?:(?<=^)|(?<=[\s(\[{,;:]))@(?:"((?:[^"\\]|\\.)*)"|([\w.\-]+))')


@dataclass(frozen=True)
class Mentions:
    layers: tuple[str, ...] = ()  # the project's layer names, as the project spells them, in the order named
    selection: bool = False
    view: bool = False

    def __bool__(self) -> bool:
        return bool(self.layers or self.selection or self.view)


def mention_text(name: str) -> str:
    """How a layer is written after the @ so that find_mentions reads it back whole (a layer called "view" quoted)."""
    if _BARE.fullmatch(name) and not name.endswith((".", "-")) and name.lower() not in WORDS:
        return "@" + name
    return '@"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def find_mentions(text: str, layer_names: Iterable[str]) -> Mentions:
    """What `text` names with @, among the project's `layer_names` (exact first, then ignoring case)."""
    names = list(dict.fromkeys(layer_names))
    by_lower: dict[str, str] = {}
    for name in names:
        by_lower.setdefault(name.lower(), name)
    layers: list[str] = []
    selection = view = False
    for match in _MENTION.finditer(text):
        quoted, bare = match.group(1), match.group(2)
        if bare is not None:
            bare = bare.rstrip(".-")  # "see @roads." ends a sentence, not the name
            if bare.lower() == SELECTION:
                selection = True
                continue
            if bare.lower() == VIEW:
                view = True
                continue
        wanted = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else bare
        found = wanted if wanted in names else by_lower.get(wanted.lower())
        if found is not None and found not in layers:
            layers.append(found)
    return Mentions(tuple(layers), selection, view)


def with_mentions(context: MapContext | None, mentions: Mentions, include_map: bool) -> MapContext | None:
    """The context sent with a message: the whole map context (when the map chip is on) with what was mentioned
    marked, or only what was mentioned (chip off), or None when nothing is sent."""
    if context is None:
        return None
    marked = dataclasses.replace(context, mentioned=mentions.layers, mentioned_selection=mentions.selection,
                                 mentioned_view=mentions.view)
    if include_map:
        return marked
    if not mentions:
        return None
    return dataclasses.replace(
        marked, layers=tuple(layer for layer in context.layers if layer.name in mentions.layers),
        extent=context.extent if mentions.view else None, crs=context.crs if mentions.view else "",
        center_lonlat=context.center_lonlat if mentions.view else None, scale=context.scale if mentions.view else None,
        active_layer="", selected_features=context.selected_features if mentions.selection else None)
