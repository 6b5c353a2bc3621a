"""The QGIS plugin repository's upload gate, run on the zip `make package` builds (`make gate`).

plugins.qgis.org validates an upload (zip structure, metadata) and then scans it: Bandit with an explicit list of
tests, detect-secrets, Flake8 with a list of codes, and a file analysis. A finding of a mandatory rule blocks the
version (no download, no approval); a finding of a skippable rule blocks it too unless the uploader unticks the
rule on the upload form, which we never ask anyone to do. So this gate fails on any finding of any rule the site
enables, and on a suppression (`# nosec`, `pragma: allowlist secret`) that does not name its rule and say why.

The rules are the site's own lists (scripts/plugin_gate_rules.json, with the commit they come from); the tools
are the versions the site pins (requirements-dev.txt), run the way the site runs them. This is our own code
written from reading the site's, not a copy of it.

    python scripts/plugin_gate.py dist/stacgis_agent-0.1.0.zip
"""

from __future__ import annotations

import argparse
import configparser
import importlib.metadata
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

RULES = Path(__file__).with_name("plugin_gate_rules.json")
MAX_UPLOAD_BYTES = 25_000_000  # the site's PLUGIN_MAX_UPLOAD_SIZE (and its web server's body limit)
REQUIRED_METADATA = ("name", "description", "version", "qgisMinimumVersion", "author", "email", "about",
                     "tracker", "repository")
PLACEHOLDER_URLS = {"tracker": "http://bugs", "repository": "http://repo", "homepage": "http://homepage"}
FORBIDDEN_DIRS = ("__MACOSX", ".git", "__pycache__")
SUSPICIOUS_EXTENSIONS = (".exe", ".dll", ".so", ".dylib", ".bat", ".sh", ".ps1", ".cmd")
HIDDEN_ALLOWED = (".gitignore", ".gitattributes", ".bandit", ".secrets.baseline", ".flake8")
TOOLS = {"bandit": "1.9", "detect-secrets": "1.5", "flake8": "7.3", "flake8-json": "24.4"}  # the site's ~= pins
# A suppression says which rule it silences and why: `# nosec B603 # argv list, no shell`.
NOSEC = re.compile(r"#\s*nosec\b(?P<rest>.*)$")
NOSEC_EXPLAINED = re.compile(r"^:?\s*(B\d{3})(\s*,\s*B\d{3})*\s+#\s*\S.{7,}$")
ALLOWLIST = re.compile(r"pragma:\s*allowlist[ -]secret(?P<rest>.*)$", re.IGNORECASE)


BLOCKING_TOOLS = ("structure", "bandit", "secrets", "suppression")  # the site blocks on Bandit and secrets findings


@dataclass(frozen=True)
class Finding:
    tool: str  # structure, bandit, secrets, flake8, file_analysis, suppression
    rule: str
    where: str  # path inside the zip, with the line
    message: str
    mandatory: bool  # False: a rule the uploader may untick on the form

    @property
    def kind(self) -> str:
        """blocking: the site refuses or blocks the version whatever the form says; skippable: it blocks it unless
        the uploader unticks the rule; reported: shown to the uploader and to the reviewers."""
        if self.tool not in BLOCKING_TOOLS:
            return "reported"
        return "blocking" if self.mandatory else "skippable"

    def line(self) -> str:
        return f"  [{self.kind}] {self.tool} {self.rule} {self.where}: {self.message}"


