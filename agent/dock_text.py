"""Texts the core writes for the dock, in the analyst's language without Qt: a function takes the dock's
translation as `tr` (ui.i18n.tr, a `Translate`) and writes each text as a literal tr("…"), filling its
{placeholders} after translation, so scripts/i18n_strings.py collects it into the catalogs. Without one it
writes the English source (logs, tests, what the model reads)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

Translate = Callable[[str], str]


def as_written(text: str) -> str:
    """The English source text: the `tr` of a caller that shows no translation."""
    return text


def translatable(text: str) -> str:
    """Marks a constant for the catalogs (as ui.i18n.translatable does); shown with tr(CONSTANT)."""
    return text


@dataclass(frozen=True)
class Said:
    """A sentence the core writes for the analyst and keeps as its parts, so the dock can say it in its language
    later (an error ending a turn, read back from the session log too): `template` is an English translatable("…")
    literal with {placeholders}; a field is a name or a reason from elsewhere (shown as written) or a Said of our
    own words (said in the dock's language too). An empty template says nothing: the caller shows its English."""

    template: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    def text(self, tr: Translate = as_written) -> str:
        return tr(self.template).format(**{name: _filled(value, tr) for name, value in self.fields.items()})


def say(template: str, **fields: Any) -> Said:
    """A Said of a translatable("…") template; a field that is not a Said is kept as its text, a list as a list
    (said one after another, ", " between them)."""
    return Said(template, {name: _kept(value) for name, value in fields.items()})


def _kept(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_kept(v) for v in value]
    return value if isinstance(value, Said) else str(value)


def _filled(value: Any, tr: Translate) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_filled(v, tr) for v in value)
    if isinstance(value, dict):  # a Said read back from a session log
        value = Said(str(value.get("template", "")), dict(value.get("fields") or {}))
    return value.text(tr) if isinstance(value, Said) else str(value)


class SaidError(Exception):
    """An error whose message is a Said: str(error) is its English (logs, tests), `said` its parts for the dock."""

    def __init__(self, message: str | Said):
        self.said = message if isinstance(message, Said) else Said()
        super().__init__(message.text() if isinstance(message, Said) else message)
