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

import dataclasses
import hashlib
import json
import re
import select
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from . import ollama_replies as replies
from .ollama_replies import EMBEDDING_DIM, Turn, embed_text

__all__ = ["EMBEDDING_DIM", "OllamaEmulator", "RecordedRequest", "Turn", "embed_text"]

VERSION = "0.33.0"


@dataclass
class RecordedRequest:
    path: str
    method: str
    body: dict | None
    headers: dict = field(default_factory=dict)


@dataclass
class _Model:
    name: str
    capabilities: tuple[str, ...]
    context_length: int
    family: str
    size: int = 5_225_388_164
    num_ctx: int = 4096  # the window it was last loaded with
    loaded_until: float = 0.0  # monotonic deadline; 0 = not loaded


class _ClientGone(Exception):
    """The client closed the connection while we were still streaming."""


class OllamaEmulator:
    def __init__(self, default_turn: Turn | None = None):
        self.default_turn = default_turn
        self._lock = threading.Lock()
        self._turns: deque[Turn] = deque()
        self._requests: list[RecordedRequest] = []
        self._disconnects = 0
        self._disconnect_event = threading.Event()
        self._models: dict[str, _Model] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()
        self.add_model("qwen3:8b", ("completion", "tools", "thinking"), 40960)
        self.add_model("nomic-embed-text", ("embedding",), 2048)
        self.add_model("gemma3:4b", ("completion", "vision"), 131072)

    # ---- lifecycle -------------------------------------------------------------------
    def start(self) -> OllamaEmulator:
        emulator = self

        class Handler(_Handler):
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
            self._models[name] = _Model(name, tuple(capabilities), context_length, family)

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

    def _model(self, name: str) -> _Model | None:
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


