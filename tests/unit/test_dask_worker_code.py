"""The code a Dask cluster is given: a worker with the zip alone (no plugin) can import the reads it runs."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from stacgis_agent.tools.engine import dask_runner, stats_worker


def test_the_workers_zip_alone_imports_every_module_the_reads_need(tmp_path):
    """A module added to the reads but not to the zip left every worker unable to unpickle a task: the job waited
    for ever (the scale-out test hung instead of failing)."""
    code = dask_runner.worker_code_zip(tmp_path)
    names = zipfile.ZipFile(code).namelist()
    assert any(n.endswith("/stats_worker.py") for n in names)
    probe = ("import sys, importlib; m = importlib.import_module(sys.argv[1]); "
             "assert '.zip' in m.__file__, m.__file__; m.read_item")
    env = {**os.environ, "PYTHONPATH": str(code)}
    run = subprocess.run([sys.executable, "-c", probe, stats_worker.__name__], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_the_module_list_follows_the_code(tmp_path, monkeypatch):
    """worker_modules reads the imports: a module the reads import is found, however deep and however imported."""
    (tmp_path / "stats_worker.py").write_text("from . import a\nfrom .b import thing\n\ndef f():\n    from .c import x\n")
    (tmp_path / "a.py").write_text("from .d import y\nfrom ..elsewhere import z\nimport numpy\n")
    for name in ("b", "c", "d"):
        (tmp_path / f"{name}.py").write_text("")
    (tmp_path / "unused.py").write_text("")
    monkeypatch.setattr(dask_runner, "__file__", str(tmp_path / "dask_runner.py"))
    assert dask_runner.worker_modules() == ["a", "b", "c", "d", "stats_worker"]
