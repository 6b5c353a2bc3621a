"""Which tools the model sees, decided rarely so that the top of the prompt stays the same.

Chat templates render the tool list at the very top of the prompt (inside the system block),
and Ollama (llama.cpp) re-reads everything after the first token that differs from the
previous request. A tool list that changes at every step therefore makes the model re-read
the whole conversation at every step. So the list is:

- decided once per chat ("chat") or once per user message ("message"), not per step;
- kept in a stable order, and only ever grown: a tool unlocked by the project state (a
  raster appears) or relevant to a later message is appended at the end, never shuffled in;
- with few tools (`ALL_TOOLS_MAX`) whose descriptions take at most half of the context window,
  simply every allowed tool in the server's order; otherwise a selection per chat.

"step" re-selects at every step from the message and the latest thinking; it is kept for
comparison (bench/bench_prompt_cache.py) and is never the default.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Iterable, Sequence

from .tool_ranking import ToolSelector, as_query

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
MODES = ("auto", "all", "chat", "message", "step")
# Up to this many tools, "auto" offers them all: one stable list costs one read per chat, while
# a selection at K<=10 still misses tools (bench/bench_prompt_cache.py and
# bench/bench_agent_selection.py print both sides).
ALL_TOOLS_MAX = 60
# Of num_ctx: the rest is left to the conversation and the answer. At the default 16,384 the 38 tools
# (~7,000 tokens) are all offered: recall 1.0 and each later step re-reads only what it added, where a
# per-chat top-10 missed a needed tool for 17 % of the labelled requests (bench/bench_agent_selection.py).
ALL_TOOLS_SHARE = 1 / 2
GROWTH_LIMIT = 3  # a per-chat selection grown past this many times K starts over (one full re-read)


class ToolSet:
    def __init__(self, selector: ToolSelector, embed: EmbedFn | None, *, mode: str = "auto", top_k: int = 10,
                 embedding_model: str = "", all_tools_max: int = ALL_TOOLS_MAX, context_window: int = 0):
        if mode not in MODES:  # a hand-edited setting must not stop the chat
            log.warning("unknown tool set mode %r; using auto (one of %s)", mode, ", ".join(MODES))
            mode = "auto"
        self.selector = selector
        self.embed = embed
        self.mode = mode
        self.top_k = top_k
        self.embedding_model = embedding_model
        self.all_tools_max = all_tools_max
        self.context_window = context_window  # num_ctx; 0: not known
        self.all_tools_tokens = 0  # prompt tokens of every tool's description, set once the tools are known
        self.names: list[str] = []  # what the model saw at the last step, in that order
        self._message = ""
        self._vectors: dict[str, Any] = {}

    @property
    def effective_mode(self) -> str:
        """The mode in force: "auto" becomes "all" for a tool set small enough, else "chat"."""
        if self.mode != "auto":
            return self.mode
        few = len(self.selector.names) <= self.all_tools_max
        fits = not self.context_window or self.all_tools_tokens <= self.context_window * ALL_TOOLS_SHARE
        return "all" if few and fits else "chat"

    def reset(self) -> None:
        """Forgets the list (a new chat, or the tools changed)."""
        self.names = []
        self._message = ""

    async def for_step(self, message: str, thought: str = "", *, allowed: set[str] | None = None,
                       required: Iterable[str] = ()) -> list[str]:
        """The tool names to offer at this step of the request `message`, in a stable order."""
        mode = self.effective_mode
        new_message = message != self._message
        self._message = message
        required = [n for n in required if allowed is None or n in allowed]
        if mode == "all":
            chosen = [n for n in self.selector.names if allowed is None or n in allowed]
            self.names = _grown(self.names, chosen)
            return list(self.names)
        query = f"{message}\n{thought}".strip() if mode == "step" else message
        names = self.selector.select(query, await self._vector(query), k=self.top_k, allowed=allowed,
                                     required=required)
        if mode == "step" or (mode == "message" and new_message):
            self.names = names
        elif mode == "chat" and new_message and len(_grown(self.names, names)) > GROWTH_LIMIT * self.top_k:
            log.info("tool set grew past %d tools; starting a new one", GROWTH_LIMIT * self.top_k)
            self.names = names
        else:
            self.names = _grown(self.names, names)
        return list(self.names)

    async def _vector(self, query: str) -> Any:
        if query in self._vectors:
            return self._vectors[query]
        if self.embed is None or not self.selector.embeddings_ok:
            return None
        try:
            vector = (await self.embed([as_query(self.embedding_model, query)]))[0]
        except Exception as exc:  # selection degrades to keywords; the turn goes on
            log.warning("query embedding failed, selecting tools by keywords: %s", exc)
            return None
        if len(self._vectors) > 64:
            self._vectors.clear()
        self._vectors[query] = vector
        return vector


def _grown(current: list[str], chosen: Iterable[str]) -> list[str]:
    """`current` with the chosen names it lacks appended, in their order: nothing moves."""
    seen = set(current)
    return current + [n for n in chosen if n not in seen and not seen.add(n)]
