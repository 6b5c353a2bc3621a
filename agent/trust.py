"""How far the analyst trusts the assistant in one chat: the trust level and the kinds of change not asked again.

Levels: "ask" (the default: a call that would change data outside the plugin's outputs waits for the analyst's OK
on a card) and "read only" (no tool that writes is offered, and a call to one is refused with a sentence).
From a card, "don't ask again in this chat" remembers the call's *kind*: the tool and what the gate judged the
change to be (`Assessment.kind`, e.g. remove_layer's "take layers off the map; Undo in the chat brings them
back"), never the tool alone, so a Processing run that writes a new file does not clear one that overwrites.
A call whose assessment names no kind (code, a download, an overwrite, anything the gate cannot judge) asks
every time, whatever was said before. Everything here is per chat: New chat starts from "ask" with nothing
remembered. Outside MCP clients have their own level in the settings (`Settings.mcp_read_only`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from .dock_text import Said, say, translatable
from .safety import Assessment

ASK, READ_ONLY = "ask", "read_only"
LEVELS = (ASK, READ_ONLY)
READ_ONLY_REFUSAL = translatable("This chat is read only: '{tool}' would change the project or files, so it was "
                                 "not run. Switch the “Read only” button above the message box to “Ask first” to allow changes.")
READ_ONLY_TO_MODEL = ("Not run: the user made this chat read only, so no tool that changes the project or files "
                      "may run. Do not retry; tell the user in one sentence what you would change, and that they can "
                      "allow changes by switching the “Read only” button above the message box to “Ask first”.")

MARKER = "[trust] "  # starts the note of a read-only chat appended to a user message; session titles cut it off
READ_ONLY_NOTE = (MARKER + "This chat is read only: you have only tools that change nothing. If the user asks for a "
                  "change to the map, the project or files, say in one sentence that this chat is read only and what "
                  "you would do.")


@dataclass
class ChatTrust:
    """The trust of one chat, shared by the dock (which shows and sets it) and the agent (which obeys it)."""

    level: str = ASK
    # (tool, kind) pairs the analyst said not to ask again about in this chat, in the order said
    waved: list[tuple[str, str]] = field(default_factory=list)
    on_change: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    @property
    def read_only(self) -> bool:
        return self.level == READ_ONLY

    def set_level(self, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown trust level {level!r}; one of {', '.join(LEVELS)}")
        if level != self.level:
            self.level = level
            self._changed()

    def offers(self, read_only_tool: bool) -> bool:
        """Whether a tool is offered to the model: in a read-only chat only the tools that change nothing."""
        return read_only_tool or not self.read_only

    def refusal(self, tool: str) -> tuple[str, Said]:
        """(what the model reads, what the dock says) of a writing call in a read-only chat."""
        return READ_ONLY_TO_MODEL, say(READ_ONLY_REFUSAL, tool=tool)

    def skips_card(self, tool: str, assessment: Assessment) -> bool:
        """The analyst already said "don't ask again" for this tool and this kind of change, in this chat."""
        return self.level == ASK and bool(assessment.kind) and (tool, assessment.kind) in self.waved

    @staticmethod
    def may_wave(calls: Iterable[tuple[str, Assessment]]) -> bool:
        """Whether a card may offer "don't ask again": every call it asks about has a kind the gate named."""
        calls = list(calls)
        return bool(calls) and all(a.kind for _tool, a in calls)

    def wave(self, calls: Iterable[tuple[str, Assessment]]) -> None:
        """Remembers the kinds of the calls the analyst approved with "don't ask again"."""
        added = False
        for tool, assessment in calls:
            key = (tool, assessment.kind)
            if assessment.kind and key not in self.waved:
                self.waved.append(key)
                added = True
        if added:
            self._changed()

    def ask_again(self) -> None:
        """Forgets every "don't ask again" of this chat."""
        if self.waved:
            self.waved.clear()
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
