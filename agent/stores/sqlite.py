"""The embedded stores under the import path other modules use."""

from .sqlite_memory import SqliteMemoryStore
from .sqlite_sessions import SqliteSessionStore

__all__ = ["SqliteMemoryStore", "SqliteSessionStore"]
