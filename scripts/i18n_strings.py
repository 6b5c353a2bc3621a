"""The dock's translation catalogs: collects every tr("…") and translatable("…") literal of ui/*.py, plugin/*.py
and of the core modules that write text for the dock (agent/, host/, tools/) (read with ast, nothing imported) into
i18n/stacgis_agent_<lang>.ts, keeping the translations already there; and the analyst's part of the tools' error
messages (scripts/tool_error_templates.py), which it also lists in the generated ui/tool_messages.py.

Usage: python scripts/i18n_strings.py            update the .ts files (new strings come unfinished; strings no
                                                 longer in the code are kept as vanished, not compiled)
       python scripts/i18n_strings.py --check    exit 1, naming each problem, when a .ts is behind the code, a
                                                 string has no translation, a translation's {placeholders} differ
                                                 from its source's, a .qm is missing or ui/tool_messages.py is
                                                 behind the tools' errors
`make translations` updates the .ts files and compiles them to .qm with Qt's lrelease.
"""

from __future__ import annotations

import ast
import string
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import tool_error_templates

REPO = Path(__file__).resolve().parents[1]
LANGUAGES = {"de": "de_DE", "fr": "fr_FR"}
CONTEXT = "StacGisAgent"  # ui/i18n.py's CONTEXT
MARKERS = ("tr", "translatable")


# Below ui/ (agent/, host/, tools/), a module that writes text for the dock is handed the dock's `tr` (see
# agent/dock_text.py: agent/ never imports Qt, host/ and tools/ never import ui/) and writes its texts as
# tr("…") and translatable("…") literals too: every module there is read.
CORE_FOLDERS = ("agent", "host", "tools")


def source_files(repo: Path = REPO) -> list[Path]:
    return (sorted((repo / "ui").glob("*.py")) + sorted((repo / "plugin").glob("*.py"))
            + [p for folder in CORE_FOLDERS for p in sorted((repo / folder).rglob("*.py"))])


def catalog_path(lang: str, repo: Path = REPO) -> Path:
    return repo / "i18n" / f"stacgis_agent_{lang}.ts"


def strings_in(path: Path) -> list[str]:
    """The literal texts passed to tr()/translatable() in `path`, in the order they appear."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS
                and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.col_offset, node.args[0].value))
    return [text for _line, _col, text in sorted(found)]


def collect(repo: Path = REPO) -> list[str]:
    """Every text to translate, once, in file and line order."""
    seen: dict[str, None] = {}
    for path in source_files(repo):
        for text in strings_in(path):
            seen.setdefault(text, None)
    if (repo / "tools").is_dir():
        for _template, told, _hints in tool_error_templates.entries(repo):
            seen.setdefault(told, None)
    return list(seen)


def placeholders(text: str) -> set[str]:
    try:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}
    except ValueError:  # a lone brace: the text has no placeholders
        return set()


def read_catalog(path: Path) -> dict[str, tuple[str, str]]:
    """source -> (translation, type): type is "" (finished), "unfinished" or "vanished"."""
    if not path.is_file():
        return {}
    entries = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        text = (translation.text or "") if translation is not None else ""
        kind = translation.get("type", "") if translation is not None else "unfinished"
        entries[source] = (text, kind)
    return entries


def write_catalog(path: Path, lang: str, sources: list[str], old: dict[str, tuple[str, str]]) -> None:
    root = ET.Element("TS", version="2.1", language=LANGUAGES[lang])
    context = ET.SubElement(root, "context")
    ET.SubElement(context, "name").text = CONTEXT
    current = set(sources)
    gone = [s for s, (text, _kind) in old.items() if s not in current and text]  # kept: the code may need it again
    for source in sources + gone:
        text, kind = old.get(source, ("", "unfinished"))
        if source not in current:
            kind = "vanished"
        elif not text:
            kind = "unfinished"
        elif kind == "vanished":
            kind = ""
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        translation = ET.SubElement(message, "translation")
        translation.text = text
        if kind:
            translation.set("type", kind)
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def update(repo: Path = REPO) -> None:
    if (repo / "tools").is_dir():
        count = tool_error_templates.write_module(repo)
        print(f"{tool_error_templates.MODULE}: {count} templates of the tools' errors")
    sources = collect(repo)
    for lang in LANGUAGES:
        path = catalog_path(lang, repo)
        old = read_catalog(path)
        write_catalog(path, lang, sources, old)
        missing = sum(1 for s in sources if not old.get(s, ("", ""))[0])
        print(f"{path.relative_to(repo)}: {len(sources)} strings, {missing} without a translation")


def problems(repo: Path = REPO) -> list[str]:
    sources = collect(repo)
    found = tool_error_templates.module_problems(repo)
    for lang in LANGUAGES:
        path = catalog_path(lang, repo)
        name = path.relative_to(repo)
        entries = read_catalog(path)
        if not entries:
            found.append(f"{name} is missing: run `make translations`")
            continue
        for source in sources:
            text, kind = entries.get(source, ("", "absent"))
            if kind == "absent":
                found.append(f"{name}: not in the catalog (run `make translations`): {source!r}")
            elif not text or kind:
                found.append(f"{name}: no translation for {source!r}")
            elif placeholders(text) != placeholders(source):
                found.append(f"{name}: the placeholders of {text!r} differ from those of {source!r}")
        stale = [s for s, (_text, kind) in entries.items() if s not in sources and kind != "vanished"]
        found += [f"{name}: no longer in the code, not marked vanished (run `make translations`): {s!r}"
                  for s in stale]
        if not path.with_suffix(".qm").is_file():
            found.append(f"{path.with_suffix('.qm').relative_to(repo)} is missing: run `make translations`")
    return found


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    if argv[1:]:
        print(__doc__)
        return 2
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
