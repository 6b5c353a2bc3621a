"""Refuses a release whose metadata.txt still holds placeholders (`make package RELEASE=1` runs it first).

plugins.qgis.org mails a confirmation link to `email` and staff cannot approve a version before it is clicked,
so a no-reply or made-up address stalls the release; on upload it HEADs `tracker`, `repository` and `homepage`
and refuses addresses that do not answer. metadata.txt is the one place these values live: the maintainers fill
them in there. A release also needs a changelog entry for its version.

    python3 scripts/release_check.py metadata.txt
Standard library only: it runs before any venv exists.
"""

from __future__ import annotations

import configparser
import re
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

# Names reserved for examples and documentation (RFC 2606, RFC 6761): they never reach a maintainer.
RESERVED_DOMAINS = ("example.com", "example.org", "example.net", "example", "invalid", "test", "localhost")
NO_REPLY = re.compile(r"no-?reply", re.IGNORECASE)
SITE_PLACEHOLDERS = {"http://bugs", "http://repo", "http://homepage"}  # what the plugin template ships
URL_KEYS = ("tracker", "repository", "homepage")
TIMEOUT_S = 10  # the site gives each address 10 s
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) stacgis-agent-release-check"  # some hosts refuse bare clients


def _reserved(host: str) -> bool:
    host = host.lower().rstrip(".")
    return any(host == d or host.endswith("." + d) for d in RESERVED_DOMAINS)


def email_problem(email: str) -> str | None:
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
        return f"email={email!r} is not an e-mail address"
    if NO_REPLY.search(email):
        return (f"email={email} is a no-reply address: the plugin repository mails a confirmation link there, "
                "and staff cannot approve the version before it is clicked")
    if _reserved(email.rsplit("@", 1)[1]):
        return f"email={email} is a placeholder (a reserved example domain)"
    return None


def url_placeholder(key: str, url: str) -> str | None:
    parsed = urlparse(url)
    if url in SITE_PLACEHOLDERS or not (parsed.scheme in ("http", "https") and parsed.hostname):
        return f"{key}={url!r} is not an address the plugin repository accepts"
    if _reserved(parsed.hostname):
        return f"{key}={url} is a placeholder (a reserved example domain)"
    return None


def url_answer_problem(key: str, url: str) -> str | None:
    """The site HEADs each address (redirects followed) and refuses one that fails or answers 400 or more."""
    request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:  # nosec B310 # http(s) checked above
            status = answer.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError) as exc:
        return f"{key}={url} does not answer ({getattr(exc, 'reason', exc)}); the plugin repository HEADs it on upload"
    if status >= 400:
        return f"{key}={url} answers HTTP {status}; the plugin repository refuses an address that does not answer"
    return None


def changelog_problem(version: str, changelog: str) -> str | None:
    entries = [line.strip() for line in changelog.splitlines() if line.strip()]
    if not any(re.match(rf"^{re.escape(version)}\b", entry) for entry in entries):
        return f"the changelog has no entry for version {version} (a line starting with '{version} - ')"
    return None


def problems(metadata: Path, check_answers: bool = True) -> list[str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_string(metadata.read_text(encoding="utf-8"))
    meta = parser["general"]
    found = [p for p in (email_problem(meta.get("email", "").strip()),
                         changelog_problem(meta.get("version", "").strip(), meta.get("changelog", "")))
             if p]
    for key in URL_KEYS:
        url = meta.get(key, "").strip()
        if key == "homepage" and not url:
            continue
        problem = url_placeholder(key, url)
        if problem is None and check_answers:
            problem = url_answer_problem(key, url)
        if problem:
            found.append(problem)
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    metadata = Path(args[0]) if args else Path(__file__).resolve().parents[1] / "metadata.txt"
    found = problems(metadata)
    if found:
        print(f"Not a release: {metadata} still needs the maintainers' values.", file=sys.stderr)
        for problem in found:
            print(f"  - {problem}", file=sys.stderr)
        print("Fill them in metadata.txt (the one place they live), then run `make package RELEASE=1` again. "
              "`make package` without RELEASE builds a zip for testing.", file=sys.stderr)
        return 1
    print(f"Release values in {metadata}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
