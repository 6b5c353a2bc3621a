"""Wrappers that keep a chat going on the embedded stores while a configured server is away."""

from .resilient_gate import ResilientConcurrencyGate
from .resilient_memory import ResilientMemoryStore
from .resilient_sessions import ResilientSessionStore
from .server_health import ServerHealth

__all__ = ["ResilientConcurrencyGate", "ResilientMemoryStore", "ResilientSessionStore", "ServerHealth"]
