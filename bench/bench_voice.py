"""Voice input: word error rate per voice, on spoken requests the recogniser was or was not tuned on.

Each request of tests/data/voice/held_out_requests.json (never used to choose anything) or tuning_requests.json
is spoken by espeak-ng in each of the file's voices and speeds, resampled to 16 kHz as the dock does, and
recognised by Whisper (tiny.en, faster-whisper) and by the pocketsphinx fallback, side by side. Prints per
voice the mean word error rate (after speech_words.normalise) and how many requests had every key word heard.

Run: .venv/bin/python bench/bench_voice.py [held_out|tuning] [--whisper-only] [--show]
"""

from __future__ import annotations

import io
import json
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


def run(recognise, data: dict, show: bool) -> dict[str, tuple[float, int, float]]:
    """Per voice: (mean WER, requests with every key word heard, seconds per request)."""
    table = {}
    for voice in data["voices"]:
        errors, clear, seconds = [], 0, 0.0
        for request in data["requests"]:
            pcm = spoken(request["text"], voice["name"], voice["speed"])
            start = time.perf_counter()
            heard = recognise(pcm)
            seconds += time.perf_counter() - start
            errors.append(word_error_rate(request["text"], heard))
            clear += keys_heard(request["keys"], heard)
            if show and (errors[-1] > 0 or not keys_heard(request["keys"], heard)):
                print(f"    {voice['name']}@{voice['speed']} {errors[-1]:.2f} {request['text']!r} -> {heard!r}")
        table[f"{voice['name']}@{voice['speed']}"] = (sum(errors) / len(errors), clear, seconds / len(errors))
    return table


def main() -> None:
    which = next((a for a in sys.argv[1:] if not a.startswith("-")), "held_out")
    data = json.loads((DATA / f"{which}_requests.json").read_text())
    show = "--show" in sys.argv
    recognisers = {"whisper tiny.en": lambda pcm: whisper.transcribe(pcm)}
    whisper = speech_whisper.WhisperRecogniser()
    whisper.load()
    if "--whisper-only" not in sys.argv and speech.sphinx_available():
        sphinx = speech_sphinx.SphinxRecogniser(Path(tempfile.mkdtemp(prefix="bench-voice-")))
        recognisers["pocketsphinx"] = sphinx.transcribe
    results = {}
    for name, recognise in recognisers.items():
        print(f"== {name} on the {which} requests ({len(data['requests'])} requests)")
        results[name] = run(recognise, data, show)
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
