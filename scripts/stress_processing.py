"""Runs the background-Processing stress (tests/testkit/qgis_drivers/processing_stress.py) many times, each run in its own
process, and counts how each one ended: a crash of QGIS (a signal such as SIGSEGV) is a dead child, not a
dead runner.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/stress_processing.py --runs 50
    .venv/bin/python scripts/stress_processing.py --runs 1 --gdb      # one run under gdb, every thread's stack on a crash

Prints one line per run and a summary `runs=N ok=K crashed=C failed=F`; exits 1 unless every run was ok.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = Path(__file__).resolve().parents[1] / "tests" / "testkit" / "qgis_drivers" / "processing_stress.py"
GDB = ["gdb", "-q", "-batch", "-ex", "set pagination off", "-ex", "run", "-ex", "thread apply all bt 20", "--args"]


def outcome(returncode: int, output: str) -> str:
    """ok, crashed (killed by a signal; under gdb: a signal reported) or failed (an assertion, a timeout)."""
    if "received signal SIG" in output or returncode < 0 or returncode in (134, 139):
        return "crashed"
    if returncode == 0 and "STRESS OK" in output:
        return "ok"
    return "failed"


def run_once(algorithms: int, churn: str, under_gdb: bool, timeout_s: float, log: Path | None) -> tuple[str, int, float]:
    command = [sys.executable, str(CHILD), str(algorithms), churn]
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    started = time.monotonic()
    try:
        done = subprocess.run((GDB if under_gdb else []) + command, capture_output=True, text=True,
                              timeout=timeout_s, env=env)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        code, output = 124, f"timed out after {timeout_s:.0f} s\n{expired.stdout or ''}{expired.stderr or ''}"
    if log is not None:
        log.write_text(output if isinstance(output, str) else output.decode(errors="replace"))
    return outcome(code, output), code, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--algorithms", type=int, default=30)
    parser.add_argument("--churn", choices=("add-remove", "add", "none"), default="add-remove")
    parser.add_argument("--gdb", action="store_true", help="run each child under gdb (keeps its log)")
    parser.add_argument("--logs", type=Path, help="folder for each run's output (always kept for a crash)")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    logs = args.logs or Path(os.environ.get("TMPDIR", "/tmp")) / "stacgis-stress-processing"
    logs.mkdir(parents=True, exist_ok=True)
    counts = {"ok": 0, "crashed": 0, "failed": 0}
    for n in range(1, args.runs + 1):
        log = logs / f"run-{n:03d}.txt"
        result, code, seconds = run_once(args.algorithms, args.churn, args.gdb, args.timeout, log)
        counts[result] += 1
        name = signal.Signals(-code).name if code < 0 else f"exit {code}"
        print(f"run {n}: {result} ({name}, {seconds:.1f} s){'' if result == 'ok' else f' log: {log}'}", flush=True)
        if result == "ok" and not args.gdb:
            log.unlink()
    print(f"runs={args.runs} ok={counts['ok']} crashed={counts['crashed']} failed={counts['failed']} "
          f"(algorithms={args.algorithms} churn={args.churn}{' gdb' if args.gdb else ''})", flush=True)
    return 0 if counts["ok"] == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
