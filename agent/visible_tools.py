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

The first request of a chat reads the whole tool block; "auto" keeps it short (4,470 tokens with the
Qwen3 template against 11,812 for every tool in full, and tool choice no worse:
bench/bench_first_prompt.py; "all" sends every tool in full): the tools the
labelled requests rarely need (`HELD_BACK`) are not listed one by one but named, with their
parameters, in the description of one listed tool, `call_tool(name, arguments)`. A call through it
is unwrapped (`unwrap_call`) before anything else looks at it: the named tool's own schema
validates it, the project state may refuse it and a destructive one asks the user, exactly as a
direct call (bench/bench_first_prompt.py prints tokens and tool choice before and after).
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any, Awaitable, Callable, Iterable, Mapping, Sequence

from .llm.types import ToolCall, ToolSpec
from .tool_ranking import ToolSelector, as_query

log = logging.getLogger(__name__)

EmbedFn = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
MODES = ("auto", "all", "chat", "message", "step", "compact")
HOLDING_MODES = ("auto", "compact")  # "compact" is the name "auto" had when holding back was opt-in
# Up to this many tools, "auto" offers them all: one stable list costs one read per chat, while
# a selection at K<=10 still misses tools (bench/bench_prompt_cache.py and
# bench/bench_agent_selection.py print both sides).
ALL_TOOLS_MAX = 60
# Of num_ctx: the rest is left to the conversation and the answer. At the default 16,384 the 38 tools
# (~7,000 tokens) are all offered: recall 1.0 and each later step re-reads only what it added, where a
# per-chat top-10 missed a needed tool for 17 % of the labelled requests (bench/bench_agent_selection.py).
ALL_TOOLS_SHARE = 1 / 2
GROWTH_LIMIT = 3  # a per-chat selection grown past this many times K starts over (one full re-read)
CALL_TOOL = "call_tool"
# Tools needed by few of the 194 labelled requests (tests/data/analyst_requests.json; at most 9 each)
# or by none, and the largest schemas among them: in "auto" they are named in call_tool's description
# instead of having a schema each.
HELD_BACK = frozenset({
    "add_knowledge", "add_memory", "add_result_layer", "collection_statistics", "delete_memory",
    "export_animation", "export_print_layout", "get_item", "get_selected_features", "get_timeseries",
    "get_vector_feature", "list_catalogs", "list_vector_layers", "load_stac_items", "make_atlas",
    "make_print_layout", "query_multiple_rasters_point", "query_vector_by_bbox", "remove_layer",
    "run_processing_algorithm_to_files", "search_knowledge", "search_memories", "search_vector_features",
    "set_map_style", "toggle_ui_panel", "undo_last_turn", "compute_index", "get_map_view", "generate_chart",
    "detect_change", "get_raster_info", "set_layer_style", "get_layout_view",
    # named rather than listed because the first prompt stays under 4,500 tokens with no loss of choice
    "export_session_report", "get_collection_info", "load_stac_asset", "zoom_to_location",
})
PURPOSE_WORDS = 20  # of a held-back tool's description, in call_tool's catalogue (13: fewer words to
# match: the right tool ranked first for 0.500 of the labelled requests instead of 0.536)
OPTIONAL_SHOWN = 0  # optional parameters named in the catalogue; list_available_tools gives them all
PARAMETER_WORDS = 0  # of a listed tool's parameter description in "auto": only its bounds and default
# Parameters that mean the same in every tool: described once in the system prompt (resources/prompts/
# system.md) instead of in each schema.
SHARED_PARAMETERS = frozenset({"bbox", "datetime", "catalog", "collection", "collections", "item_id", "layer",
                               "source", "asset"})
_SENTENCE = re.compile(r"(?<!e\.g)(?<!i\.e)\.\s|;\s")
_EXAMPLE = re.compile(r"\bE\.g\. '([^']{3,80})'")
_DANGLING = frozenset("a an the of for by with without at to and or in on from".split())
_HINT = re.compile(r"\s*\(([^()]*)\)\s*$")
_CLAUSE = re.compile(r";\s|,?\s(?:e\.g\.?|for example)[\s,:]")


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
        self.all_tools_tokens = 0  # prompt tokens of the tool block "all" would send, set by measure()
        self.names: list[str] = []  # what the model saw at the last step, in that order
        self._message = ""
        self._vectors: dict[str, Any] = {}

    @property
    def effective_mode(self) -> str:
        """The mode in force: "auto" (and "compact") becomes "all" for a tool set small enough, else "chat"."""
        if self.mode not in ("auto", "compact"):
            return self.mode
        few = len(self.selector.names) <= self.all_tools_max
        fits = not self.context_window or self.all_tools_tokens <= self.context_window * ALL_TOOLS_SHARE
        return "all" if few and fits else "chat"

    @property
    def holds_back(self) -> bool:
        """Whether the rarely used tools are reached through call_tool ("auto" offering every tool)."""
        return (self.mode in HOLDING_MODES and self.effective_mode == "all"
                and any(name in HELD_BACK for name in self.selector.names))

    def measure(self, specs: Mapping[str, ToolSpec], estimate: Callable[[list, list], int]) -> None:
        """Prompt tokens of every tool as this mode sends them ("auto": held-back ones through call_tool)."""
        lean = self.mode in HOLDING_MODES and any(name in HELD_BACK for name in specs)
        self.all_tools_tokens = estimate([], self.specs_for(list(specs), specs, hold_back=lean))

    def specs_for(self, names: Sequence[str], specs: Mapping[str, ToolSpec],
                  hold_back: bool | None = None) -> list[ToolSpec]:
        """The tool block for `names`: each tool's own spec, or, for the held-back ones, one line each
        in call_tool's description (appended last, so the block keeps its order as it grows)."""
        shown = [specs[n] for n in names if n in specs]
        if not (self.holds_back if hold_back is None else hold_back):
            return shown
        held = [s for s in shown if s["function"]["name"] in HELD_BACK]
        listed = [lean_spec(s) for s in shown if s["function"]["name"] not in HELD_BACK]
        return listed + ([call_tool_spec(held)] if held else [])

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


