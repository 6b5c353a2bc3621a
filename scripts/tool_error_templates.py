"""The message templates of the tools' errors, for the dock to say them in the analyst's language while the
model keeps reading the English: every `ToolInputError(...)`/`ToolError(...)` (and the error classes of tools/
that derive from them) built in tools/** from a string or an f-string becomes a template, each value of the
f-string a {placeholder} named after its expression (read with ast, nothing of tools/ imported). A message built
another way (a variable, +, .format) is skipped, and so is a template too bare to recognise (fewer than two words
of its own, or two values side by side).

Each template is split as the dock splits a tool's error (ui/tool_error_text.py: what happened for the analyst,
the instructions to the assistant): the analyst's part goes to the .ts catalogs, and ui/tool_messages.py (generated,
committed) lists (template, analyst's part, instructions) for the dock to match. Used by scripts/i18n_strings.py.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

BASE_ERRORS = ("ToolInputError", "ToolError")
MODULE = Path("ui") / "tool_messages.py"
_TEXT_METHODS = {"strip", "lstrip", "rstrip", "lower", "upper", "title", "casefold"}
_CONVERTERS = {"str", "repr", "int", "float", "round", "sorted", "list", "tuple", "set", "abs", "format", "len"}


@dataclass
class Extraction:
    templates: list[str] = field(default_factory=list)  # in file and line order, each once
    skipped: list[str] = field(default_factory=list)  # "path:line why" of the messages built another way
    bare: list[str] = field(default_factory=list)  # "path:line template" too bare to recognise


def _splitter(repo: Path):
    """ui/tool_error_text.py's split, loaded from its file (plain Python; the package is not imported)."""
    spec = importlib.util.spec_from_file_location("_tool_error_text", repo / "ui" / "tool_error_text.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.split_template


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier():
            return key.value
        return _name(node.value)
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "join":
            return _name(node.args[0])
        if isinstance(func, ast.Name) and func.id in _CONVERTERS:
            return ("number_of_" if func.id == "len" else "") + _name(node.args[0])
        if isinstance(func, ast.Name) and func.id == "map" and len(node.args) == 2:
            return _name(node.args[1])
        key = node.args[0]
        if (isinstance(func, ast.Attribute) and func.attr == "get" and isinstance(key, ast.Constant)
                and isinstance(key.value, str) and key.value.isidentifier()):
            return key.value  # item.get("id"): the id
        return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "value")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in _TEXT_METHODS:
            return _name(node.func.value)  # name.strip(): the name
        return node.func.attr
    return "value"


def _identifier(text: str) -> str:
    text = re.sub(r"\W+", "_", text).strip("_").lower()
    return text if text and not text[0].isdigit() else "value"


def template_of(node: ast.AST) -> str | None:
    """A string or f-string as a template ({placeholders} named after the expressions); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(node, ast.JoinedStr):
        return None
    names: dict[str, str] = {}  # expression's source -> its placeholder
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            continue
        source = ast.unparse(value.value)
        if source not in names:
            base = _identifier(_name(value.value))
            name, n = base, 1
            while name in names.values():
                n += 1
                name = f"{base}_{n}"
            names[source] = name
        parts.append("{" + names[source] + "}")
    return "".join(parts)


def error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """ToolInputError, ToolError and every class of tools/ deriving from them, however deep."""
    known = set(BASE_ERRORS)
    while True:
        found = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                 and any(_name(base) in known for base in node.bases)} - known
        if not found:
            return known
        known |= found


def _bare(template: str) -> bool:
    literal = re.sub(r"\{\w+\}", "\0", template.replace("{{", "").replace("}}", ""))
    return len(re.findall(r"[A-Za-z]{2,}", literal)) < 2 or "\0\0" in literal


def extract(repo: Path) -> Extraction:
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path))
             for path in sorted((repo / "tools").rglob("*.py"))}
    classes = error_classes(trees)
    found = Extraction()
    seen: dict[str, None] = {}
    for path, tree in trees.items():
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
                        and isinstance(n.func, (ast.Name, ast.Attribute)) and _name(n.func) in classes),
                       key=lambda n: (n.lineno, n.col_offset))
        for call in calls:
            where = f"{path.relative_to(repo)}:{call.lineno}"
            template = template_of(call.args[0])
            if template is None:
                found.skipped.append(f"{where} {type(call.args[0]).__name__}: {ast.unparse(call.args[0])[:60]}")
            elif _bare(template):
                found.bare.append(f"{where} {template}")
            else:
                seen.setdefault(template, None)
    found.templates = list(seen)
    return found


def entries(repo: Path) -> list[tuple[str, str, str]]:
    """(template, the analyst's part, the instructions to the assistant) of every template with a part for the
    analyst (one that only tells the assistant what to do is left to the dock's English)."""
    split = _splitter(repo)
    rows = []
    for template in extract(repo).templates:
        told, hints = split(template)
        if told:
            rows.append((template, told, hints))
    return rows


def module_text(rows: list[tuple[str, str, str]]) -> str:
    lines = ['"""Generated by scripts/i18n_strings.py (`make translations`) from the errors the tools raise; do not '
             'edit.', "(template, what the analyst reads, the instructions to the assistant): ui/tool_error_text.py "
             'matches a tool\'s', 'English message against them and says the analyst\'s part in the dock\'s language."""',
             "", "TEMPLATES = ("]
    lines += [f"    ({t!r}, {told!r}, {hints!r})," for t, told, hints in rows]
    lines.append(")")
    return "\n".join(lines) + "\n"


def write_module(repo: Path) -> int:
    rows = entries(repo)
    (repo / MODULE).write_text(module_text(rows), encoding="utf-8")
    return len(rows)


def module_problems(repo: Path) -> list[str]:
    if not (repo / "tools").is_dir():
        return []
    path = repo / MODULE
    if not path.is_file() or path.read_text(encoding="utf-8") != module_text(entries(repo)):
        return [f"{MODULE} is behind the tools' errors: run `make translations`"]
    return []


if __name__ == "__main__":
    result = extract(Path(__file__).resolve().parents[1])
    print(f"{len(result.templates)} templates, {len(result.skipped)} built another way, {len(result.bare)} too bare")
    print("\n".join(["skipped:", *result.skipped, "too bare:", *result.bare]))
