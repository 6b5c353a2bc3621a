"""Runs one short prompt through the llama.cpp engine in .build/llama-venv, in a child process.

Usage: .build/llama-venv/bin/python scripts/llama_smoke.py MODEL.gguf
Exits 0 when the engine answers; otherwise prints one sentence naming the cause and the fix.
The engine runs in a child so that an illegal instruction (SIGILL) is seen, not suffered.
"""

from __future__ import annotations

import signal
import subprocess
import sys

PROBE = (
    "import sys\n"
    "from llama_cpp import Llama\n"
    "llm = Llama(model_path=sys.argv[1], n_ctx=128, n_threads=1, verbose=False)\n"
    "out = llm('Hello', max_tokens=2)\n"
    "print('ok', len(out['choices']))\n"
)
REBUILD = "rebuild it portably with `rm -rf .build/llama-venv && make setup-test`"


def engine_problem(model: str, timeout_s: float = 300.0, probe: str = PROBE) -> str | None:
    """None when one prompt runs; else the sentence to show."""
    try:
        proc = subprocess.run([sys.executable, "-c", probe, model], capture_output=True, text=True,
                              timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return f"the llama.cpp engine did not answer one short prompt within {timeout_s:g} s; {REBUILD}"
    if proc.returncode == 0 and proc.stdout.startswith("ok"):
        return None
    if proc.returncode in (-signal.SIGILL, 128 + signal.SIGILL, 132):
        return ("the llama.cpp engine stopped with an illegal instruction (SIGILL): it was compiled for "
                "CPU features this machine does not let a process use (e.g. AMX under a virtual machine); "
                + REBUILD)
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
    return f"the llama.cpp engine failed on one short prompt (exit {proc.returncode}: {tail[0]}); {REBUILD}"


def main() -> int:
    problem = engine_problem(sys.argv[1])
    if problem:
        print(f"llama smoke test: {problem}", file=sys.stderr)
        return 1
    print("llama smoke test: the engine answered one prompt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
