"""The emulator's HTTP side: routing, Ollama/OpenAI error shapes, streaming and disconnects."""

from __future__ import annotations

import dataclasses
import json
import select
import socket
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from . import ollama_models as models_wire
from . import ollama_replies as replies
from .ollama_models import InstalledModel
from .ollama_replies import Turn

VERSION = "0.33.0"


@dataclass
class RecordedRequest:
    path: str
    method: str
    body: dict | None
    headers: dict = field(default_factory=dict)


class _ClientGone(Exception):
    """The client closed the connection while we were still streaming."""


class OllamaHandler(BaseHTTPRequestHandler):
    """One HTTP connection to the emulator; `emu` is set on a subclass per emulator."""

    emu: Any  # the OllamaEmulator whose queue and records this handler uses
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
    def _tags(self) -> None:
        with self.emu._lock:
            models = list(self.emu._models.values())
        self._send_json(200, {"models": [models_wire.tags_entry(m) for m in models]})

    def _ps(self) -> None:
        now = time.monotonic()
        with self.emu._lock:
            loaded = [models_wire.ps_entry(m, now) for m in self.emu._models.values() if m.loaded_until > now]
        self._send_json(200, {"models": loaded})

    def _show(self, body: dict) -> None:
        name = body.get("model") or body.get("name") or ""
        m = self.emu._model(name)
        if m is None:
            self._error(404, f"model '{name}' not found")
            return
        self._send_json(200, models_wire.show_body(m))

    def _openai_models(self) -> None:
        with self.emu._lock:
            names = list(self.emu._models)
        self._send_json(200, models_wire.openai_models_body(names))

    def _mark_loaded(self, m: InstalledModel, body: dict) -> None:
        with self.emu._lock:
            models_wire.mark_loaded(m, body)

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
        schema = replies.response_schema(body)
        if schema is not None:
            try:
                turn = replies.constrained_turn(turn, schema)
            except ValueError as exc:
                self._error(500, str(exc), openai)
                return
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
