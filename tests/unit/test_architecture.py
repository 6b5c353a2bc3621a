"""The house rules a newcomer can rely on, read from the source itself (no import is run):

- the product's import graph (agent, tools, ui, host, plugin, __init__.py) has no circle,
  lazy and type-checking imports included;
- the top level holds no loose module besides __init__.py (and the entry points, plugin/ or plugin.py);
- agent/ never imports qgis or Qt: that is what keeps the core testable without QGIS;
- the floors go one way: agent < host < tools < ui < plugin (a module imports only from its own floor
  or one below: a widget never reaches into the tools, it is handed what it needs by plugin/);
- tools/engine/ (the compute run in worker threads and on Dask workers) never imports qgis or Qt, nor any
  tools module outside the engine but the face's `common`, nor any agent module but `redaction` (plain data in,
  plain data out);
- inside tools/ the rooms go one way too, lowest first: the shared conventions (`common`, `confirmation`,
  `output_names`) < `engine/` < `stac/` < the face (`deps`, `declare`, `heavy_calls`) < `analysis/` < `search/`
  < `session/` < `canvas/` (whose own rooms go `undo/` < the map's own modules < `layers/` < `processing/` <
  `layouts/` < `family`) < `server` < `outside/`; a new module or room must be given its place;
- no two places in product code hold the same function or class body;
- the bootstrap (classFactory, initGui, the requirements check and the Install-dependencies panel)
  imports nothing QGIS does not ship: on a fresh QGIS it is what offers to install the rest.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "stacgis_agent"
PRODUCT = ("agent", "tools", "ui", "host", "plugin")
ROOT_MODULES = ("__init__.py", "plugin.py")  # plugin.py: the entry points as one module (the tests' small trees)
FORBIDDEN_IN_AGENT = ("qgis", "PyQt5", "PyQt6", "PySide2", "PySide6", "qasync", "sip")
# What QGIS's own Python has besides the stdlib (Windows and macOS installers, Debian's qgis packages).
SHIPPED_WITH_QGIS = ("qgis", "PyQt5", "PyQt6", "sip", "osgeo", "numpy", "processing")
# Code that runs only once the requirements are met: its imports are not the bootstrap's.
AFTER_REQUIREMENTS = {
    "stacgis_agent.plugin": ("StacGisAgentPlugin._start_agent", "StacGisAgentPlugin._register_processing"),
    "stacgis_agent.host.settings_store": ("with_postgres_password",),
}
FLOORS = ("agent", "host", "tools", "ui", "plugin")  # lowest first
ENGINE = "tools/engine"
# itself, the input errors, and the secrets redactor (GDAL's messages pass through it)
ENGINE_MAY_IMPORT = ("stacgis_agent.tools.engine", "stacgis_agent.tools.common", "stacgis_agent.agent.redaction")
# The rooms of tools/, lowest first: a module imports only from its own room or one below (the longest prefix
# names a module's room; tools/'s own __init__ holds nothing).
TOOLS_ROOMS = (
    ("common", "confirmation", "output_names"),  # conventions every call shares, and the gate
    ("engine",),  # plain data compute, in workers and on Dask
    ("stac",),  # catalogs and their documents
    ("deps", "declare", "heavy_calls"),  # the face: what a tool reaches, how it is declared, the limit on long calls
    ("analysis",),
    ("search",),
    ("session",),
    ("canvas.undo",),
    ("canvas.project_access", "canvas.place_lookup", "canvas.zoom", "canvas.picture_checks", "canvas.map_view",
     "canvas.basemaps", "canvas.ellipsoid", "canvas.panels", "canvas.housekeeping"),  # the map's own view, and what every canvas room needs
    ("canvas.layers",),
    ("canvas.processing",),
    ("canvas.layouts",),
    ("canvas.family", "canvas"),
    ("server",),
    ("outside", "stdio_bridge", ""),
)
MIN_BODY_NODES = 20  # smaller bodies (a property, a one-line delegation, an aclose) may well repeat


def product_files(root: Path = ROOT) -> list[Path]:
    files = [root / name for name in ROOT_MODULES if (root / name).exists()]
    for folder in PRODUCT:
        files += sorted((root / folder).rglob("*.py"))
    return files


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """Module names as written (relative ones with their leading dots); `from x import name` comes
    back as `x.name`, which is the module x.name if there is one, else a name inside x."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return _imports_in(ast.walk(tree))


