"""The package never runs or unpickles data (model output, catalog JSON), and its SQL passes values as
parameters: checked on the source of every module the plugin ships."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOT_SHIPPED = {"tests", "bench", "scripts", "docs", ".venv", ".build", ".git", "resources"}
FORBIDDEN_CALLS = {"exec", "eval", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "marshal", "shelve", "cloudpickle", "joblib"}
# Names that may be put into SQL text: table/column identifiers and "?,?,?" placeholder lists, never values.
SQL_IDENTIFIERS = {"self.table", "self._t", "table", "t", "_HIT_COLUMNS", "_INFO_COLUMNS", "marks", "cols", "self._table"}
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|WITH|PRAGMA|REPLACE)\b")  # SQL is upper case here


def shipped_modules() -> list[Path]:
    return sorted(p for p in REPO.rglob("*.py") if not NOT_SHIPPED & set(p.relative_to(REPO).parts[:1]))


def test_the_check_sees_the_whole_package():
    names = {str(p.relative_to(REPO)) for p in shipped_modules()}
    assert {"plugin/__init__.py", "plugin/runtime.py", "host/requirements.py", "host/qt_asyncio.py", "agent/loop.py", "tools/server.py",
            "ui/chat_panel.py"} <= names
    assert not any(n.startswith("tests/") for n in names)


def test_no_exec_eval_or_pickle_in_the_package():
    found = []
    for path in shipped_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                found.append(f"{where} calls {node.func.id}()")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in {"exec", "eval"} and isinstance(node.func.value, ast.Name) and \
                    node.func.value.id in {"builtins", "__builtins__"}:
                found.append(f"{where} calls builtins.{node.func.attr}()")
            if isinstance(node, ast.Import):
                found += [f"{where} imports {a.name}" for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"{where} imports from {node.module}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in {
                    "load", "loads"} and isinstance(node.func.value, ast.Name) and node.func.value.id == "yaml":
                found.append(f"{where} calls yaml.{node.func.attr} (use safe_load)")
    assert found == []


def _sql_text(node: ast.AST) -> bool:
    parts = [v.value for v in getattr(node, "values", []) if isinstance(v, ast.Constant)]
    text = (parts[0] if parts else getattr(node, "value", "")) if not isinstance(node, ast.BinOp) else ""
    return isinstance(text, str) and bool(SQL_START.match(text))


def test_sql_passes_values_as_parameters():
    found = []
    for path in shipped_modules():
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source, str(path))):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.JoinedStr) and _sql_text(node):
                for value in node.values:
                    if isinstance(value, ast.FormattedValue):
                        expr = ast.get_source_segment(source, value.value)
                        if expr not in SQL_IDENTIFIERS:
                            found.append(f"{where} puts {{{expr}}} into SQL text")
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)) and \
                    isinstance(node.left, ast.Constant) and isinstance(node.left.value, str) and \
                    SQL_START.match(node.left.value):
                found.append(f"{where} builds SQL with {'%' if isinstance(node.op, ast.Mod) else '+'}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
                    and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) \
                    and SQL_START.match(node.func.value.value):
                found.append(f"{where} builds SQL with str.format (use psycopg.sql composition)")
    assert found == []


def test_the_sql_check_catches_a_value_put_into_sql(tmp_path):
    bad = 'def f(conn, user):\n    conn.execute(f"SELECT * FROM t WHERE user = \'{user}\'")\n'
    tree = ast.parse(bad)
    joined = [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]
    assert joined and _sql_text(joined[0])
    exprs = [ast.get_source_segment(bad, v.value) for v in joined[0].values if isinstance(v, ast.FormattedValue)]
    assert exprs == ["user"] and "user" not in SQL_IDENTIFIERS
