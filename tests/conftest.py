"""Makes the checkout importable as `stacgis_agent` whatever the folder is called,
and `testkit` (emulators, servers) importable from every test tier."""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def _package_root() -> Path:
    # A symlink named stacgis_agent pointing at the checkout, kept outside the repository
    # so that nothing walking the repository meets a cycle.
    digest = hashlib.sha1(str(REPO).encode()).hexdigest()[:12]
    root = Path(tempfile.gettempdir()) / f"stacgis-agent-import-{digest}"
    root.mkdir(parents=True, exist_ok=True)
    link = root / "stacgis_agent"
    if not (link.is_symlink() and os.readlink(link) == str(REPO)):
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(REPO, target_is_directory=True)
    return root


for path in (str(_package_root()), str(TESTS)):
    if path not in sys.path:
        sys.path.insert(0, path)
