"""Voice input: word error rate per voice, on spoken requests the recogniser was or was not tuned on.

Each request of tests/data/voice/held_out_requests.json (never used to choose anything) or tuning_requests.json
is spoken by espeak-ng in each of the file's voices and speeds, resampled to 16 kHz as the dock does, and
recognised side by side by: Whisper tiny.en with the domain model (what the dock uses: speech_whisper with
speech_domain), Whisper tiny.en alone (its primed best transcript), and the pocketsphinx fallback. Prints per
voice the mean word error rate (after speech_words.normalise) and how many requests had every key word heard.

Run: .venv/bin/python bench/bench_voice.py [held_out|tuning] [--whisper-only] [--dock-only] [--show]
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import conftest  # noqa: E402,F401  (makes the checkout importable as stacgis_agent)
from stacgis_agent.tools.engine import speech, speech_sphinx, speech_whisper  # noqa: E402
from stacgis_agent.tools.engine.speech_words import keys_heard, word_error_rate  # noqa: E402

DATA = ROOT / "tests" / "data" / "voice"


def spoken(text: str, voice: str, speed: int) -> bytes:
    """16 kHz 16-bit mono PCM of `text` said by espeak-ng."""
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
                         capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(wav)) as recording:
        pcm, rate = recording.readframes(recording.getnframes()), recording.getframerate()
    import numpy as np

    return speech.resample(np.frombuffer(pcm, "<i2"), rate)


def run(recognisers: dict, data: dict, show: bool) -> dict[str, dict[str, tuple[float, int, float]]]:
    """Per recogniser, per voice: (mean WER, requests with every key word heard, seconds per request)."""
    found: dict[str, dict[str, list]] = {name: {} for name in recognisers}
    for voice in data["voices"]:
        label = f"{voice['name']}@{voice['speed']}"
        for request in data["requests"]:
            pcm = spoken(request["text"], voice["name"], voice["speed"])  # once, for every recogniser
            for name, recognise in recognisers.items():
                start = time.perf_counter()
                heard = recognise(pcm)
                seconds = time.perf_counter() - start
                error, clear = word_error_rate(request["text"], heard), keys_heard(request["keys"], heard)
                found[name].setdefault(label, []).append((error, clear, seconds))
                if show and (error > 0 or not clear):
                    print(f"    {name:14s} {label} {error:.2f} {request['text']!r} -> {heard!r}", flush=True)
    return {name: {label: (sum(e for e, _, _ in rows) / len(rows), sum(c for _, c, _ in rows),
                           sum(s for _, _, s in rows) / len(rows)) for label, rows in table.items()}
            for name, table in found.items()}


def main() -> None:
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is missing: `make setup-test` installs it (scripts/test_packages.sh)")
    which = next((a for a in sys.argv[1:] if not a.startswith("-")), "held_out")
    data = json.loads((DATA / f"{which}_requests.json").read_text())
    dock = speech_whisper.WhisperRecogniser()
    dock.load()
    recognisers = {"dock (domain)": dock.transcribe}
    if "--dock-only" not in sys.argv:
        alone = speech_whisper.WhisperRecogniser(domain=False)
        alone.load()
        recognisers["whisper alone"] = alone.transcribe
    if not {"--whisper-only", "--dock-only"} & set(sys.argv) and speech.sphinx_available():
        sphinx = speech_sphinx.SphinxRecogniser(Path(tempfile.mkdtemp(prefix="bench-voice-")))
        recognisers["pocketsphinx"] = sphinx.transcribe
    print(f"== {', '.join(recognisers)} on the {which} requests ({len(data['requests'])} requests, "
          f"{len(data['voices'])} voices)", flush=True)
    results = run(recognisers, data, "--show" in sys.argv)
    n = len(data["requests"])
    print(f"\n{'voice':26s}" + "".join(f"{name:>34s}" for name in results))
    print(f"{'':26s}" + "".join(f"{'WER  keys heard  s/request':>34s}" for _ in results))
    for voice in next(iter(results.values())):
        row = "".join(f"{r[voice][0]:>14.3f} {r[voice][1]:>8d}/{n} {r[voice][2]:>9.2f}" for r in results.values())
        print(f"{voice:26s}{row}")
    for name, table in results.items():
        mean = sum(v[0] for v in table.values()) / len(table)
        print(f"{name}: mean WER {mean:.3f} over {len(table)} voices; fewest requests with every key word heard: "
              f"{min(v[1] for v in table.values())}/{n}")


if __name__ == "__main__":
    main()
