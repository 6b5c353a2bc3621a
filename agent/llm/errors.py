"""Errors a user can act on: each carries a message that says what to do."""

from __future__ import annotations

from ..dock_text import Said, SaidError, say, translatable


class LLMError(SaidError):
    """Base class. `str(err)` is a sentence for the user (in English); `said` keeps its parts, for the dock to
    say it in its language (an empty Said when it was written as plain text); `before_output` tells fallback logic
    whether the provider failed before streaming anything (then a backup may take over)."""

    before_output: bool = True

    def __init__(self, message: str | Said, *, before_output: bool = True):
        super().__init__(message)
        self.before_output = before_output


class ServerUnreachable(LLMError):
    """Ollama (or the OpenAI-compatible server) is not running at the configured URL."""


NOTHING_ANSWERS = "nothing answers at that address"


def unreachable_message(server: str, url: str, why: str | Said = NOTHING_ANSWERS) -> str:
    """The one wording of an outage, wherever the analyst meets it (status line, welcome card, a turn that
    failed, the settings check): what happened, then the fix."""
    return unreachable_said(server, url, why).text()


def unreachable_said(server: str, url: str, why: str | Said = NOTHING_ANSWERS) -> Said:
    """unreachable_message in its parts (ui/connection_text.py says the Ollama sentence with the same words)."""
    if why == NOTHING_ANSWERS:
        why = say(translatable("nothing answers at that address"))
    if server == "Ollama":
        return say(translatable("Ollama is not reachable at {url}: {why}. Start it with `ollama serve` (install it "
                                "from https://ollama.com), or set the Ollama URL with the Settings… button."),
                   url=url, why=why)
    return say(translatable("{server} is not reachable at {url}: {why}. Start it, or correct its URL with the "
                            "Settings… button."), server=server, url=url, why=why)


# Sentences more than one place ends a turn with.
ANSWER_CUT = translatable("The model's answer ended before it was complete. Send the message again.")
MODEL_STOPPED = translatable("The model stopped with an error: {error}")  # the server's own words in {error}


def cut_answer() -> LLMError:
    return LLMError(say(ANSWER_CUT), before_output=False)


class ModelNotFound(LLMError):
    """The model is not installed on the server (`ollama pull <model>`)."""


class ToolsNotSupported(LLMError):
    """The model cannot do native tool calling; `tool_capable` lists installed models that can."""

    def __init__(self, message: str | Said, *, tool_capable: tuple[str, ...] = (), before_output: bool = True):
        super().__init__(message, before_output=before_output)
        self.tool_capable = tool_capable


class ThinkingNotSupported(LLMError):
    """`think` was requested from a model without the thinking capability."""


class StreamError(LLMError):
    """The server reported an error in the middle of a stream (`{"error": ...}` line)."""


class LLMTimeout(LLMError):
    """No answer within the read timeout (a cold model load can take tens of seconds)."""


class ServerError(LLMError):
    """A 5xx or otherwise unexpected HTTP answer."""


