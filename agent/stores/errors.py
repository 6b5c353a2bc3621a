"""The one error a server backend raises when its server cannot serve a request right now."""

from __future__ import annotations


class StoreUnavailable(ConnectionError):
    """A configured Redis or PostgreSQL is unreachable, too slow or dropped the connection.

    The message is meant for the user; the resilient wrappers catch this and fall back."""


def first_line(exc: BaseException) -> str:
    """A short reason for a message: the exception's first line, or its type when it has no text."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
