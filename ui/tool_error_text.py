"""A tool's error as the analyst reads it. The text a tool returns on failure is written for the model: what
happened, then what to call next ("Ask the user which one they mean (ask_user), then call zoom_to_location
again with …"). The activity feed shows the analyst what happened, in the dock's language when the message is one
of the tools' templates (ui/tool_messages.py, generated from the errors the tools raise); the instructions to the
assistant stay one click away, under the line, in the English the model read. Plain text in, plain text out (no Qt)."""

from __future__ import annotations

import re
import string
from functools import cache
from typing import Callable

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
_TEMPLATE_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z'\"“({])")  # in a template, a value may begin one
# What the host adds after a tool's own words (agent/tool_host.failed): never part of a template.
HOST_HINT = "Fix the arguments or try another tool."


def for_analyst(message: str) -> tuple[str, str]:
    """(what happened, the instructions to the assistant) of a tool's error text."""
    sentences = _SENTENCE_END.split(message.strip())
    told = [s for s in sentences if not _TO_THE_ASSISTANT.search(s)]
    hints = [s for s in sentences if _TO_THE_ASSISTANT.search(s)]
    if not told:  # nothing but instructions: show it all rather than an empty line
        return message.strip(), ""
    return " ".join(told), " ".join(hints)


def split_template(template: str) -> tuple[str, str]:
    """(the analyst's part, the instructions) of a tool's message template, split as for_analyst splits a message,
    and a sentence of instructions after its leading facts ("…; use …"); ("", template) when it is all instructions."""
    told, hints = [], []
    for sentence in _TEMPLATE_SENTENCE_END.split(template.strip()):
        if not _TO_THE_ASSISTANT.search(sentence):
            told.append(sentence)
            continue
        clauses = sentence.split("; ")  # "No memory with id 'x'; use search_memories …": the fact is the analyst's
        facts = 0
        while facts < len(clauses) - 1 and not _TO_THE_ASSISTANT.search(clauses[facts]):
            facts += 1
        if facts:
            told.append("; ".join(clauses[:facts]).rstrip(".") + ".")
        hints.append("; ".join(clauses[facts:]))
    return " ".join(told), " ".join(hints)


def needs_a_choice(message: str) -> bool:
    """The tool stopped to let the analyst choose (several places share a name), not because it failed."""
    return bool(_ASKS_THE_USER.search(message))


def _ending_trimmed(text: str) -> str:
    return text.strip().rstrip(".").strip()  # as the host trims a tool's message before adding its own words


@cache
def template_pattern(template: str) -> tuple[re.Pattern, int]:
    """The messages `template` writes (literal parts as written, each value a non-greedy group, a value used twice
    the same both times), and how many characters of its own it has (the longest literal match wins)."""
    pattern, own, named = [], 0, set()
    for literal, name, _spec, _conv in string.Formatter().parse(_ending_trimmed(template)):
        pattern.append(re.escape(literal))
        own += len(literal)
        if name is not None:
            pattern.append(f"(?P={name})" if name in named else f"(?P<{name}>.+?)")
            named.add(name)
    return re.compile("".join(pattern), re.DOTALL), own


def matching_template(message: str, templates) -> tuple[tuple[str, str, str], dict[str, str]] | None:
    """The (template, told, hints) entry that wrote `message` and its values, the one with the most words of its
    own when several fit; None when none does."""
    text = _ending_trimmed(message)
    best = None
    for entry in templates:
        pattern, own = template_pattern(entry[0])
        found = pattern.fullmatch(text)
        if found is not None and (best is None or own > best[0]):
            best = (own, entry, found.groupdict())
    return None if best is None else (best[1], best[2])


def tool_failure(message: str, tr: Callable[[str], str] = str) -> tuple[str, str]:
    """(what happened, in the dock's language when a tool's template wrote it; the instructions to the assistant,
    in English as the model read them) of a failed call's message."""
    # Imported here: scripts/tool_error_templates.py loads this file on its own, for its split.
    from .tool_messages import TEMPLATES

    text = message.strip()
    after = text.endswith(HOST_HINT)
    found = matching_template(text[:-len(HOST_HINT)] if after else text, TEMPLATES)
    if found is None:
        return for_analyst(message)
    (_template, told, hints), values = found
    if _TO_THE_ASSISTANT.search(told.format(**values)):  # a value holds instructions: leave it all as written
        return for_analyst(message)
    instructions = " ".join(part for part in (hints.format(**values), HOST_HINT if after else "") if part)
    return tr(told).format(**values), instructions
