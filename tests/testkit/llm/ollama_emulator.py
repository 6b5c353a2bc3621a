"""A faithful Ollama server on loopback: the only fake the test suite allows (the LLM).

It speaks the wire format of shared/reference/OLLAMA_API.md over real HTTP, in a background
thread, so it works from any asyncio or Qt loop. Tests script its replies as a FIFO queue of
`Turn`s and read back every request it received.

    with OllamaEmulator() as emu:
        emu.script(Turn(thinking="Let me look", content="Hello"))
        ...  # point a provider at emu.url
        assert emu.chat_requests()[0]["options"]["num_ctx"] == 16384
"""

from __future__ import annotations

import re
import socket
import threading
from collections import deque
from http.server import ThreadingHTTPServer

from .ollama_handler import VERSION, OllamaHandler, RecordedRequest
from .ollama_models import InstalledModel
from .ollama_replies import EMBEDDING_DIM, Turn, embed_text

__all__ = ["EMBEDDING_DIM", "VERSION", "OllamaEmulator", "RecordedRequest", "Turn", "embed_text"]

class OllamaEmulator:
    def __init__(self, default_turn: Turn | None = None):
        self.default_turn = default_turn
        self._lock = threading.Lock()
        self._turns: deque[Turn] = deque()
        self._requests: list[RecordedRequest] = []
        self._disconnects = 0
        self._disconnect_event = threading.Event()
        self._models: dict[str, InstalledModel] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()
        self.add_model("qwen3:8b", ("completion", "tools", "thinking"), 40960)
        self.add_model("nomic-embed-text", ("embedding",), 2048)
        self.add_model("gemma3:4b", ("completion", "vision"), 131072)

    # ---- lifecycle -------------------------------------------------------------------
    def start(self) -> OllamaEmulator:
        emulator = self

        class Handler(OllamaHandler):
            emu = emulator

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name="ollama-emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            conns = list(self._connections)
        for conn in conns:  # keep-alive sockets held by client pools would keep threads alive
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._server = None

    def __enter__(self) -> OllamaEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "start the emulator first (use it as a context manager)"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # ---- scripting and inspection ----------------------------------------------------
    def script(self, *turns: Turn) -> None:
        with self._lock:
            self._turns.extend(turns)

    @property
    def pending_turns(self) -> int:
        with self._lock:
            return len(self._turns)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def chat_requests(self) -> list[dict]:
        return [r.body for r in self.requests
                if r.path in ("/api/chat", "/v1/chat/completions") and r.body is not None]

    @property
    def disconnects(self) -> int:
        with self._lock:
            return self._disconnects

    def wait_for_disconnect(self, timeout: float) -> bool:
        return self._disconnect_event.wait(timeout)

    def add_model(self, name: str, capabilities: tuple[str, ...] | list[str] = ("completion", "tools", "thinking"),
                  context_length: int = 40960) -> None:
        family = re.split(r"[:\-]", name)[0] or "llama"
        with self._lock:
            self._models[name] = InstalledModel(name, tuple(capabilities), context_length, family)

    def remove_model(self, name: str) -> None:
        with self._lock:
            self._models.pop(name, None)

    # ---- used by the handler ---------------------------------------------------------
    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(req)

    def _next_turn(self) -> Turn | None:
        with self._lock:
            if self._turns:
                return self._turns.popleft()
        return self.default_turn

    def _model(self, name: str) -> InstalledModel | None:
        with self._lock:
            return self._models.get(_with_tag(name)) or self._models.get(name)

    def _note_disconnect(self) -> None:
        with self._lock:
            self._disconnects += 1
        self._disconnect_event.set()

    def _track(self, conn: socket.socket, add: bool) -> None:
        with self._lock:
            (self._connections.add if add else self._connections.discard)(conn)


def _with_tag(name: str) -> str:
    return name if ":" in name else name + ":latest"
