"""The test PostgreSQL when none can start: one clear message (a failure in CI), not a cascade of
errors from tests that only needed it, and stop() never turns a skip into an error."""

from __future__ import annotations

import pytest

from testkit.servers import pg_binaries, pg_server


@pytest.fixture
def no_pgvector(monkeypatch):
    monkeypatch.setattr(pg_server, "pgvector_binaries", lambda: None)
    monkeypatch.setattr(pg_server, "_shared", None)
    monkeypatch.setattr(pg_server, "_shared_failure", None)


def test_without_a_server_the_first_test_says_why_and_the_rest_skip(no_pgvector, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pgvector"):
        pg_server.shared_pg()
    with pytest.raises(pytest.skip.Exception, match="reported by an earlier test"):
        pg_server.shared_pg()


def test_in_ci_a_missing_server_fails_once_clearly(no_pgvector, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true.*failure|pgvector.*CI=true"):
        pg_server.shared_pg()
    # the others do not repeat the failure 23 times
    with pytest.raises(pytest.skip.Exception, match="reported by an earlier test"):
        pg_server.shared_pg()


def test_stopping_a_server_that_never_started_is_quiet(no_pgvector):
    server = pg_server.PgServer()
    server.stop()  # no binaries, no cluster: nothing to stop, no ImportError
    assert not server.base.exists()


def test_the_hint_names_the_package_for_the_installed_postgresql(monkeypatch):
    monkeypatch.setattr(pg_binaries, "system_majors", lambda: [17])
    assert "postgresql-17-pgvector" in pg_binaries.missing_pgvector_hint()
