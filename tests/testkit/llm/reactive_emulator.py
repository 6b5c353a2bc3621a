"""The Ollama emulator with replies that may depend on what the model was just given back: a queued
callable `reply(body) -> Turn` is called with the chat request it answers, so a scripted model can use
a value only known at run time (a file path, a layer name) like a real model reading a tool result."""

from __future__ import annotations

import json
import re
from typing import Any

from stacgis_agent.agent.permissions import STATE_MARKER

from .ollama_emulator import OllamaEmulator, Turn


class ReactiveEmulator(OllamaEmulator):
    def _next_turn(self) -> Turn | None:
        with self._lock:
            head = self._turns[0] if self._turns else None
            if callable(head):
                self._turns.popleft()
        if callable(head):
            body = self.chat_requests()[-1]
            try:
                return head(body)
            except Exception as exc:  # the test's script did not fit what the model was given: say so in the chat
                last = [m.get("content") for m in body.get("messages") or []][-1:]
                return Turn(content=f"SCRIPT ERROR {type(exc).__name__}: {exc}; last message: {last}")
        return super()._next_turn()


def tool_results(body: dict, name: str | None = None) -> list[Any]:
    """The data of the tool results in a chat request (parsed from 'summary\\n{json}'), oldest first."""
    out = []
    for message in body.get("messages") or []:
        if message.get("role") != "tool" or (name and message.get("tool_name") != name):
            continue
        out.append(parse_tool_text(message.get("content") or ""))
    return out


def parse_tool_text(text: str) -> Any:
    """The JSON a tool returned, as a model reads it: after the summary line, before the agent's note
    on what the project's state allows now ("[tools] …", appended when a layer appeared or went)."""
    text = text.split("\n\n" + STATE_MARKER, 1)[0]
    text = re.sub(r"(\n\[image [^\]\n]*\])+$", "", text)  # the line that stands for an attached picture
    for candidate in (text, text.partition("\n")[2]):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return text


def tool_messages(body: dict, name: str | None = None) -> list[dict]:
    return [m for m in body.get("messages") or [] if m.get("role") == "tool"
            and (name is None or m.get("tool_name") == name)]