def _imports_in(nodes) -> list[tuple[int, str]]:
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found += [(node.lineno, f"{base}{'' if base.endswith('.') else '.'}{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            found.append((node.lineno, str(node.args[0].value)))
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the product modules it imports (a `from x import name` counts `x.name` when that
    is a module, else `x`)."""
    files = product_files(root)
    modules = {module_name(f, root): f for f in files}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for _, written in _imported_modules(path):
            target = _absolute(written, package)
            while target and target not in modules and "." in target:
                target = target.rpartition(".")[0]  # `from x import name`: name is not a module
            if target in modules and target != name and target != PACKAGE:
                graph[name].add(target)
    return graph


def _absolute(written: str, package: str) -> str:
    if not written.startswith("."):
        return written
    level = len(written) - len(written.lstrip("."))
    base = package.split(".")
    base = base[:len(base) - (level - 1)] if level > 1 else base
    rest = written.lstrip(".")
    return ".".join(base + ([rest] if rest else []))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def loose_root_modules(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in root.glob("*.py") if p.name not in ROOT_MODULES)


def repeated_bodies(files: list[Path], root: Path = ROOT) -> list[list[str]]:
    """Groups of places (file:line name) whose function or class bodies are the same code."""
    seen: dict[str, list[str]] = defaultdict(list)
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            shape = ast.dump(ast.Module(body=body, type_ignores=[]), annotate_fields=False)
            if sum(1 for _ in ast.walk(ast.Module(body=body, type_ignores=[]))) >= MIN_BODY_NODES:
                seen[shape].append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return [places for places in seen.values() if len(places) > 1]


def _nodes_run_before_requirements(tree: ast.AST, after: tuple[str, ...]):
    """Every node except the bodies of the functions/classes named in `after` (dotted within the
    module) and of `if TYPE_CHECKING:` blocks, which never run."""
    pending = [(tree, "")]
    while pending:
        node, prefix = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if name not in after:
                    pending.append((child, name + "."))
                continue
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                pending += [(n, prefix) for n in child.orelse]
                continue
            yield child
            pending.append((child, prefix))


def bootstrap_imports(root: Path = ROOT, after: dict[str, tuple[str, ...]] = AFTER_REQUIREMENTS,
                      start: str = PACKAGE) -> tuple[set[str], list[str]]:
    """(the product modules the bootstrap imports, every import of one that QGIS does not ship), walked
    from the package's __init__ (classFactory) through every import that can run before the check."""
    modules = {module_name(f, root): f for f in product_files(root)}
    seen, queue, offenders = {start}, [start], []
    while queue:
        name = queue.pop()
        path = modules[name]
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, written in _imports_in(_nodes_run_before_requirements(tree, after.get(name, ()))):
            target = _absolute(written, package)
            top = target.split(".")[0]
            if top != PACKAGE:
                if top not in sys.stdlib_module_names and top not in SHIPPED_WITH_QGIS:
                    offenders.append(f"{path.relative_to(root)}:{line} imports {target}")
                continue
            parts = target.split(".")
            for depth in range(2, len(parts) + 1):  # the packages' __init__ run too
                prefix = ".".join(parts[:depth])
                if prefix in modules and prefix not in seen:
                    seen.add(prefix)
                    queue.append(prefix)
    return seen, sorted(offenders)


def floor(module: str) -> int:
    """The floor of a product module (the package's own __init__ counts as the plugin's)."""
    parts = module.split(".")
    return FLOORS.index(parts[1]) if len(parts) > 1 and parts[1] in FLOORS else FLOORS.index("plugin")


def imports_against_the_floors(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{name} imports {target}" for name, targets in graph.items() for target in targets
                  if floor(target) > floor(name))


def tools_room(module: str, rooms=TOOLS_ROOMS) -> int | None:
    """The place of a tools/ module in `rooms` (None outside tools/); a module no room names raises."""
    prefix = f"{PACKAGE}.tools"
    if module != prefix and not module.startswith(prefix + "."):
        return None
    rest = module[len(prefix) + 1:]
    best = None
    for place, names in enumerate(rooms):
        for name in names:
            if rest == name or rest.startswith(name + ".") or name == "" and rest == "":
                if best is None or len(name) > best[1]:
                    best = (place, len(name))
    if best is None:
        raise LookupError(f"{module} has no place in TOOLS_ROOMS: give its room a place in the order")
    return best[0]


def tools_back_arrows(graph: dict[str, set[str]], rooms=TOOLS_ROOMS) -> list[str]:
    return sorted(f"{name} imports {target}" for name, targets in graph.items() for target in targets
                  if tools_room(name, rooms) is not None and tools_room(target, rooms) is not None
                  and tools_room(target, rooms) > tools_room(name, rooms))


def engine_offenders(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / ENGINE).rglob("*.py")):
        package = module_name(path, root).rpartition(".")[0] if path.name != "__init__.py" else module_name(path, root)
        for line, written in _imported_modules(path):
            target = _absolute(written, package)
            top = target.split(".")[0]
            if top in FORBIDDEN_IN_AGENT or (top == PACKAGE and not target.startswith(ENGINE_MAY_IMPORT)):
                found.append(f"{path.relative_to(root)}:{line} imports {target}")
    return found


def tools_declared_elsewhere(root: Path = ROOT) -> list[str]:
    """Tools, resources, prompts or assessors added some other way than as module-level functions marked
    in tools/declare.py: a decorated closure, a `register(server, …)` function, `add_tool`/`add_assessor`."""
    found = []
    for path in sorted((root / "tools").rglob("*.py")):
        if path.name == "declare.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(root)
        found += [f"{where}:{node.lineno} def register" for node in tree.body
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "register"]
        for outer in ast.walk(tree):
            if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(outer):
                if node is not outer and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                        and d.func.attr in ("tool", "resource", "prompt") for d in node.decorator_list):
                    found.append(f"{where}:{node.lineno} {node.name} declared inside {outer.name}")
                if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) == "add_tool"
                                                   or getattr(node.func, "id", None) == "add_assessor"):
                    found.append(f"{where}:{node.lineno} added by a call in {outer.name}")
    return sorted(set(found))


