"""Which tools the model may call now, and which calls must wait for the user.

Each tool declares its safety through MCP annotations and its needs through
meta["stacgis"] (see agent/safety.py): "requires" (states such as "raster_layer" that
must hold), "provides" (states it creates, e.g. a loading tool provides "raster_layer"),
"discovery" (a read-only look-around that counts toward the exploration budget),
"always" (offered at every step whatever the selection says) and "judged" (a read-only tool whose call may be
code: offered in read-only chats, yet each call is judged and may ask, as a writing tool's). States come from the map
context ("qgis", "layer", "raster_layer", "vector_layer", "selection", "active_layer"), from
"provides", and from re-reading the project's layers after any tool that changed something.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .dock_text import Said, say, translatable
from .safety import Safety, judged_per_call, tool_policy_meta, tool_safety

STATE_MARKER = "[tools] "  # starts the state note appended to the newest message; session titles cut it off
NAMED = 4  # tools named per missing state in the note; the rest are counted

# The states in the analyst's words, for the dock's line of a call that must wait (others show by their name).
STATE_WORDS = {"qgis": say(translatable("a QGIS project")), "layer": say(translatable("a layer")),
               "raster_layer": say(translatable("a raster layer")),
               "vector_layer": say(translatable("a vector layer")),
               "selection": say(translatable("selected features")),
               "active_layer": say(translatable("an active layer"))}

# When a tool provides one of these, the generic states it implies hold as well.
_IMPLIED = {"raster_layer": {"layer"}, "vector_layer": {"layer"}, "mesh_layer": {"layer"},
            "point_cloud_layer": {"layer"}, "vector_tile_layer": {"layer"}}


@dataclass(frozen=True)
class ToolRule:
    name: str
    safety: Safety
    requires: frozenset[str] = frozenset()
    provides: frozenset[str] = frozenset()
    discovery: bool = False
    always: bool = False
    judged: bool = False  # each call is judged on its arguments before it runs (agent.safety.judged_per_call)

    @classmethod
    def from_tool(cls, tool: Any) -> ToolRule:
        meta = tool_policy_meta(tool)
        name = tool["name"] if isinstance(tool, dict) else tool.name
        return cls(name=name, safety=tool_safety(tool),
                   requires=frozenset(meta.get("requires") or ()),
                   provides=frozenset(meta.get("provides") or ()),
                   discovery=bool(meta.get("discovery", False)),
                   always=bool(meta.get("always", False)),
                   judged=judged_per_call(tool))


@dataclass
class Policy:
    rules: dict[str, ToolRule]
    exploration_budget: int = 7
    state: set[str] = field(default_factory=set)
    discovery_streak: int = 0

    @classmethod
    def from_tools(cls, tools: Iterable[Any], exploration_budget: int = 7) -> Policy:
        rules = {r.name: r for r in map(ToolRule.from_tool, tools)}
        return cls(rules=rules, exploration_budget=exploration_budget)

    def set_state(self, states: Iterable[str]) -> None:
        self.state = set(states)

    def set_layer_states(self, layer_kinds: Iterable[str]) -> bool:
        """Replaces the layer states with what the project holds now; True when they changed."""
        before = set(self.state)
        self.state = {s for s in self.state if s != "layer" and not s.endswith("_layer")}
        for kind in layer_kinds:
            self.state |= {"layer", f"{kind}_layer"}
        return self.state != before

    def allowed(self) -> set[str]:
        """The allow-list for this moment; recomputed after every state change."""
        return {name for name, rule in self.rules.items() if rule.requires <= self.state}

    def required_tools(self) -> list[str]:
        """Tools always offered when allowed, whatever the selection scores say."""
        allowed = self.allowed()
        return [name for name, rule in self.rules.items() if rule.always and name in allowed]

    def why_not_allowed(self, name: str) -> str | None:
        rule = self.rules.get(name)
        if rule is None:
            return None
        missing = sorted(rule.requires - self.state)
        if not missing:
            return None
        needs = ", ".join(m.replace("_", " ") for m in missing)
        providers = sorted(n for n, r in self.rules.items() if set(missing) & r.provides)[:5]
        hint = f" First use one of: {', '.join(providers)}." if providers else ""
        return f"Tool '{name}' is not available yet: it needs {needs}.{hint}"

    def why_not_allowed_said(self, name: str) -> Said:
        """why_not_allowed for the dock: what the call waits for, in the analyst's words (empty when it may run)."""
        rule = self.rules.get(name)
        missing = sorted(rule.requires - self.state) if rule is not None else []
        if not missing:
            return Said()
        needs = [STATE_WORDS.get(m) or m.replace("_", " ") for m in missing]
        return say(translatable("'{tool}' cannot run yet: it needs {needs}."), tool=name, needs=needs)

    def state_note(self) -> str:
        """What the project's state lets the model do now, in one line for the newest message.

        The tool list stays the same for the whole chat (the model's KV cache keeps it), so the
        routing by state is said here instead: which tools would refuse and what they wait for.
        Empty when every tool can run."""
        waiting: dict[str, list[str]] = {}
        for name, rule in self.rules.items():
            for need in sorted(rule.requires - self.state):
                waiting.setdefault(need, []).append(name)
        if not waiting:
            return ""
        parts = []
        for need, names in sorted(waiting.items()):
            shown = ", ".join(names[:NAMED]) + (f" and {len(names) - NAMED} more" if len(names) > NAMED else "")
            parts.append(f"no {need.replace('_', ' ')} yet, so {shown} will refuse")
        return STATE_MARKER + "; ".join(parts) + "."

    def is_destructive(self, name: str) -> bool:
        rule = self.rules.get(name)
        return rule is not None and rule.safety is Safety.DESTRUCTIVE

    def is_read_only(self, name: str) -> bool:
        rule = self.rules.get(name)
        return rule is not None and rule.safety is Safety.READ

    def is_judged(self, name: str) -> bool:
        """Whether a call must be judged on its arguments before it runs (it may change data, or be code); a tool
        the policy does not know is judged."""
        rule = self.rules.get(name)
        return rule is None or rule.judged

    def after_call(self, name: str, ok: bool) -> bool:
        """Records a finished call; returns True when the state changed (refresh the allow-list)."""
        rule = self.rules.get(name)
        if rule is None:
            return False
        if rule.discovery and rule.safety is Safety.READ:
            self.discovery_streak += 1
        elif ok:  # a non-discovery call that worked is progress
            self.discovery_streak = 0
        if not ok or not rule.provides:
            return False
        before = set(self.state)
        for state in rule.provides:
            self.state.add(state)
            self.state |= _IMPLIED.get(state, set())
        return self.state != before

    def exploration_exhausted(self) -> bool:
        return self.exploration_budget > 0 and self.discovery_streak >= self.exploration_budget

    def reset_exploration(self) -> None:
        self.discovery_streak = 0
