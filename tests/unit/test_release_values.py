"""`make package RELEASE=1` refuses what would stall a release on plugins.qgis.org: a placeholder or no-reply
e-mail (the site mails a confirmation link there), tracker/repository/homepage addresses that are placeholders
or do not answer a HEAD (the site checks them on upload), a version without a changelog entry. Without RELEASE
the zip builds with the placeholders, for testing."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import release_check  # noqa: E402


def _package(out: Path, release: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "RELEASE": "1" if release else ""}
    return subprocess.run(["bash", str(REPO / "scripts" / "package.sh"), str(out)], capture_output=True,
                          text=True, env=env, timeout=120)


def test_a_release_with_the_placeholders_is_refused_with_what_to_fill_in(tmp_path):
    done = _package(tmp_path / "release", release=True)
    assert done.returncode != 0
    assert "email=maintainers@example.invalid is a placeholder" in done.stderr
    for key in ("tracker", "repository", "homepage"):
        assert f"{key}=https://example.invalid/" in done.stderr
    assert "metadata.txt" in done.stderr
    assert not list((tmp_path / "release").glob("*.zip"))


def test_without_release_the_zip_builds_with_the_placeholders(tmp_path):
    done = _package(tmp_path / "test", release=False)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip().splitlines()[-1]).is_file()


@pytest.fixture
def site():
    """A web server that answers HEAD on /ok/… with 200 and on anything else with 404."""

    class Answers(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):  # noqa: N802 - http.server's name
            self.send_response(200 if self.path.startswith("/ok/") else 404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def _metadata(tmp_path: Path, email: str, base: str, version: str = "1.2.0",
              changelog: str = "1.2.0 - Something new\n    1.1.0 - Before") -> Path:
    path = tmp_path / "metadata.txt"
    path.write_text(f"[general]\nname=X\nversion={version}\nemail={email}\ntracker={base}/ok/issues\n"
                    f"repository={base}/ok/repo\nhomepage={base}/ok/home\nchangelog=\n    {changelog}\n")
    return path


def test_real_values_that_answer_pass(tmp_path, site):
    assert release_check.problems(_metadata(tmp_path, "team@maps.example-agency.eu", site)) == []


def test_an_address_that_does_not_answer_a_no_reply_email_and_a_missing_changelog_entry_are_named(tmp_path, site):
    path = _metadata(tmp_path, "someone@users.noreply.github.com", site, version="1.3.0")
    path.write_text(path.read_text().replace("/ok/home", "/gone"))
    found = release_check.problems(path)
    assert len(found) == 3, found
    assert "no-reply address" in found[0] and "confirmation link" in found[0]
    assert "no entry for version 1.3.0" in found[1]
    assert found[2].startswith(f"homepage={site}/gone answers HTTP 404")


def test_the_current_version_has_its_changelog_entry():
    meta = release_check.configparser.ConfigParser(interpolation=None)
    meta.read_string((REPO / "metadata.txt").read_text())
    general = meta["general"]
    assert release_check.changelog_problem(general["version"], general["changelog"]) is None
