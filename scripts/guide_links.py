"""The links and pictures of the README and the user guide: which are broken, and which files the plugin must ship
for its Help to show the guide (the pages and every picture they show).

    python3 scripts/guide_links.py --check      # every broken link, anchor or picture; exit 1 when any
    python3 scripts/guide_links.py --package    # the guide's files to ship, one path per line (package.sh)

A link is checked when it is relative (a file of the repository, and its #section when it names one, with the
anchors GitHub gives headings) or a #section of the same page; web links are left alone (no network here).
Standard library only: package.sh runs it before any venv exists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parents[1]
GUIDE = Path("docs") / "guide"
INDEX = GUIDE / "README.md"
PICTURES = (".png", ".jpg", ".jpeg", ".gif", ".svg")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
TARGETS = (
    re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"),  # [text](target), ![alt](target "title")
    re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)"),  # [label]: target
    re.compile(r"<(?:img|a)\s[^>]*?(?:src|href)=\"([^\"]+)\"", re.IGNORECASE),  # HTML
)


def heading_anchor(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _prose_lines(text: str):
    """(line number, line) outside fenced code blocks, with inline code removed."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, INLINE_CODE.sub("", line)


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings; a repeated heading gets -1, -2… as on GitHub."""
    seen: dict[str, int] = {}
    for _number, line in _prose_lines(text):
        heading = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            anchor = heading_anchor(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            seen.setdefault(f"{anchor}-{count}" if count else anchor, 1)
    return set(seen)


def links(text: str) -> list[tuple[int, str]]:
    found = []
    for number, line in _prose_lines(text):
        in_line = sorted((m.start(), m.group(1)) for pattern in TARGETS for m in pattern.finditer(line))
        found += [(number, target) for _start, target in in_line]
    return found


def local_target(page: Path, target: str) -> tuple[Path, str] | None:
    """(the file a relative link names, its #section) or None for a web or mail link."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    path = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    return path, unquote(parts.fragment)


def broken(pages: list[Path], root: Path = REPO) -> list[str]:
    """`page:line target: why` for every link, anchor or picture of `pages` that leads nowhere."""
    problems = []
    for page in pages:
        for number, target in links(page.read_text(encoding="utf-8")):
            local = local_target(page, target)
            if local is None:
                continue
            path, section = local
            where = f"{page.relative_to(root)}:{number} {target}"
            try:
                path.relative_to(root.resolve())
            except ValueError:
                problems.append(f"{where}: leads outside the repository")
                continue
            if not path.exists():
                problems.append(f"{where}: no such file")
            elif section and path.suffix == ".md" and section not in anchors(path.read_text(encoding="utf-8")):
                problems.append(f"{where}: no heading with the anchor #{section}")
    return problems


def documents(root: Path = REPO) -> list[Path]:
    """The README, the guide's pages (translations included) and the developer pages."""
    return [root / "README.md", *sorted((root / GUIDE).rglob("*.md")), *sorted((root / "docs").glob("*.md"))]


def guide_files(root: Path = REPO) -> list[Path]:
    """What Help shows: the guide's pages and the pictures they show, as paths relative to `root`."""
    pages = sorted((root / GUIDE).rglob("*.md"))
    files = set(pages)
    for page in pages:
        for _number, target in links(page.read_text(encoding="utf-8")):
            local = local_target(page, target)
            if local and local[0].suffix.lower() in PICTURES and local[0].is_file():
                files.add(local[0])
    return sorted(p.resolve().relative_to(root.resolve()) for p in files)


def main(argv: list[str]) -> int:
    if argv == ["--package"]:
        print("\n".join(str(p) for p in guide_files()))
        return 0
    if argv == ["--check"]:
        problems = broken(documents())
        print("\n".join(problems) if problems else "README and guide: every link and picture leads somewhere")
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
