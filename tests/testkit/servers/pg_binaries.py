"""Where the PostgreSQL programs for a test cluster come from, whatever the Debian release.

Debian installs each major version under /usr/lib/postgresql/N (15 on bookworm, 17 on trixie,
18 on sid) and its extensions under /usr/share/postgresql/N/extension. The newest major that
has the wanted extension wins. On bookworm, which has no pgvector package, the `pgserver`
wheel (Python < 3.13 only) bundles PostgreSQL 16 with pgvector.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

LIB = Path("/usr/lib/postgresql")
SHARE = Path("/usr/share/postgresql")


@dataclass(frozen=True)
class PgBinaries:
    bin: Path
    origin: str  # "system N" or "pgserver wheel"
    run_as: str | None  # the user initdb/postgres run as when we are root (they refuse root)


def system_majors() -> list[int]:
    """Installed Debian PostgreSQL major versions, newest first."""
    if not LIB.is_dir():
        return []
    majors = [int(p.name) for p in LIB.iterdir() if re.fullmatch(r"\d+", p.name) and (p / "bin" / "initdb").exists()]
    return sorted(majors, reverse=True)


def system_binaries(extension: str | None = None) -> PgBinaries | None:
    """The newest system PostgreSQL that has `extension` (e.g. "vector", "postgis"), or None."""
    for major in system_majors():
        if extension is None or (SHARE / str(major) / "extension" / f"{extension}.control").exists():
            return PgBinaries(LIB / str(major) / "bin", f"system PostgreSQL {major}",
                              "postgres" if os.geteuid() == 0 else None)
    return None


def wheel_binaries() -> PgBinaries | None:
    """The binaries bundled in the `pgserver` wheel, prepared to run as its own user when root."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pgserver warns about XDG_RUNTIME_DIR on import
            from pgserver import utils
            from pgserver._commands import POSTGRES_BIN_PATH
    except ImportError:
        return None
    user = None
    if os.geteuid() == 0:
        user = "pgserver"
        utils.ensure_user_exists(user)
        utils.ensure_prefix_permissions(POSTGRES_BIN_PATH)
        utils.ensure_folder_permissions(POSTGRES_BIN_PATH, 0o055)
        utils.ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", 0o044)
    return PgBinaries(Path(POSTGRES_BIN_PATH), "pgserver wheel", user)


def pgvector_binaries() -> PgBinaries | None:
    """PostgreSQL with pgvector: the system's first (trixie, sid, or bookworm with the PGDG
    package), else the pgserver wheel."""
    return system_binaries("vector") or wheel_binaries()


def missing_pgvector_hint() -> str:
    majors = system_majors()
    if majors:
        return (f"no pgvector for the installed PostgreSQL {majors[0]}: install postgresql-{majors[0]}-pgvector, "
                "or on Python < 3.13 the pgserver wheel (requirements-dev.txt)")
    return "no PostgreSQL with pgvector: install postgresql and postgresql-N-pgvector (make setup-test)"
