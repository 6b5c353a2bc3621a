"""The one error a server backend raises when its server cannot serve a request right now."""

from __future__ import annotations

from typing import Any

from ..dock_text import Translate, as_written


class StoreUnavailable(ConnectionError):
    """A configured Redis or PostgreSQL is unreachable, too slow or dropped the connection.

    The message is meant for the user; the resilient wrappers catch this and fall back."""

    def __init__(self, message: str, template: str = "", parts: dict[str, Any] | None = None):
        super().__init__(message)
        self.template = template
        self.parts = parts or {}

    @classmethod
    def said(cls, template: str, **parts: Any) -> StoreUnavailable:
        """The error whose message is `template` (a translatable("…") literal) filled with `parts`; its `words`
        say it in the dock's language. `parts["what"]`, what was being done, is a translatable text too."""
        return cls(template.format(**parts), template, parts)

    def words(self, tr: Translate = as_written) -> str:
        if not self.template:
            return str(self)
        parts = {**self.parts, **({"what": tr(self.parts["what"])} if "what" in self.parts else {})}
        return tr(self.template).format(**parts)


def first_line(exc: BaseException) -> str:
    """A short reason for a message: the exception's first line, or its type when it has no text."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
