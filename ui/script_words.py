"""The exported PyQGIS script's comments in the dock's language. The script stays ASCII (the QGIS console reads a
file in the system's encoding, cp1252 on many Windows installs) and no text is ever pasted into its code: a
translation becomes comment lines only, each "# " and printable ASCII (umlauts as ae/oe/ue, accents dropped),
so nothing in a catalog's translation can end a comment or reach the program. Plain text, no Qt."""

from __future__ import annotations

import textwrap
import unicodedata

from ..agent.dock_text import Translate, translatable

# What the script's docstring says, paragraph by paragraph (ui/project_script.py keeps the English docstring).
ABOUT = (
    translatable("Rebuilds the QGIS map of a STAC GIS Agent conversation as it was when exported: its layers with "
                 "their groups, styles, the project CRS and the view. The conversation's title, the date and every "
                 "layer are in MAP below, as data."),
    translatable("How to run it:"),
    translatable("- in QGIS: Plugins > Python Console > Show Editor > Open this file > Run. It adds the layers to "
                 "the open project and zooms the map to the saved view;"),
    translatable("- without the QGIS window (standalone PyQGIS), with the Python that has QGIS's modules (python3 "
                 "on Linux, the OSGeo4W Shell on Windows): python3 this_file.py [output.qgz]. It writes a QGIS "
                 "project (next to this file by default) that opens on the saved view; layers that lived only in "
                 "memory go into a GeoPackage beside it."),
    translatable("Layers open from their original sources (files, URLs); a source that is gone is reported and "
                 "skipped."),
)
MAP_NOTE = translatable('The map, as JSON: "styles" holds each layer\'s style as QGIS saves it in a .qml file '
                        '(renderer, colours, labels, opacity); a layer\'s "style" is its index there.')

_SPELLED = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "œ": "oe", "Œ": "Oe",
            "æ": "ae", "Æ": "Ae", "«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'", "‚": "'",
            "–": "-", "—": "-", "…": "...", "▸": ">", "→": "->", "\u00a0": " ", "\u202f": " ", "\u2009": " "}


def ascii_text(text: str) -> str:
    """`text` on one line of printable ASCII: spelled out where a language has a convention (ä as ae), accents
    dropped, any line break or other space a plain space, anything else '?'."""
    spelled = "".join(_SPELLED.get(c, " " if c.isspace() else c) for c in text)
    plain = "".join(c for c in unicodedata.normalize("NFKD", spelled) if not unicodedata.combining(c))
    return "".join(c if " " <= c <= "~" else "?" for c in plain)


def comment_lines(paragraphs: tuple[str, ...] | list[str], tr: Translate, width: int = 100) -> str:
    """The paragraphs, translated, as "# " lines, ending in a newline (a list item's lines indented)."""
    lines: list[str] = []
    for paragraph in paragraphs:
        text = ascii_text(tr(paragraph))
        lines.extend(textwrap.wrap(text, width=width, subsequent_indent="  " if text.startswith("-") else "")
                     or [""])
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)
