"""Splitting streamed `content` into what the user sees, thinking, and leaked tool calls.

Models put chain-of-thought in `<think>…</think>` and sometimes write tool calls as text; the
tags may be cut anywhere between two chunks, so a possible tag prefix at the end of a chunk is
held back until the next chunk decides. Plain text without `<` goes straight through.
"""

from __future__ import annotations

from typing import Iterable

from .leaks import parse_bare_json, parse_function_tag, parse_tool_call_tag
from .types import ContentChunk, StreamChunk, ThinkingChunk, ToolCallChunk

OPEN_THINK, CLOSE_THINK = "<think>", "</think>"
OPEN_CALL, CLOSE_CALL = "<tool_call>", "</tool_call>"
OPEN_FUNCTION, CLOSE_FUNCTION = "<function=", "</function>"
_TEXT_TAGS = (OPEN_THINK, CLOSE_THINK, OPEN_CALL, OPEN_FUNCTION)


def _held_suffix(text: str, tags: tuple[str, ...]) -> int:
    """Length of the longest end of `text` that could be the start of one of `tags`."""
    tail = text[-11:]
    if "<" not in tail:
        return 0
    for k in range(min(len(tail), 10), 0, -1):
        end = tail[-k:]
        if end[0] == "<" and any(tag.startswith(end) and tag != end for tag in tags):
            return k
    return 0


class ContentScanner:
    """Feed content fragments; get back ContentChunk / ThinkingChunk / ToolCallChunk."""

    def __init__(self, known_tools: Iterable[str] = ()):
        self.known_tools = frozenset(known_tools)
        self._buf = ""
        self._mode = "text"  # text | think | tool_call | function | json
        self._visible = False  # has any user-visible character been emitted yet
        self._after_think = False  # models put blank lines after </think>: not part of the answer
        self.passthrough = False  # plain text without "<" may skip the scan (the hot path)

    def feed(self, text: str) -> list[StreamChunk]:
        if self.passthrough and "<" not in text:
            return [ContentChunk(text)]
        self._buf += text
        out = self._scan(final=False)
        self.passthrough = self._visible and self._mode == "text" and not self._buf and not self._after_think
        return out

    def finish(self) -> list[StreamChunk]:
        out = self._scan(final=True)
        self.passthrough = self._visible and self._mode == "text" and not self._buf and not self._after_think
        return out

    def _scan(self, final: bool) -> list[StreamChunk]:
        out: list[StreamChunk] = []
        while True:
            mode, buf = self._mode, self._buf
            if mode == "think":
                i = buf.find(CLOSE_THINK)
                if i >= 0:
                    self._emit_thinking(out, buf[:i])
                    self._buf, self._mode, self._after_think = buf[i + len(CLOSE_THINK):], "text", True
                    continue
                keep = 0 if final else _held_suffix(buf, (CLOSE_THINK,))
                self._emit_thinking(out, buf[:len(buf) - keep])
                self._buf = buf[len(buf) - keep:]
                return out
            if mode in ("tool_call", "function"):
                close = CLOSE_CALL if mode == "tool_call" else CLOSE_FUNCTION
                i = buf.find(close)
                if i < 0 and not final:
                    return out
                body = buf if i < 0 else buf[:i + (len(close) if mode == "function" else 0)]
                call = parse_tool_call_tag(body) if mode == "tool_call" else parse_function_tag(body)
                if call is not None:
                    out.append(ToolCallChunk(call))
                else:  # not a call after all: show it rather than lose it
                    self._emit_content(out, (OPEN_CALL if mode == "tool_call" else "") + body)
                self._buf, self._mode = ("" if i < 0 else buf[i + len(close):]), "text"
                continue
            if mode == "json":
                if not final:
                    return out
                calls = parse_bare_json(buf, self.known_tools)
                if calls:
                    out.extend(ToolCallChunk(c) for c in calls)
                else:
                    self._emit_content(out, buf)
                self._buf, self._mode = "", "text"
                return out
            if not self._visible:
                stripped = buf.lstrip()
                if stripped and self.known_tools and stripped[0] in "{[":
                    self._buf, self._mode = stripped, "json"  # maybe a bare JSON tool call: wait for the end
                    continue
            i, tag = self._first_tag(buf)
            if tag is None:
                keep = 0 if final else _held_suffix(buf, _TEXT_TAGS)
                self._emit_content(out, buf[:len(buf) - keep])
                self._buf = buf[len(buf) - keep:]
                return out
            self._emit_content(out, buf[:i])
            rest = buf[i + len(tag):]
            if tag == OPEN_THINK:
                self._buf, self._mode = rest, "think"
            elif tag == CLOSE_THINK:  # the opening tag was in the chat template: drop the stray close
                self._buf, self._after_think = rest, True
            elif tag == OPEN_CALL:
                self._buf, self._mode = rest, "tool_call"
            else:
                self._buf, self._mode = buf[i:], "function"

    @staticmethod
    def _first_tag(buf: str) -> tuple[int, str | None]:
        best, found = len(buf), None
        start = buf.find("<")
        if start < 0:
            return best, None
        for tag in _TEXT_TAGS:
            i = buf.find(tag, start)
            if 0 <= i < best:
                best, found = i, tag
        return best, found

    def _emit_content(self, out: list[StreamChunk], text: str) -> None:
        if not self._visible or self._after_think:
            text = text.lstrip()
        if text:
            self._visible, self._after_think = True, False
            out.append(ContentChunk(text))

    @staticmethod
    def _emit_thinking(out: list[StreamChunk], text: str) -> None:
        if text:
            out.append(ThinkingChunk(text))