class _Handler(BaseHTTPRequestHandler):
    emu: OllamaEmulator
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
        pass

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # headers and body are separate writes
        self.emu._track(self.connection, True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.emu._track(self.connection, False)

    # ---- plumbing --------------------------------------------------------------------
    def _read_body(self) -> tuple[dict | None, str | None]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None, None
        try:
            body = json.loads(raw)
        except ValueError as exc:
            return None, f"invalid character in request body: {exc}"
        return (body, None) if isinstance(body, dict) else (None, "request body must be a JSON object")

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_text(self, status: int, text: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, openai: bool = False) -> None:
        if openai:
            kind = "invalid_request_error" if status < 500 else "api_error"
            self._send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": None}})
        else:
            self._send_json(status, {"error": message})

    def _start_stream(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        try:
            self.wfile.write(b"%X\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise _ClientGone from exc

    def _end_stream(self) -> None:
        self._write_chunk(b"")

    def _pause(self, seconds: float) -> None:
        """Sleeps, but notices at once when the client hangs up (that is how Ollama stops)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            readable, _, _ = select.select([self.connection], [], [], max(0.0, min(left, 0.05)))
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        raise _ClientGone
                except (ConnectionResetError, BrokenPipeError) as exc:
                    raise _ClientGone from exc
            if left <= 0:
                return

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # ---- routing ---------------------------------------------------------------------
    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_HEAD(self) -> None:
        self._route("HEAD")

    def _route(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        body, parse_error = self._read_body() if method == "POST" else (None, None)
        self.emu._record(RecordedRequest(path, method, body, dict(self.headers.items())))
        routes = {
            ("GET", "/"): lambda: self._send_text(200, "Ollama is running"),
            ("HEAD", "/"): lambda: self._send_text(200, ""),
            ("GET", "/api/version"): lambda: self._send_json(200, {"version": VERSION}),
            ("GET", "/api/tags"): self._tags,
            ("GET", "/api/ps"): self._ps,
            ("POST", "/api/show"): lambda: self._show(body or {}),
            ("POST", "/api/chat"): lambda: self._chat(body or {}, openai=False),
            ("POST", "/api/embed"): lambda: self._embed(body or {}, openai=False),
            ("POST", "/v1/chat/completions"): lambda: self._chat(body or {}, openai=True),
            ("POST", "/v1/embeddings"): lambda: self._embed(body or {}, openai=True),
            ("GET", "/v1/models"): self._openai_models,
        }
        handler = routes.get((method, path))
        if handler is None:
            known = {p for _, p in routes}
            if path in known:
                self._send_text(405, "405 method not allowed")
            else:
                self._send_text(404, "404 page not found")
            return
        if parse_error:
            self._error(400, parse_error, openai=path.startswith("/v1"))
            return
        try:
            handler()
        except _ClientGone:
            self.emu._note_disconnect()
            self.close_connection = True

    # ---- model endpoints -------------------------------------------------------------
    def _model_entry(self, m: _Model) -> dict:
        digest = hashlib.sha256(m.name.encode()).hexdigest()
        return {"name": m.name, "model": m.name, "modified_at": "2026-11-01T09:00:00.000000Z",
                "size": m.size, "digest": digest,
                "details": {"parent_model": "", "format": "gguf", "family": m.family, "families": [m.family],
                            "parameter_size": "8.2B", "quantization_level": "Q4_K_M"}}

    def _tags(self) -> None:
        with self.emu._lock:
            models = list(self.emu._models.values())
        self._send_json(200, {"models": [self._model_entry(m) for m in models]})

    def _ps(self) -> None:
        now = time.monotonic()
        with self.emu._lock:
            loaded = [m for m in self.emu._models.values() if m.loaded_until > now]
        out = []
        for m in loaded:
            entry = self._model_entry(m)
            del entry["modified_at"]
            expires = datetime.now(timezone.utc).timestamp() + (m.loaded_until - now)
            entry["expires_at"] = datetime.fromtimestamp(expires, timezone.utc).isoformat().replace("+00:00", "Z")
            entry["size_vram"] = m.size
            entry["context_length"] = m.num_ctx
            out.append(entry)
        self._send_json(200, {"models": out})

    def _show(self, body: dict) -> None:
        name = body.get("model") or body.get("name") or ""
        m = self.emu._model(name)
        if m is None:
            self._error(404, f"model '{name}' not found")
            return
        arch = m.family
        self._send_json(200, {
            "modelfile": f"FROM {m.name}\n", "parameters": "temperature 0.6\ntop_p 0.95",
            "template": "{{ .Prompt }}", "details": self._model_entry(m)["details"],
            "model_info": {"general.architecture": arch, "general.parameter_count": 8_190_735_360,
                           f"{arch}.context_length": m.context_length, f"{arch}.embedding_length": 4096},
            "capabilities": list(m.capabilities), "modified_at": "2026-11-01T09:00:00.000000Z",
        })

    def _openai_models(self) -> None:
        with self.emu._lock:
            names = list(self.emu._models)
        self._send_json(200, {"object": "list", "data": [
            {"id": n, "object": "model", "created": 1764000000, "owned_by": "library"} for n in names]})

    def _mark_loaded(self, m: _Model, body: dict) -> None:
        keep_alive, seconds = body.get("keep_alive"), 300.0
        if isinstance(keep_alive, (int, float)):
            seconds = float(keep_alive)
        elif isinstance(keep_alive, str) and keep_alive:
            unit = {"s": 1, "m": 60, "h": 3600}.get(keep_alive[-1])
            seconds = float(keep_alive[:-1]) * unit if unit else float(keep_alive)
        with self.emu._lock:
            m.loaded_until = time.monotonic() + (seconds if seconds >= 0 else 10 ** 9)
            m.num_ctx = int((body.get("options") or {}).get("num_ctx") or m.num_ctx)

    # ---- embeddings ------------------------------------------------------------------
    def _embed(self, body: dict, openai: bool) -> None:
        name = body.get("model") or ""
        m = self.emu._model(name)
        if m is None:
            self._error(404, f"model '{name}' not found", openai)
            return
        if "embedding" not in m.capabilities:
            self._error(400, f'"{name}" does not support embeddings', openai)
            return
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else list(texts)
        self._mark_loaded(m, body)
        vectors = [replies.embed_text(str(t)) for t in texts]
        tokens = sum(max(1, len(str(t)) // 4) for t in texts)
        if openai:
            self._send_json(200, {"object": "list", "model": name,
                                  "data": [{"object": "embedding", "embedding": v, "index": i}
                                           for i, v in enumerate(vectors)],
                                  "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})
        else:
            self._send_json(200, {"model": name, "embeddings": vectors, "total_duration": 14_143_917,
                                  "load_duration": 1_019_500, "prompt_eval_count": tokens})

    # ---- chat --------------------------------------------------------------------------
    def _chat(self, body: dict, openai: bool) -> None:
        name = body.get("model") or ""
        if not name:
            self._error(400, "model is required", openai)
            return
        m = self.emu._model(name)
        if m is None:
            self._error(404, f"model '{name}' not found", openai)
            return
        if "completion" not in m.capabilities:
            self._error(400, f'"{name}" does not support chat', openai)
            return
        if body.get("tools") and "tools" not in m.capabilities:
            self._error(400, f"registry.ollama.ai/library/{name} does not support tools", openai)
            return
        if body.get("think") and "thinking" not in m.capabilities and not openai:
            self._error(400, f'"{name}" does not support thinking', openai)
            return
        if not openai and replies.has_string_arguments(body.get("messages") or []):
            self._error(400, "json: cannot unmarshal string into Go struct field "
                             "ToolCallFunction.messages.tool_calls.function.arguments of type "
                             "api.ToolCallFunctionArguments")
            return
        self._mark_loaded(m, body)
        if not body.get("messages") and not openai:  # an empty chat loads (or unloads) the model
            reason = "unload" if body.get("keep_alive") in (0, "0", "0s") else "load"
            self._send_json(200, {"model": name, "created_at": replies.now(),
                                  "message": {"role": "assistant", "content": ""},
                                  "done_reason": reason, "done": True})
            return
        turn = self.emu._next_turn()
        if turn is None:
            self._error(500, "emulator: no scripted turn left", openai)
            return
        if turn.http_status != 200:
            self._error(turn.http_status, turn.http_error or "emulator: scripted error", openai)
            return
        if body.get("think") is False and not openai:  # a model told not to think does not
            turn = dataclasses.replace(turn, thinking="")
        calls = replies.scripted_calls(turn)
        events = replies.turn_events(turn, calls)
        usage = replies.usage_numbers(turn, body, calls)
        if openai:
            if body.get("stream"):
                include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
                self._stream(turn, replies.openai_lines(name, events, turn, calls, usage, include_usage),
                             "text/event-stream", replies.sse)
            else:
                self._whole(turn, replies.openai_whole(name, turn, calls, usage), openai=True)
        elif body.get("stream", True):
            self._stream(turn, replies.ollama_lines(name, events, turn, usage), "application/x-ndjson", replies.ndjson)
        else:
            self._whole(turn, replies.ollama_whole(name, turn, calls, usage), openai=False)

    def _whole(self, turn: Turn, payload: dict, openai: bool) -> None:
        if turn.drop_after is not None:
            self._drop()
        elif turn.error_line_after is not None:
            self._error(500, turn.error_message, openai)
        else:
            self._send_json(200, payload)

    def _stream(self, turn: Turn, lines: list[tuple[str, dict | None]], content_type: str, encode: Any) -> None:
        """Sends (kind, payload) lines; kind "content" counts toward error_line_after."""
        self._start_stream(content_type)
        sent = content_sent = 0
        error_due = turn.error_line_after is not None
        for kind, payload in lines:
            if kind == "final" and error_due or (
                    kind == "content" and error_due and content_sent >= turn.error_line_after):
                self._write_chunk(encode(replies.error_payload(turn.error_message, content_type)))
                self._end_stream()
                return
            if turn.chunk_delay_s:
                self._pause(turn.chunk_delay_s)
            if turn.drop_after is not None and sent >= turn.drop_after:
                self._drop()
                return
            self._write_chunk(encode(payload))
            sent += 1
            content_sent += kind == "content"
        self._end_stream()
