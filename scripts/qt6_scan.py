"""Scans the plugin for Qt 5-only usage, checked against the real PyQt6 (run in the Qt 6 venv).

Every name imported from qgis.PyQt.* must exist in PyQt6 (through the QGIS 4-style shim), and every
attribute chain on it (Qt.AlignmentFlag.AlignLeft, QSizePolicy.Policy.Expanding, QDialog.exec)
must resolve there: unscoped enums and removed Qt 5 APIs do not. Calls of exec_() on anything
are reported too. Prints one line per problem; exit status 1 if any.
Usage: python scripts/qt6_scan.py [FOLDER_OR_FILE...]   (default: the plugin's code)
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = ["plugin", "__init__.py", "ui", "host", "tools", "agent"]


def _files(targets: list[str]):
    for target in targets:
        path = (REPO / target) if not Path(target).is_absolute() else Path(target)
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def _chain(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def scan_file(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    problems, qt_names = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("qgis.PyQt"):
            try:
                module = importlib.import_module(node.module)
            except ImportError as exc:
                problems.append(f"{path}:{node.lineno}: {node.module} is not importable under Qt 6 ({exc})")
                continue
            for alias in node.names:
                if not hasattr(module, alias.name):  # a submodule (qgis.PyQt.sip) is there once imported
                    try:
                        importlib.import_module(f"{node.module}.{alias.name}")
                    except ImportError:
                        pass
                if not hasattr(module, alias.name):
                    problems.append(f"{path}:{node.lineno}: {node.module}.{alias.name} does not exist in Qt 6")
                else:
                    qt_names[alias.asname or alias.name] = getattr(module, alias.name)
    seen = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "exec_":
            problems.append(f"{path}:{node.lineno}: exec_() was removed in Qt 6: use exec()")
        chain = _chain(node) if isinstance(node, ast.Attribute) else None
        if not chain or chain[0] not in qt_names:
            continue
        obj = qt_names[chain[0]]
        for depth, attr in enumerate(chain[1:], start=1):
            if not hasattr(obj, attr):
                # an instance attribute (signals on instances, etc.) cannot be seen on the class
                if depth == 1 and isinstance(obj, type) and attr[:1].islower():
                    break
                key = (node.lineno, ".".join(chain[:depth + 1]))
                if key not in seen:
                    seen.add(key)
                    problems.append(f"{path}:{node.lineno}: {key[1]} does not exist in Qt 6 "
                                    "(unscoped enum or removed API?)")
                break
            obj = getattr(obj, attr)
    return problems


def main(argv: list[str]) -> int:
    try:
        import PyQt6  # noqa: F401
    except ImportError:
        print("qt6_scan: PyQt6 is not installed: run it with `make test-qt6`", file=sys.stderr)
        return 2
    problems = [p for f in _files(argv or DEFAULT) for p in scan_file(f)]
    print("\n".join(problems) if problems else "qt6_scan: no Qt 5-only usage found")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
