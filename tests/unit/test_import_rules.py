"""agent/ must never import qgis or Qt: that is what keeps the core testable without QGIS."""

from __future__ import annotations

import ast
from pathlib import Path

AGENT = Path(__file__).resolve().parents[2] / "agent"
FORBIDDEN = ("qgis", "PyQt5", "PyQt6", "PySide2", "PySide6", "qasync", "sip")


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            found.append((node.lineno, str(node.args[0].value)))
    return found


def test_no_module_under_agent_imports_qgis_or_qt():
    files = sorted(AGENT.rglob("*.py"))
    assert len(files) > 10  # the scan really walked the package
    offenders = [f"{path.relative_to(AGENT.parent)}:{line} imports {module}"
                 for path in files for line, module in _imported_modules(path)
                 if module.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_the_scan_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom qgis.core import QgsProject\nimport PyQt5.QtCore as q\n"
                   "importlib.import_module('qgis.gui')\n")
    modules = [m for _, m in _imported_modules(bad)]
    assert modules == ["os", "qgis.core", "PyQt5.QtCore", "qgis.gui"]
