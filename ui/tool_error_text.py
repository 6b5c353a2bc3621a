"""A tool's error as the analyst reads it. The text a tool returns on failure is written for the model: what
happened, then what to call next ("Ask the user which one they mean (ask_user), then call zoom_to_location
again with …"). The activity feed shows the analyst what happened; the instructions to the assistant stay
one click away, under the line. Plain text in, plain text out (no Qt)."""

from __future__ import annotations

import re

# Sentences addressed to the model: which tool to call, which arguments to fix.
_TO_THE_ASSISTANT = re.compile(
    r"\(ask_user\)|\bask the user\b|\bcall (it|them|\w+_\w+) again\b|\btry another tool\b|\bdo not retry\b"
    r"|\bthe tools you were given\b|\bcorrected arguments\b|\bfix the arguments\b|\buse `?\w+_\w+`?\b",
    re.IGNORECASE)
# The assistant is told to ask the user which one: the call did not fail, it needs the analyst's choice. (A call
# the analyst declined also says "ask the user what …": that one was refused, not waiting for a choice.)
_ASKS_THE_USER = re.compile(r"\(ask_user\)|\bask the user which\b", re.IGNORECASE)
# A sentence ends at ". ", "? " or "! " before a capital letter or a quote ("pop. 170,188" and "e.g. place" don't).
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z'\"“(])")


def for_analyst(message: str) -> tuple[str, str]:
    """(what happened, the instructions to the assistant) of a tool's error text."""
    sentences = _SENTENCE_END.split(message.strip())
    told = [s for s in sentences if not _TO_THE_ASSISTANT.search(s)]
    hints = [s for s in sentences if _TO_THE_ASSISTANT.search(s)]
    if not told:  # nothing but instructions: show it all rather than an empty line
        return message.strip(), ""
    return " ".join(told), " ".join(hints)


def needs_a_choice(message: str) -> bool:
    """The tool stopped to let the analyst choose (several places share a name), not because it failed."""
    return bool(_ASKS_THE_USER.search(message))
