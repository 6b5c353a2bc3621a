"""Finds where product code reaches a sink (something that interprets or fetches text: the expression engine,
GDAL's dataset names, a browser, a fetcher, a writer of several files) outside the one guard module of that sink.

A sink is named by the calls that reach it: a function or class name (`QgsExpression`, `setFilterExpression`,
`gdal.Open` is `Open`), matched on the called name whatever it is called through (`x.setFilterExpression(…)`,
`QgsExpression(…)`, `core.QgsExpression(…)`). `reached_outside` reads the source (no import is run) and returns
every call of the sink's names in product code except in the guard's own module(s), as `path:line name`.

Each family of sinks has a test that lists its names and its guard, and proves the scan finds a planted call.

Where the guard hands out checked values instead of making the calls itself (GDAL dataset names: a layer is
built in canvas/, a dataset opened in engine/), a call passes when its source argument is a call of one of the
guard's `checked_by` functions (`QgsRasterLayer(dataset(name), …)`); `source_positions` says where the source is
when it is not the first argument. `literals`: string prefixes that name the sink too (`"STACIT:…"`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("agent", "host", "tools", "ui", "plugin")


@dataclass(frozen=True)
class Sink:
    what: str  # in words: "the QGIS expression engine"
    calls: tuple[str, ...]  # the called names that reach it
    guards: tuple[str, ...]  # the module(s) allowed to call them, as paths from the repository root
    # a call whose first argument is one of these plain literals is harmless (e.g. QgsExpression("1"))
    literal_ok: bool = False
    checked_by: tuple[str, ...] = ()  # a call whose source argument is a call of one of these passes
    source_positions: tuple[tuple[str, int], ...] = ()  # (called name, position of its source) if not 0
    literals: tuple[str, ...] = ()  # string constants starting so reach the sink as well
    # "path::function": a function allowed to make the call, each with its reason in the sink's test
    allowed_in: tuple[str, ...] = ()


def product_files(root: Path = ROOT) -> list[Path]:
    files = [root / "__init__.py"] if (root / "__init__.py").exists() else []
    for folder in PRODUCT:
        files += sorted((root / folder).rglob("*.py"))
    return files


def _called_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _only_literals(node: ast.Call) -> bool:
    args = list(node.args) + [k.value for k in node.keywords]
    return all(isinstance(a, ast.Constant) for a in args)


def _checked_source(sink: Sink, node: ast.Call) -> bool:
    """Whether the call hands its source through one of the guard's checked-name functions (or has none)."""
    position = dict(sink.source_positions).get(_called_name(node), 0)
    if len(node.args) <= position:
        return not node.keywords  # no source at all (an empty layer)
    source = node.args[position]
    if isinstance(source, ast.Call) and _called_name(source) == "QUrl" and source.args:
        source = source.args[0]  # QDesktopServices.openUrl(QUrl(checked(…)))
    if isinstance(source, ast.Constant):
        return sink.literal_ok
    return isinstance(source, ast.Call) and _called_name(source) in sink.checked_by


def _literal_start(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return ""


def reached_outside(sink: Sink, root: Path = ROOT) -> list[str]:
    """Every call of the sink's names in product code outside its guard module(s)."""
    found = []
    guards = {str(Path(g)) for g in sink.guards}
    for path in product_files(root):
        relative = str(path.relative_to(root))
        if relative in guards:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        allowed_lines = {line for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and f"{relative}::{fn.name}" in sink.allowed_in
                         for line in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in sink.calls:
                if sink.literal_ok and _only_literals(node):
                    continue
                if sink.checked_by and _checked_source(sink, node):
                    continue
                if node.lineno in allowed_lines:
                    continue
                found.append(f"{relative}:{node.lineno} {_called_name(node)}")
            elif sink.literals and _literal_start(node).startswith(sink.literals):
                found.append(f"{relative}:{node.lineno} {_literal_start(node).split(':', 1)[0]!r}")
    return sorted(set(found))


def calls_in(sink: Sink, root: Path = ROOT) -> list[str]:
    """Every call of the sink's names in product code, the guards' included (to show the scan reads the tree)."""
    return reached_outside(Sink(sink.what, sink.calls, guards=(), literals=sink.literals), root)