def load_rules(path: Path = RULES) -> dict[str, dict[str, list[str]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def enabled(rules: dict, tool: str) -> list[str]:
    return sorted(rules[tool]["mandatory"] + rules[tool]["skippable"])


def is_mandatory(rules: dict, tool: str, code: str) -> bool:
    return code in rules[tool]["mandatory"]


# ---- the validator: structure and metadata ------------------------------------------------------------------
def check_structure(package: Path) -> tuple[list[Finding], configparser.SectionProxy | None]:
    """What the site's validator refuses before any scan (all of it mandatory: the upload is rejected)."""
    found: list[Finding] = []

    def refuse(rule: str, where: str, message: str) -> None:
        found.append(Finding("structure", rule, where, message, True))

    if package.stat().st_size > MAX_UPLOAD_BYTES:
        refuse("size", package.name, f"{package.stat().st_size:,} bytes, over the {MAX_UPLOAD_BYTES:,} allowed")
    try:
        archive = zipfile.ZipFile(package)
    except zipfile.BadZipFile:
        refuse("zip", package.name, "not a zip file")
        return found, None
    with archive:
        names = archive.namelist()
        for name in names:
            if ".." in name or name.startswith("/") or "\\" in name or re.match(r"^[A-Za-z]:", name):
                refuse("path", name, "a path with '..', a leading '/', a backslash or a drive letter")
            if ".pyc" in name:
                refuse("pyc", name, "compiled Python (.pyc) is refused")
            if set(name.split("/")) & set(FORBIDDEN_DIRS):
                refuse("directory", name, f"one of {', '.join(FORBIDDEN_DIRS)} is refused")
        bad = archive.testzip()
        if bad:
            refuse("crc", bad, "bad zip entry (CRC error)")
        tops = sorted({n.split("/")[0] for n in names})
        if len(tops) != 1 or "/" not in names[0]:
            refuse("folder", package.name, f"one top folder expected, found {tops}")
            return found, None
        top = tops[0]
        if not top.isidentifier() or not re.match(r"^[A-Za-z][A-Za-z0-9-_]+$", top):
            refuse("folder", top, "the top folder must be a Python identifier of ASCII letters, digits and '_'")
        for required in ("__init__.py", "metadata.txt", "LICENSE"):
            if f"{top}/{required}" not in names:
                refuse("missing", f"{top}/{required}", "required in the package")
        if f"{top}/metadata.txt" not in names:
            return found, None
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str  # keys keep their case, as the site reads them
        try:
            parser.read_file(io.StringIO(archive.read(f"{top}/metadata.txt").decode("utf-8")))
        except (configparser.Error, UnicodeDecodeError) as exc:
            refuse("metadata", "metadata.txt", f"cannot be parsed: {exc}")
            return found, None
        if not parser.has_section("general"):
            refuse("metadata", "metadata.txt", "no [general] section")
            return found, None
        meta = parser["general"]
        for key in REQUIRED_METADATA:
            if not meta.get(key, "").strip():
                refuse("metadata", f"metadata.txt {key}", "required by the site")
        icon = meta.get("icon", "").removeprefix("./")
        if icon and f"{top}/{icon}" not in names:
            refuse("metadata", f"metadata.txt icon={icon}", "the icon is not in the package")
        if "/" in meta.get("author", ""):
            refuse("metadata", "metadata.txt author", "the author cannot contain '/'")
        for key, placeholder in PLACEHOLDER_URLS.items():
            url = meta.get(key, "").strip()
            if key == "homepage" and not url:
                continue
            parsed = urlparse(url)
            if url == placeholder or not (parsed.scheme and parsed.netloc):
                refuse("metadata", f"metadata.txt {key}={url}", "not a valid URL")
        return found, meta


# ---- the scanner --------------------------------------------------------------------------------------------
def _run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)  # nosec B603 # our argv


def scan_bandit(root: Path, rules: dict) -> list[Finding]:
    """Bandit over every file, only the tests the site enables, every severity (the site omits -ll then)."""
    done = _run([sys.executable, "-m", "bandit", "-r", str(root), "-f", "json", "--quiet",
                 "-t", ",".join(enabled(rules, "bandit"))])
    report = json.loads(done.stdout or "{}")
    if "results" not in report:
        raise RuntimeError(f"bandit gave no report: {done.stderr.strip()[:500]}")
    if report.get("errors"):
        raise RuntimeError(f"bandit could not read some files: {report['errors']}")
    return [Finding("bandit", r["test_id"], f"{_inside(r['filename'], root)}:{r['line_number']}",
                    r["issue_text"], is_mandatory(rules, "bandit", r["test_id"])) for r in report["results"]]


def scan_secrets(root: Path, rules: dict) -> list[Finding]:
    """detect-secrets over every file but metadata.txt, with the detectors the site disables turned off."""
    command = [sys.executable, "-m", "detect_secrets", "scan", "--all-files",
               "--exclude-files", r"metadata\.txt", "--exclude-files", r"\.secrets\.baseline"]
    for plugin in rules["secrets"]["disabled"]:
        command += ["--disable-plugin", plugin]
    done = _run([*command, "."], cwd=root)
    report = json.loads(done.stdout or "{}")
    if "results" not in report:
        raise RuntimeError(f"detect-secrets gave no report: {done.stderr.strip()[:500]}")
    by_type = _detector_names(report)
    found = []
    for path, secrets in report["results"].items():
        for secret in secrets:
            rule = by_type.get(secret["type"], secret["type"])
            found.append(Finding("secrets", rule, f"{path}:{secret['line_number']}", f"possible {secret['type']}",
                                 rule not in rules["secrets"]["skippable"]))
    return found


def _detector_names(report: dict) -> dict[str, str]:
    """detect-secrets reports a secret's type ("Basic Auth Credentials"); the rules name its detector class."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return {kind: cls.__name__ for kind, cls in get_mapping_from_secret_type_to_class().items()}


def scan_flake8(root: Path, rules: dict) -> list[Finding]:
    files = sorted(str(p) for p in root.rglob("*.py"))
    if not files:
        return []
    done = _run([sys.executable, "-m", "flake8", "--format=json", "--max-line-length=120",
                 "--select", ",".join(enabled(rules, "flake8")), *files])
    if not done.stdout.strip().startswith("{"):
        raise RuntimeError(f"flake8 (with flake8-json) gave no report: {done.stderr.strip()[:500]}")
    return [Finding("flake8", issue["code"], f"{_inside(path, root)}:{issue['line_number']}", issue["text"],
                    is_mandatory(rules, "flake8", issue["code"]))
            for path, issues in json.loads(done.stdout).items() for issue in issues]


def scan_files(package: Path, rules: dict) -> list[Finding]:
    """The site's file analysis: executable Python files, hidden files, executables and libraries."""
    on = set(enabled(rules, "file_analysis"))
    found = []
    with zipfile.ZipFile(package) as archive:
        for info in archive.infolist():
            name, mode = info.filename, info.external_attr >> 16
            base = name.rstrip("/").rsplit("/", 1)[-1]
            if "FILE_EXECUTABLE" in on and name.endswith(".py") and mode & 0o111:
                found.append(Finding("file_analysis", "FILE_EXECUTABLE", name, "Python file with an executable bit",
                                     is_mandatory(rules, "file_analysis", "FILE_EXECUTABLE")))
            if "FILE_HIDDEN" in on and base.startswith(".") and base not in HIDDEN_ALLOWED:
                found.append(Finding("file_analysis", "FILE_HIDDEN", name, "hidden file",
                                     is_mandatory(rules, "file_analysis", "FILE_HIDDEN")))
            if "FILE_SUSPICIOUS" in on and name.lower().endswith(SUSPICIOUS_EXTENSIONS):
                found.append(Finding("file_analysis", "FILE_SUSPICIOUS", name, "executable or library file",
                                     is_mandatory(rules, "file_analysis", "FILE_SUSPICIOUS")))
    return found


def unexplained_suppressions(root: Path) -> list[Finding]:
    """A `# nosec` must name its Bandit test(s) and say why after a second `#`; a detect-secrets allowlist
    pragma must say why too. Otherwise it hides findings nobody can review."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            where = f"{_inside(str(path), root)}:{number}"
            nosec = NOSEC.search(line) if path.suffix == ".py" else None
            if nosec and not NOSEC_EXPLAINED.match(nosec.group("rest").strip()):
                found.append(Finding("suppression", "nosec", where,
                                     "name the test and say why: `# nosec B603 # argv list, no shell`", True))
            allow = ALLOWLIST.search(line)
            if allow and len(allow.group("rest").strip(" -:#>*/")) < 8:
                found.append(Finding("suppression", "allowlist", where,
                                     "say why after the pragma: `pragma: allowlist secret - a made-up example`",
                                     True))
    return found


def _inside(path: str, root: Path) -> str:
    return os.path.relpath(path, root)


def tool_versions() -> list[str]:
    """Problems with the installed scanners: the site's results are those of its pinned versions."""
    problems = []
    for name, wanted in TOOLS.items():
        try:
            have = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{name} is not installed (pip install -r requirements-dev.txt)")
            continue
        if have.split(".")[:2] != wanted.split("."):
            problems.append(f"{name} {have} is installed; the site runs {name} ~={wanted}")
    return problems


def gate(package: Path, rules_path: Path = RULES) -> tuple[list[Finding], list[str]]:
    """Every finding that would stop the upload, and the lines of the report."""
    rules = load_rules(rules_path)
    findings, meta = check_structure(package)
    with tempfile.TemporaryDirectory(prefix="plugin-gate-") as folder:
        root = Path(folder)
        with zipfile.ZipFile(package) as archive:
            archive.extractall(root)  # checked above: no '..', no absolute names
        findings += scan_bandit(root, rules)
        findings += scan_secrets(root, rules)
        findings += scan_flake8(root, rules)
        findings += scan_files(package, rules)
        findings += unexplained_suppressions(root)
    by_kind = {kind: [f for f in findings if f.kind == kind] for kind in ("blocking", "skippable", "reported")}
    report = [f"{package.name}: {package.stat().st_size:,} bytes; "
              f"version {meta.get('version', '?') if meta is not None else '?'}",
              f"rules: {', '.join(f'{t} {len(enabled(rules, t))}' for t in rules)} "
              f"(from {json.loads(rules_path.read_text())['_source']})",
              f"blocking (validator, mandatory rules, unexplained suppressions): {len(by_kind['blocking'])}",
              *[f.line() for f in by_kind["blocking"]],
              f"skippable (they block too unless unticked on the upload form): {len(by_kind['skippable'])}",
              *[f.line() for f in by_kind["skippable"]],
              f"reported (Flake8, file analysis): {len(by_kind['reported'])}",
              *[f.line() for f in by_kind["reported"]]]
    return findings, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zip", type=Path, help="the plugin zip (make package)")
    parser.add_argument("--rules", type=Path, default=RULES)
    args = parser.parse_args(argv)
    problems = tool_versions()
    if problems:
        print("plugin gate: " + "; ".join(problems), file=sys.stderr)
        return 2
    findings, report = gate(args.zip, args.rules)
    print("\n".join(report))
    if findings:
        print(f"plugin gate: FAILED, {len(findings)} finding(s) would stop the upload", file=sys.stderr)
        return 1
    print("plugin gate: passed (0 blocking, 0 skippable, 0 reported)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
