"""Where an export is proposed: the folder of the last export (else Documents, else home) and the
conversation's whole title as a file name any system accepts."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

SETTING = "stacgis_agent/last_export_folder"
MAX_NAME_CHARS = 150  # well under the 255 bytes file systems allow, with room for the suffix
_FORBIDDEN = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')  # what Windows, macOS or Linux refuse in a name
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def file_name_for(title: str, fallback: str = "conversation") -> str:
    """The title kept whole (accents included); only what a file system refuses is replaced."""
    name = unicodedata.normalize("NFC", title).rstrip("…")  # a title cut for the list: no "…" in a file name
    name = _FORBIDDEN.sub(" - ", name)
    name = re.sub(r"\s+", " ", name).strip(" .-")
    if len(name) > MAX_NAME_CHARS:  # only for very long titles, and at a word boundary
        cut = name[:MAX_NAME_CHARS]
        name = (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" .-")
    if not name or name.lower() in _RESERVED:
        return fallback if not name else f"{name} ({fallback})"
    return name


def _settings():
    from qgis.core import QgsSettings  # here, not at import: the ui/ widget tests also run under Qt 6 alone

    return QgsSettings()


def export_folder() -> Path:
    last = _settings().value(SETTING, "", type=str)
    if last and Path(last).is_dir():
        return Path(last)
    documents = Path.home() / "Documents"
    return documents if documents.is_dir() else Path.home()


def suggested_export_path(title: str, suffix: str) -> Path:
    return export_folder() / (file_name_for(title) + suffix)


def remember_export_folder(folder: Path) -> None:
    _settings().setValue(SETTING, str(folder))
