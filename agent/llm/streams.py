"""Closing nested chunk streams deterministically.

A wrapper that iterates another provider's stream must close it when it is itself closed early
(Stop, unload): left to the garbage collector, the inner HTTP stream would be finalised in
another task (anyio: "cancel scope in a different task") and the server would keep generating.
contextlib.aclosing needs Python 3.10; QGIS 3.22 on Windows ships 3.9.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator, TypeVar

T = TypeVar("T")


@asynccontextmanager
async def closing(stream: AsyncIterator[T]) -> AsyncIterator[AsyncIterator[T]]:
    try:
        yield stream
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