# ---- the rules -------------------------------------------------------------------------------
def test_the_floors_are_imported_one_way_only():
    graph = import_graph()
    assert any(floor(t) < floor(n) for n, ts in graph.items() for t in ts)  # the floors really were read
    assert imports_against_the_floors(graph) == []


def test_the_rooms_of_tools_are_imported_one_way_only():
    graph = import_graph()
    places = {tools_room(name) for name in graph} - {None}  # every module has a place, or this raised
    assert len(places) == len(TOOLS_ROOMS)  # every room in the order holds modules
    assert tools_back_arrows(graph) == []


def test_the_engine_is_plain_data_with_no_qgis():
    assert len(list((ROOT / ENGINE).glob("*.py"))) > 10
    assert engine_offenders() == []


def test_the_import_graph_has_no_circle():
    graph = import_graph()
    assert len(graph) > 50 and sum(map(len, graph.values())) > 100  # the scan really read the tree
    assert cycles(graph) == []


def test_no_loose_module_at_the_top_level():
    assert loose_root_modules() == []


def test_no_module_under_agent_imports_qgis_or_qt():
    files = sorted((ROOT / "agent").rglob("*.py"))
    assert len(files) > 10
    offenders = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                 for path in files for line, module in _imported_modules(path)
                 if module.split(".")[0] in FORBIDDEN_IN_AGENT]
    assert offenders == []


def test_the_bootstrap_imports_only_what_qgis_ships():
    reached, offenders = bootstrap_imports()
    assert {"stacgis_agent.plugin", "stacgis_agent.host.requirements", "stacgis_agent.ui.dock",
            "stacgis_agent.host.settings_store"} <= reached  # the walk really followed classFactory
    assert offenders == []


def test_no_two_places_hold_the_same_body():
    assert repeated_bodies(product_files()) == []


def test_every_tool_is_declared_once_at_module_level():
    assert len(list((ROOT / "tools").rglob("*.py"))) > 50  # the scan really read the tools
    assert tools_declared_elsewhere() == []


# ---- the checks catch what they are meant to catch ----------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_a_circle_through_a_type_checking_import_is_found(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "", "plugin.py": "def f():\n    from .ui.dock import Dock\n",
        "agent/__init__.py": "", "agent/loop.py": "from .turn import Turn\n",
        "agent/turn.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .loop import Loop\n",
        "ui/__init__.py": "", "ui/dock.py": "from ..agent import loop\n", "tools/__init__.py": "",
        "host/__init__.py": ""})
    graph = import_graph(root)
    assert graph["stacgis_agent.ui.dock"] == {"stacgis_agent.agent.loop"}
    assert graph["stacgis_agent.plugin"] == {"stacgis_agent.ui.dock"}
    assert cycles(graph) == [["stacgis_agent.agent.loop", "stacgis_agent.agent.turn"]]


def test_an_import_against_the_floors_and_qgis_in_the_engine_are_found(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "", "plugin.py": "from .ui import dock\n", "agent/__init__.py": "", "host/__init__.py": "",
        "host/store.py": "def edit():\n    from ..ui.dialog import Dialog\n", "ui/__init__.py": "",
        "ui/dialog.py": "from ..tools import common\n", "ui/dock.py": "from ..agent import loop\n",
        "agent/loop.py": "", "tools/__init__.py": "", "tools/common.py": "", "tools/engine/__init__.py": "",
        "tools/engine/reads.py": "from ..common import X\nfrom . import grid\n",
        "tools/engine/grid.py": "def f():\n    from qgis.core import QgsProject\n    from ..server import s\n",
        "tools/server.py": ""})
    assert imports_against_the_floors(import_graph(root)) == [
        "stacgis_agent.host.store imports stacgis_agent.ui.dialog"]
    assert engine_offenders(root) == ["tools/engine/grid.py:2 imports qgis.core.QgsProject",
                                      "tools/engine/grid.py:3 imports stacgis_agent.tools.server.s"]


