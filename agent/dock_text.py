"""Texts the core writes for the dock, in the analyst's language without Qt: a function takes the dock's
translation as `tr` (ui.i18n.tr, a `Translate`) and writes each text as a literal tr("…"), filling its
{placeholders} after translation, so scripts/i18n_strings.py collects it into the catalogs. Without one it
writes the English source (logs, tests, what the model reads)."""

from __future__ import annotations

from typing import Callable

Translate = Callable[[str], str]


def as_written(text: str) -> str:
    """The English source text: the `tr` of a caller that shows no translation."""
    return text


def translatable(text: str) -> str:
    """Marks a constant for the catalogs (as ui.i18n.translatable does); shown with tr(CONSTANT)."""
    return text