def call_tool_spec(held: Sequence[ToolSpec]) -> ToolSpec:
    """One listed tool that runs any of `held` by name; its description is their catalogue."""
    lines = "; ".join(f"{signature(s)}: {purpose(s)}" for s in held)
    return {"type": "function", "function": {
        "name": CALL_TOOL,
        "description": f"Runs one of these tools by name: {lines}.",
        "parameters": {"type": "object", "properties": {
            "name": {"type": "string", "description": "The tool's name, from the list above"},
            "arguments": {"type": "object", "description": "Its parameters by name"},
        }, "required": ["name"]}}}


def signature(spec: ToolSpec) -> str:
    """`name(required, …)`: the parameters a held-back tool needs, in its schema's order."""
    function = spec["function"]
    schema = function.get("parameters") or {}
    required = list(schema.get("required") or ())
    optional = [p for p in (schema.get("properties") or {}) if p not in required]
    params = required + [f"{p}?" for p in optional[:OPTIONAL_SHOWN]]
    return f"{function['name']}({', '.join(params)})"


def purpose(spec: ToolSpec) -> str:
    """The first sentence of a tool's description (at most PURPOSE_WORDS words) and its example
    request, in the analyst's words, when it gives one ("E.g. 'zoom to Lyon'")."""
    text = " ".join(str(spec["function"].get("description") or "").split())
    first = _words(_SENTENCE.split(text, 1)[0], PURPOSE_WORDS)
    example = _EXAMPLE.search(text)
    return f"{first} ('{example.group(1)}')" if example else first


def lean_spec(spec: ToolSpec) -> ToolSpec:
    """A listed tool's spec with its parameters described shortly: a shared parameter not at all (the
    system prompt says what it means), any other by its first clause and its bounds/default."""
    spec = copy.deepcopy(spec)
    for name, prop in ((spec["function"].get("parameters") or {}).get("properties") or {}).items():
        if not isinstance(prop, dict) or "description" not in prop:
            continue
        text = str(prop.pop("description"))
        hint = _HINT.search(text)
        main = _words(_CLAUSE.split(text[: hint.start()] if hint else text, 1)[0], PARAMETER_WORDS)
        if name in SHARED_PARAMETERS:
            continue
        short = " ".join(p for p in (main, f"({hint.group(1)})" if hint else "") if p)
        if short:
            prop["description"] = short
    return spec


def _words(text: str, limit: int) -> str:
    words = text.strip().rstrip(".").split()[:limit]
    while len(words) > 1 and words[-1].lower().strip(",;:(") in _DANGLING:
        words.pop()  # "Values of several rasters at the" reads better without "at the"
    text = " ".join(words)
    if text.count("(") > text.count(")"):  # cut inside a parenthesis: end before it
        text = text[: text.rindex("(")]
    return text.rstrip(",;:( ")


def unwrap_call(call: ToolCall) -> ToolCall:
    """call_tool(name, arguments) as the call of the tool it names, same id: validation, the state
    allow-list and the confirmation of destructive calls then judge that tool, never call_tool.
    A small model may put the arguments beside `name` or as a JSON string: both are read."""
    if call.name != CALL_TOOL or not isinstance(call.arguments, dict):
        return call
    args = dict(call.arguments)
    name = args.pop("name", None)
    if not isinstance(name, str) or not name.strip() or name.strip() == CALL_TOOL:
        return call  # not a tool server's name: refused as an unknown tool
    inner: Any = args.pop("arguments", None)
    if isinstance(inner, str):
        try:
            inner = json.loads(inner) if inner.strip() else {}
        except ValueError:
            pass  # left as text: the named tool's schema refuses it with a sentence
    if inner is None:
        inner = args
    elif args and isinstance(inner, dict):
        inner = {**args, **inner}
    return ToolCall(call.id, name.strip(), inner if isinstance(inner, dict) else {"arguments": inner})


def _grown(current: list[str], chosen: Iterable[str]) -> list[str]:
    """`current` with the chosen names it lacks appended, in their order: nothing moves."""
    seen = set(current)
    return current + [n for n in chosen if n not in seen and not seen.add(n)]