def test_an_import_back_up_inside_tools_and_a_module_with_no_place_are_found(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "", "plugin.py": "", "agent/__init__.py": "", "host/__init__.py": "", "ui/__init__.py": "",
        "tools/__init__.py": "", "tools/common.py": "", "tools/engine/__init__.py": "",
        "tools/engine/bands.py": "from ..stac.catalogs import Registry\n", "tools/stac/__init__.py": "",
        "tools/stac/catalogs.py": "from ..engine import bands\nfrom ..common import X\n",
        "tools/canvas/__init__.py": "", "tools/canvas/undo/__init__.py": "",
        "tools/canvas/undo/history.py": "def f():\n    from ..layouts.page import Page\n",
        "tools/canvas/layouts/__init__.py": "", "tools/canvas/layouts/page.py": "from ..undo import history\n"})
    graph = import_graph(root)
    assert tools_back_arrows(graph) == [
        "stacgis_agent.tools.canvas.undo.history imports stacgis_agent.tools.canvas.layouts.page",
        "stacgis_agent.tools.engine.bands imports stacgis_agent.tools.stac.catalogs"]
    with pytest.raises(LookupError, match="tools.gadgets.x has no place"):
        tools_room("stacgis_agent.tools.gadgets.x")


def test_a_loose_module_and_a_forbidden_import_and_a_repeated_body_are_found(tmp_path):
    body = "    total = 0\n    for i in range(n):\n        if i % 2:\n            total += i * i\n" \
           "        else:\n            total -= i\n    return {'total': total, 'n': n, 'half': n // 2}\n"
    root = _tree(tmp_path, {"__init__.py": "", "plugin.py": "", "runtime.py": "",
                            "agent/a.py": f"def f(n):\n{body}", "tools/b.py": f"def g(n):\n    \"\"\"Doc.\"\"\"\n{body}",
                            "agent/bad.py": "import os\nfrom qgis.core import QgsProject\nimport PyQt5.QtCore as q\n"
                                            "importlib.import_module('qgis.gui')\n"})
    assert loose_root_modules(root) == ["runtime.py"]
    assert [m for _, m in _imported_modules(root / "agent/bad.py")] == [
        "os", "qgis.core.QgsProject", "PyQt5.QtCore", "qgis.gui"]
    assert repeated_bodies(product_files(root), root) == [["agent/a.py:1 f", "tools/b.py:1 g"]]


def test_a_tool_declared_in_a_closure_or_a_register_function_is_found(tmp_path):
    root = _tree(tmp_path, {
        "tools/declare.py": "def add_family(server):\n    server.add_tool(f)\n",
        "tools/old.py": "def register(server, deps):\n    @server.tool(annotations=1)\n    async def t():\n"
                        "        return deps\n    add_assessor(server, 't', t)\n",
        "tools/new.py": "@tool(annotations=1)\nasync def t(ctx):\n    return deps_of(ctx)\n"})
    assert tools_declared_elsewhere(root) == ["tools/old.py:1 def register", "tools/old.py:3 t declared inside register",
                                              "tools/old.py:5 added by a call in register"]


def test_a_requirement_imported_before_the_check_is_found_and_one_after_it_is_not(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "def classFactory(iface):\n    from .plugin import Plugin\n",
        "plugin.py": "import os\nfrom qgis.core import QgsApplication\nfrom .host import settings_store\n"
                     "class Plugin:\n    def initGui(self):\n        import httpx\n"
                     "    def _start_agent(self):\n        import mcp\n",
        "host/__init__.py": "import qasync\n",
        "host/settings_store.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import redis\n"
                                  "def load():\n    from ..agent.stores import pg\n"
                                  "def with_password():\n    import psycopg\n",
        "agent/__init__.py": "", "agent/stores/__init__.py": "", "agent/stores/pg.py": "import psycopg\n",
        "agent/unused.py": "import dask\n"})
    after = {"stacgis_agent.plugin": ("Plugin._start_agent",),
             "stacgis_agent.host.settings_store": ("with_password",)}
    reached, offenders = bootstrap_imports(root, after)
    assert "stacgis_agent.agent.unused" not in reached
    assert offenders == ["agent/stores/pg.py:1 imports psycopg", "host/__init__.py:1 imports qasync",
                         "plugin.py:6 imports httpx"]
