"""What every tool may reach: settings, the HTTP client, catalogs, stores, embeddings, the project."""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

import httpx

from ..agent.config import Settings
from ..agent.stores.base import MemoryStore
from .stac.catalogs import CatalogRegistry


@dataclass
class SessionStats:
    """Counts of tool calls in this session, shown by the `analytics://summary` resource."""

    started_at: float = field(default_factory=time.time)
    calls: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)

    def record(self, tool: str, seconds: float, failed: bool) -> None:
        self.calls[tool] += 1
        self.seconds[tool] += seconds
        if failed:
            self.errors[tool] += 1

    def summary(self) -> dict:
        return {
            "session_seconds": round(time.time() - self.started_at, 1),
            "tool_calls": sum(self.calls.values()),
            "tool_errors": sum(self.errors.values()),
            "by_tool": {name: {"calls": n, "errors": self.errors[name], "seconds": round(self.seconds[name], 3)}
                        for name, n in self.calls.most_common()},
        }


EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]


@dataclass
class ToolDeps:
    settings: Settings
    http: httpx.AsyncClient
    catalogs: CatalogRegistry
    memory_store: MemoryStore | None = None
    knowledge_store: MemoryStore | None = None
    embed: EmbedFn | None = None
    project: Callable[[], Any] = lambda: None  # returns the QgsProject, or None without QGIS
    work_dir: str = ""  # where files made by tools go (difference rasters, charts); "" = a temp folder
    stats: SessionStats = field(default_factory=SessionStats)
    iface: Callable[[], Any] = lambda: None  # returns QGIS's iface (canvas, main window), or None without QGIS
    turn_history: Any = None  # tools.canvas.undo.history.TurnHistory; the canvas family makes one when None
    outside_client: bool = False  # True for the server of the outside MCP endpoint: file access is limited
    read_only: bool = False  # only the tools that change nothing are listed and run (outside clients' setting)
    chat_record: Callable[[], Awaitable[Any]] | None = None  # the dock's current chat as a SessionRecord (reports)
    # whether the dock's chat model can look at pictures (get_map_view attaches one only then); None: the caller's
    # own model decides (an outside client), so the picture is attached
    model_sees: Callable[[], Awaitable[bool]] | None = None

    async def caller_sees(self) -> bool:
        """Whether the model that called a tool can look at a picture it returns."""
        if self.model_sees is None or self.outside_client:
            return True
        try:
            return bool(await self.model_sees())
        except Exception:  # noqa: BLE001 - a server that cannot say: measurements only, as for a text model
            return False

    def allowed_folders(self) -> list[Path]:
        """Local folders an outside client may read from, symlinks resolved: the tools' output folder,
        the folders of local (static) catalogs, and those the user listed in the settings."""
        folders = [self.output_dir()]
        for catalog in self.settings.catalogs:
            url = catalog.url
            if "://" not in url or url.startswith("file://"):
                local = Path(url.removeprefix("file://")).expanduser()
                folders.append(local if local.is_dir() else local.parent)
        for line in self.settings.mcp_allowed_folders.replace(os.pathsep, "\n").splitlines():
            if line.strip():
                folders.append(Path(line.strip()).expanduser())
        return [Path(os.path.realpath(f)) for f in folders]

    def output_dir(self) -> Path:
        """Folder for files tools produce (difference rasters, charts, search results)."""
        if not self.work_dir:
            self.work_dir = tempfile.mkdtemp(prefix="stacgis-tools-")
        path = Path(self.work_dir)
        path.mkdir(parents=True, exist_ok=True)
        return path

    @classmethod
    def from_settings(cls, settings: Settings, http: httpx.AsyncClient | None = None, **kwargs: Any) -> ToolDeps:
        http = http or httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0), follow_redirects=True)
        return cls(settings=settings, http=http, catalogs=CatalogRegistry(settings.catalogs, http), **kwargs)
