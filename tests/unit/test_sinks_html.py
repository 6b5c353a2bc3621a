"""Issue 40.6: HTML written for a browser has one guard, tools/session/safe_html.py. Nothing else in the product
turns text into HTML through Qt (setHtml, insertHtml, toHtml) or writes an .html file; the scan reads the source
and fails on a call elsewhere (it found the report's own Markdown → HTML path before the guard)."""

from __future__ import annotations

import ast
from pathlib import Path

from testkit.sink_scan import ROOT, Sink, calls_in, product_files, reached_outside

GUARD = "tools/session/safe_html.py"
HTML = Sink("HTML for a browser", ("setHtml", "insertHtml", "toHtml", "appendHtml"), (GUARD,))
WRITERS = ("write_text", "write_bytes", "write", "open", "writeRawData")


def html_files_written(root: Path = ROOT) -> list[str]:
    """Calls that write a file and name ".html" (or an "html" variable) in their receiver or arguments."""
    found = []
    for path in product_files(root):
        relative = str(path.relative_to(root))
        if relative == GUARD:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in WRITERS:
                continue
            parts = [node.func.value] if isinstance(node.func, ast.Attribute) else []
            parts += list(node.args) + [k.value for k in node.keywords]
            words = [n.value for part in parts for n in ast.walk(part) if isinstance(n, ast.Constant)
                     and isinstance(n.value, str)]
            names = [n.id for part in parts for n in ast.walk(part) if isinstance(n, ast.Name)]
            if any("html" in w.lower() for w in words) or any("html" in n.lower() for n in names):
                found.append(f"{relative}:{node.lineno} {name}")
    return sorted(found)


def _planted(tmp_path: Path) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "leak.py").write_text(
        "def leak(doc, target, html):\n    doc.setHtml(html)\n    target.write_text(html)\n"
        "    open('report.html', 'w')\n")
    return tmp_path


def test_only_the_guard_turns_text_into_html_for_a_browser(tmp_path):
    assert reached_outside(HTML, _planted(tmp_path)) == ["tools/leak.py:2 setHtml"]  # the scan finds a bypass
    assert calls_in(HTML), "the scan reads the tree: the guard's own calls are found"
    assert reached_outside(HTML) == []


def test_only_the_guard_writes_an_html_file(tmp_path):
    assert html_files_written(_planted(tmp_path)) == ["tools/leak.py:3 write_text", "tools/leak.py:4 open"]
    assert html_files_written() == []
