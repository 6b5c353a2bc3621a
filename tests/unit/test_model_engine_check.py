"""The model tier checks its engine before relying on it: an engine that traps on an instruction
the machine does not grant (a native llama.cpp build using AMX inside a VM) fails with one sentence
naming the cause and the fix, not with a dead server at the first prompt."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
from pathlib import Path

from testkit.llm.llama_server import engine_failure

ROOT = Path(__file__).resolve().parents[2]


def _smoke_module():
    spec = importlib.util.spec_from_file_location("llama_smoke", ROOT / "scripts" / "llama_smoke.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_engine_that_traps_is_named_with_its_cause_and_fix():
    smoke = _smoke_module()
    trap = "import os, signal; os.kill(os.getpid(), signal.SIGILL)"  # what a native build does on a VM without AMX
    problem = smoke.engine_problem("unused.gguf", probe=trap)
    assert problem is not None
    assert "illegal instruction (SIGILL)" in problem
    assert "rm -rf .build/llama-venv && make setup-test" in problem


def test_an_engine_that_answers_passes():
    assert _smoke_module().engine_problem("unused.gguf", probe="print('ok 1')") is None


def test_a_server_that_dies_at_its_first_prompt_says_why():
    child = subprocess.run(["python3", "-c", "import os, signal; os.kill(os.getpid(), signal.SIGILL)"])
    assert child.returncode == -signal.SIGILL
    sentence = engine_failure(child.returncode, RuntimeError("connection reset"))
    assert "illegal instruction" in sentence and "make setup-test" in sentence
    assert "exited (1)" in engine_failure(1, RuntimeError("x"))


def test_the_build_is_portable():
    """No -march=native-style detection: the Makefile turns GGML_NATIVE off and never lets pip reuse a
    wheel it cached from another build."""
    makefile = (ROOT / "Makefile").read_text()
    assert "-DGGML_NATIVE=OFF" in makefile
    recipe = makefile[makefile.index("$(LLAMA_VENV)/.ready-portable:"):]
    recipe = recipe[:recipe.index("\n\n")]
    assert "--no-cache-dir" in recipe and 'CMAKE_ARGS="$(LLAMA_CMAKE)"' in recipe
